import Foundation
import GRDB

/// A deck with how many cards it has (deck list).
public struct DeckSummary: Sendable, Hashable {
    public var deck: Deck
    public var cardCount: Int
    public var cover: String
}

extension AppDatabase {
    /// Inserts a validated deck and its cards in one transaction.
    /// - Throws: `ApiError.slugTaken` when the slug exists.
    @discardableResult
    public func importDeck(_ deck: Deck, cards: [Card], progress: (@Sendable (Int) -> Void)? = nil) throws -> Deck {
        try pool.write { db in
            if try Deck.filter(Column("slug") == deck.slug).fetchCount(db) > 0 { throw ApiError.slugTaken }
            var d = deck
            try d.insert(db)
            guard let deckId = d.id else { return d }
            let stmt = try db.makeStatement(sql: """
                INSERT INTO cards (deckId, position, title, subtitle, body, image, link, accent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for (i, c) in cards.enumerated() {
                try stmt.execute(arguments: [deckId, c.position, c.title, c.subtitle, c.body, c.image, c.link, c.accent])
                if i % 1000 == 999 { progress?(i + 1) }
            }
            progress?(cards.count)
            return d
        }
    }

    public func decks() throws -> [DeckSummary] {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT d.*, (SELECT COUNT(*) FROM cards c WHERE c.deckId = d.id) AS cardCount,
                       (SELECT image FROM cards c WHERE c.deckId = d.id ORDER BY position LIMIT 1) AS cover
                FROM decks d ORDER BY d.createdAt, d.id
                """)
            return try rows.map { r in DeckSummary(deck: try Deck(row: r), cardCount: r["cardCount"], cover: r["cover"] ?? "") }
        }
    }

    public func deck(slug: String) throws -> Deck? {
        try pool.read { db in try Deck.filter(Column("slug") == slug).fetchOne(db) }
    }

    public func deckSlug(id: Int64) throws -> String {
        guard let s = try pool.read({ db in try String.fetchOne(db, sql: "SELECT slug FROM decks WHERE id = ?", arguments: [id]) }) else {
            throw ApiError.notFound("deck")
        }
        return s
    }

    public func card(id: Int64) throws -> Card? {
        try pool.read { db in try Card.fetchOne(db, key: id) }
    }

    /// Ids of the deck's cards (for the in-memory catalog).
    public func cardIds(deckId: Int64) throws -> Set<Int64> {
        try pool.read { db in Set(try Int64.fetchAll(db, sql: "SELECT id FROM cards WHERE deckId = ?", arguments: [deckId])) }
    }

    /// Up to `limit` cards after `position` (exclusive) that the participant has no live swipe on,
    /// in deck order, and the number of such cards left in total.
    public func unswipedCards(deckId: Int64, participant: String?, after position: Int, limit: Int) throws -> (cards: [Card], remaining: Int) {
        try pool.read { db in
            let filter = """
                FROM cards WHERE deckId = ? AND position > ?
                AND id NOT IN (SELECT cardId FROM swipes WHERE participantId = ? AND deckId = ? AND undoneAt IS NULL)
                """
            let args: StatementArguments = [deckId, position, participant ?? "", deckId]
            // Cached statements: the deck page and the cards API run these on every request.
            let cards = try Card.fetchAll(db.cachedStatement(sql: "SELECT * \(filter) ORDER BY position LIMIT ?"), arguments: args + [limit])
            let remaining = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) \(filter)"), arguments: args) ?? 0
            return (cards, remaining)
        }
    }

    /// The admin token, creating and storing `fresh()` on first use. `created` tells whether it is new.
    public func adminToken(orCreate fresh: () -> String) throws -> (token: String, created: Bool) {
        try pool.write { db in
            if let t = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'adminToken'") { return (t, false) }
            let t = fresh()
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES ('adminToken', ?)", arguments: [t])
            return (t, true)
        }
    }
}
