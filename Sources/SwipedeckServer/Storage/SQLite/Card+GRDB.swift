import GRDB

extension Card: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "cards"

    public init(row: Row) throws {
        self.init(id: row["id"], try NewCard(row: row))
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        try content.encode(to: &container)
    }
}

/// What an insert stores: every column but `id`, which the insert returns (`AppDatabase.insert`).
extension NewCard: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "cards"

    /// Reads the columns directly (the deck page and cards API fetch cards on every request;
    /// the `Decodable` path was most of that read's cost).
    public init(row: Row) throws {
        deckId = row["deckId"]
        position = row["position"]
        title = row["title"]
        subtitle = row["subtitle"]
        body = row["body"]
        image = row["image"]
        moreImages = Card.decodeImageList(row["moreImages"])
        link = row["link"]
        accent = row["accent"]
        revision = row["revision"] ?? 1
        archivedAt = row["archivedAt"]
        answer = row["answer"]
    }

    /// `moreImages` is stored as a JSON array of strings (GRDB encodes `[String]` that way).
    public func encode(to container: inout PersistenceContainer) throws {
        container["deckId"] = deckId
        container["position"] = position
        container["title"] = title
        container["subtitle"] = subtitle
        container["body"] = body
        container["image"] = image
        container["moreImages"] = Card.encodeImageList(moreImages)
        container["link"] = link
        container["accent"] = accent
        container["revision"] = revision
        container["archivedAt"] = archivedAt
        container["answer"] = answer
    }
}
