import GRDB

/// What an insert stores: every column but `id`, which the insert returns (`AppDatabase.insert`).
extension NewDeck: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "decks"
}

extension Deck: FetchableRecord, TableRecord {
    public static let databaseTableName = "decks"

    /// The id and, from the same row, the content (`NewDeck`'s decoding ignores the `id` column).
    public init(row: Row) throws {
        self.init(id: row["id"], try NewDeck(row: row))
    }
}

extension Deck: PersistableRecord {
    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        try content.encode(to: &container)
    }
}
