import GRDB

/// One row of the owner's dashboard.
public struct DeckActivity: Sendable, Hashable {
    public var deck: Deck
    /// Active cards (archived ones are out of the deck swipers see).
    public var cards: Int
    /// Live swipes (not undone), all kinds.
    public var swipes: Int
    /// Distinct participants with a live swipe.
    public var participants: Int
    /// Live swipes stored in the last hour: what `swipes` counts, so it is never more.
    public var lastHour: Int
}

extension AppDatabase {
    /// The owner's decks, newest first, with their activity; `since` is the start of "the last hour".
    /// Live counts come from the aggregates (`SwipeAggregates`); the last hour is a range of the
    /// append-only index `swipes_by_deck_time`.
    public func activity(ownerId: Int64, since: Double) async throws -> [DeckActivity] {
        try await pool.read { db in
            let decks = try Deck.filter(Column("ownerId") == ownerId).order(Column("createdAt").desc, Column("id").desc).fetchAll(db)
            return try decks.map { d in
                let id = d.id ?? 0
                let row = try Row.fetchOne(db, sql: """
                    SELECT (SELECT COUNT(*) FROM cards WHERE deckId = ? AND archivedAt IS NULL) AS cards,
                           (SELECT COALESCE(SUM(n), 0) FROM swipeTallies WHERE deckId = ?) AS swipes,
                           (SELECT COALESCE(SUM(n), 0) FROM participantMasks WHERE deckId = ? AND mask != 0) AS participants,
                           (SELECT COUNT(*) FROM swipes WHERE deckId = ? AND createdAt >= ? AND undoneAt IS NULL) AS lastHour
                    """, arguments: [id, id, id, id, since])
                return DeckActivity(deck: d, cards: row?["cards"] ?? 0, swipes: row?["swipes"] ?? 0,
                                    participants: row?["participants"] ?? 0, lastHour: row?["lastHour"] ?? 0)
            }
        }
    }
}
