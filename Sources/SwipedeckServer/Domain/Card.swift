/// One card of a deck.
public struct Card: Sendable, Hashable, Codable {
    /// Row id; nil before insertion. Exposed in the API as `id`.
    public var id: Int64?
    public var deckId: Int64
    /// Order in the deck, from 0.
    public var position: Int
    /// 1–200 characters.
    public var title: String
    /// Up to 300 characters.
    public var subtitle: String
    /// Detail text, up to 5,000 characters.
    public var body: String
    /// Image path on this server (`/img/...`) or an https URL; may be empty.
    public var image: String
    /// Optional link (http/https), opened by a tap on the card's link.
    public var link: String
    /// CSS hex colour `#RRGGBB` used behind the image.
    public var accent: String
    /// 1 for the card as first added; each edit stores a new revision (older ones stay in
    /// `cardRevisions`, and each swipe names the revision it judged).
    public var revision: Int = 1
    /// When the owner archived the card (seconds since 1970): it is dealt to nobody any more,
    /// its swipes stay. nil while active.
    public var archivedAt: Double?

    public init(id: Int64? = nil, deckId: Int64, position: Int, title: String, subtitle: String = "", body: String = "", image: String = "", link: String = "", accent: String = "#6C5CE7") {
        self.id = id
        self.deckId = deckId
        self.position = position
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.image = image
        self.link = link
        self.accent = accent
    }
}

// MARK: - Database
import GRDB

extension Card: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "cards"

    /// Reads the columns directly (the deck page and cards API fetch cards on every request;
    /// the `Decodable` path was most of that read's cost).
    public init(row: Row) throws {
        id = row["id"]
        deckId = row["deckId"]
        position = row["position"]
        title = row["title"]
        subtitle = row["subtitle"]
        body = row["body"]
        image = row["image"]
        link = row["link"]
        accent = row["accent"]
        revision = row["revision"] ?? 1
        archivedAt = row["archivedAt"]
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
