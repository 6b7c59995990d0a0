import Synchronization

/// In-memory index of decks by slug and their card ids, so the swipe hot path needs no read
/// transaction to check that a card belongs to a deck. Misses fall through to the database,
/// so decks imported by another process are found too. An entry is read anew once the store
/// marks its deck edited (`Store.edits`: on PostgreSQL also an edit through another server) —
/// the big screen's pace (`Pacing`) is such an edit, so a host-paced deck's swipes read the
/// presenter's card here too.
public final class Catalog: Sendable {
    struct Entry {
        var deck: Deck
        var active: Set<Int64>
        var archived: Set<Int64>
        /// The deck's pace on a big screen (`Pacing.off` without one).
        var pacing: Pacing
        /// `DeckEdits.generation` before the entry was read.
        var generation: Int
    }

    /// What a card id is in a deck.
    public enum CardState: Sendable {
        case active, archived, absent
    }

    private let store: any Store
    private let entries = Mutex<[String: Entry]>([:])

    public init(store: any Store) {
        self.store = store
    }

    /// The deck and whether `card` (if given) belongs to it.
    /// - Throws: `ApiError.notFound("deck")`.
    public func deck(_ slug: String) async throws -> Deck {
        try await entry(slug).deck
    }

    /// What `card` is in the deck (reloading the deck's cards once on a miss).
    public func card(_ card: Int64, in slug: String) async throws -> CardState {
        if let state = Self.state(of: card, in: try await entry(slug)) { return state }
        entries.withLock { _ = $0.removeValue(forKey: slug) }
        return Self.state(of: card, in: try await entry(slug)) ?? .absent
    }

    /// Whether the card belongs to the deck, archived or not.
    public func contains(card: Int64, in slug: String) async throws -> Bool {
        try await self.card(card, in: slug) != .absent
    }

    /// The deck's pace: host-paced decks take decisions on the presenter's card only.
    public func pacing(_ slug: String) async throws -> Pacing {
        try await entry(slug).pacing
    }

    /// Number of the deck's active (not archived) cards.
    public func cardCount(_ slug: String) async throws -> Int {
        try await entry(slug).active.count
    }

    private static func state(of card: Int64, in e: Entry) -> CardState? {
        e.active.contains(card) ? .active : e.archived.contains(card) ? .archived : nil
    }

    /// Forgets a deck, so the next request reads it anew: for a change `edits` was not told of
    /// (another process on the same SQLite file, such as `swipedeck owner add` adopting decks).
    public func invalidate(_ slug: String) {
        entries.withLock { _ = $0.removeValue(forKey: slug) }
    }

    /// A hit costs two locks and no suspension's work; a miss, or a deck edited since it was
    /// read, reads the deck off the concurrency pool.
    private func entry(_ slug: String) async throws -> Entry {
        let edits = store.edits
        if let e = entries.withLock({ $0[slug] }), !edits.isStale(e.deck.id, since: e.generation) { return e }
        let generation = edits.generation
        guard let deck = try await store.deck(slug: slug) else {
            entries.withLock { _ = $0.removeValue(forKey: slug) }
            throw ApiError.notFound("deck")
        }
        let ids = try await store.cardIds(deckId: deck.id)
        let pacing = try await store.presentation(deckId: deck.id)?.pacing ?? .off
        let e = Entry(deck: deck, active: ids.active, archived: ids.archived, pacing: pacing, generation: generation)
        entries.withLock { $0[slug] = e }
        return e
    }
}
