/// The cards a participant is dealt next, in the deck's order: the one place the deck page and
/// the cards API page through a deck.
public struct Dealer: Sendable {
    let store: any Store

    public init(store: any Store) {
        self.store = store
    }

    /// A page of cards to deal.
    public struct Page: Sendable {
        public var cards: [Card]
        /// Cards left to deal this participant, this page's included.
        public var remaining: Int
        /// The cursor of the next page; nil when this page holds every card left.
        public var nextCursor: Int?
        /// The participant's undecided cards not dealt because the stop rule decided them
        /// (adaptive order, `keepDecided` off); 0 in any other order.
        public var retired = 0
    }

    /// Up to `limit` of the participant's unswiped active cards after `cursor` in the deck's order.
    ///
    /// A listed or shuffled deck pages by sort key (`CardOrder.sortKey`). An adaptive deck's order
    /// changes with every vote, so each page is the first `limit` cards of the order now
    /// (`AdaptiveDeal.ordered` over the counts the results count, decided cards retired) and the
    /// cursor is ignored: the page may repeat cards the client holds, which it skips (deck.js).
    ///
    /// A host-paced deck (`pacing`) deals the presenter's card alone, while it takes decisions at
    /// `now` and the participant has not decided it; their other undecided cards are `retired`
    /// (neither left nor decided), and the cursor is ignored.
    public func page(
        deck: Deck, participant: String?, after cursor: Int, limit: Int, pacing: Pacing, now: Double
    ) async throws -> Page {
        if pacing.hosted { return try await paced(deck: deck, participant: participant, pacing: pacing, now: now) }
        let order = deck.cardOrder
        guard order == .adaptive else {
            let (cards, remaining) = try await store.unswipedCards(
                deckId: deck.id, participant: participant, order: order, after: cursor, limit: limit)
            let next = remaining > cards.count ? cards.last.map { order.sortKey($0, participant: participant) } : nil
            return Page(cards: cards, remaining: remaining, nextCursor: next)
        }
        let unswiped = try await store.unswipedCards(
            deckId: deck.id, participant: participant, order: .shuffled, after: -1, limit: DeckInput.maxCards
        ).cards
        let report = try await store.results(for: deck)
        let counts = Dictionary(uniqueKeysWithValues: report.activeCounts.map { ($0.cardId, $0) })
        let ordered = AdaptiveDeal.ordered(
            unswiped, counts: counts, rule: deck.stopRule, participant: participant ?? "")
        let cards = Array(ordered.prefix(max(0, limit)))
        return Page(
            cards: cards, remaining: ordered.count, nextCursor: ordered.count > cards.count ? -1 : nil,
            retired: unswiped.count - ordered.count)
    }

    /// `page` on a host-paced deck.
    private func paced(deck: Deck, participant: String?, pacing: Pacing, now: Double) async throws -> Page {
        let undecided = try await store.unswipedCards(
            deckId: deck.id, participant: participant, order: .listed, after: -1, limit: 0
        ).remaining
        guard let cardId = pacing.cardId, pacing.isCardOpen(at: now), let card = try await store.card(id: cardId),
            card.deckId == deck.id
        else {
            return Page(cards: [], remaining: 0, nextCursor: nil, retired: undecided)
        }
        // The participant's first undecided card from the presenter's on, in the listed order: that
        // card itself unless they decided it (or it is archived).
        let next = try await store.unswipedCards(
            deckId: deck.id, participant: participant, order: .listed, after: card.position - 1, limit: 1
        ).cards
        let dealt = next.first?.id == cardId ? next : []
        return Page(cards: dealt, remaining: dealt.count, nextCursor: nil, retired: undecided - dealt.count)
    }
}
