import Foundation
import GRDB

extension AppDatabase {
    /// Inserts a validated deck and its cards in one transaction.
    /// - Throws: `StoreError.slugTaken` when the slug exists.
    @discardableResult
    public func importDeck(_ deck: NewDeck, cards: [NewCard], progress: (@Sendable (Int) -> Void)? = nil) async throws
        -> Deck
    {
        try await writer.write { db in
            if try Deck.filter(Column("slug") == deck.slug).fetchCount(db) > 0 { throw StoreError.slugTaken }
            try deck.insert(db)
            let d = Deck(id: db.lastInsertedRowID, deck)
            let deckId = d.id
            let stmt = try db.makeStatement(
                sql: """
                    INSERT INTO cards (deckId, position, title, subtitle, body, image, moreImages, link, accent, answer)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for (i, c) in cards.enumerated() {
                try stmt.execute(arguments: [
                    deckId, c.position, c.title, c.subtitle, c.body, c.image, Card.encodeImageList(c.moreImages),
                    c.link, c.accent, c.answer,
                ])
                if i % 1000 == 999 { progress?(i + 1) }
            }
            progress?(cards.count)
            try db.execute(
                sql: """
                    INSERT INTO cardRevisions (cardId, revision, title, subtitle, body, image, moreImages, link, accent, createdAt)
                    SELECT id, 1, title, subtitle, body, image, moreImages, link, accent, ? FROM cards WHERE deckId = ?
                    """, arguments: [d.createdAt, deckId])
            return d
        }
    }

    public func decks() async throws -> [DeckSummary] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.*, (SELECT COUNT(*) FROM cards c WHERE c.deckId = d.id AND c.archivedAt IS NULL) AS cardCount,
                           (SELECT image FROM cards c WHERE c.deckId = d.id AND c.archivedAt IS NULL ORDER BY position LIMIT 1) AS cover
                    FROM decks d ORDER BY d.createdAt, d.id
                    """)
            return try rows.map { r in
                DeckSummary(deck: try Deck(row: r), cardCount: r["cardCount"], cover: r["cover"] ?? "")
            }
        }
    }

    public func deck(slug: String) async throws -> Deck? {
        try await writer.read { db in try Deck.filter(Column("slug") == slug).fetchOne(db) }
    }

    public func deckSlug(id: Int64) async throws -> String {
        guard
            let s = try await writer.read({ db in
                try String.fetchOne(db, sql: "SELECT slug FROM decks WHERE id = ?", arguments: [id])
            })
        else {
            throw StoreError.notFound(.deck)
        }
        return s
    }

    public func card(id: Int64) async throws -> Card? {
        try await writer.read { db in try Card.fetchOne(db, key: id) }
    }

    /// Ids of the deck's cards (for the in-memory catalog).
    public func cardIds(deckId: Int64) async throws -> (active: Set<Int64>, archived: Set<Int64>) {
        try await writer.read { db in
            var ids: (active: Set<Int64>, archived: Set<Int64>) = ([], [])
            for row in try Row.fetchAll(
                db, sql: "SELECT id, archivedAt IS NOT NULL FROM cards WHERE deckId = ?", arguments: [deckId])
            {
                if row[1] as Bool { ids.archived.insert(row[0]) } else { ids.active.insert(row[0]) }
            }
            return ids
        }
    }

    /// Up to `limit` active (not archived) cards after `cursor` (exclusive) that the participant
    /// has no live swipe on, in the deck's order, and the number of such cards left in total.
    ///
    /// The order is `position` for a listed deck; for a shuffled one it is `shuffleKey(participant,
    /// card)`, a fixed pseudo-random order per participant. `cursor` is the last card's sort key
    /// (position or shuffle key; -1 to start).
    public func unswipedCards(
        deckId: Int64, participant: String?, order: CardOrder = .listed, after cursor: Int, limit: Int
    ) async throws -> (cards: [Card], remaining: Int) {
        try await writer.read { db in
            let key = order == .listed ? "position" : "sd_shuffle_key(?, id)"
            let filter = """
                FROM cards WHERE deckId = ? AND archivedAt IS NULL AND \(key) > ?
                AND id NOT IN (SELECT cardId FROM swipes WHERE participantId = ? AND undoneAt IS NULL)
                """
            let who = participant ?? ""
            // The subquery reads the covering partial index swipes_live_once (participant, card);
            // the outer query keeps this deck's cards, so it needs no deck filter.
            let args: StatementArguments =
                order == .listed
                ? [deckId, cursor, who] : [deckId, who, cursor, who]
            let sortArgs: StatementArguments = order == .listed ? [limit] : [who, limit]
            // Cached statements: the deck page and the cards API run these on every request.
            let cards = try Card.fetchAll(
                db.cachedStatement(sql: "SELECT * \(filter) ORDER BY \(key), id LIMIT ?"), arguments: args + sortArgs)
            let remaining = try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) \(filter)"), arguments: args) ?? 0
            return (cards, remaining)
        }
    }

    /// Every card of the deck in order, archived ones included (the owner's editor).
    public func allCards(deckId: Int64) async throws -> [Card] {
        try await writer.read { db in
            try Card.filter(Column("deckId") == deckId).order(Column("position"), Column("id")).fetchAll(db)
        }
    }
}
