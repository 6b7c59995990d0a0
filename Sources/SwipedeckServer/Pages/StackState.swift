/// What a swiper can do on a deck's stack page right now, for the page's first paint (deck.js
/// moves on from it: to `limitReached` or `finished` as decisions are made, back on an undo).
///
/// Every state but `open` disables the buttons and the drag: a decision there would not count.
enum StackState: String, Sendable, CaseIterable {
    /// Cards to decide, and decisions count.
    case open
    /// The deck has no active card at all (a new deck, or every card archived).
    case noCards
    /// The owner closed the deck: no swipe counts until it opens again.
    case closed
    /// This visitor holds no participant credential yet: the join budget of their network is
    /// spent (`JoinBudget`). The page tries again by itself after Retry-After; with scripts the
    /// swiper decides at once and the decisions wait on the device until the credential arrives.
    case joining
    /// Every active card has this participant's decision.
    case finished
    /// This participant made the deck's per-person number of decisions (`Deck.quota`).
    case limitReached
    /// Host-paced (`Pacing`): no card of the presenter's to decide now — before the first, after
    /// this person decided it, once its time ran out, after the last. The stage moves it on.
    case waiting

    /// The state of a deck with `activeCards` active cards of which this participant has not
    /// decided `remaining`; `joining` when the visitor waits for a credential. Checked in this
    /// order: no cards, closed, joining, finished, limit reached. A host-paced deck (`paced`:
    /// `remaining` is the presenter's card, `retired` the person's other undecided cards) is at
    /// its limit or waiting for the presenter when it deals nothing, never finished.
    /// The decisions counted against the quota are those on active cards (`activeCards −
    /// remaining`); a swipe on a card archived since still counts on the server, which then
    /// refuses with `quota_reached` and the page moves to `limitReached` itself.
    /// The cards this person may still decide, as the counter says: the undecided ones, at most
    /// what the quota leaves (`quota − decided`, never below 0).
    static func cardsLeft(remaining: Int, decided: Int, quota: Int?) -> Int {
        guard let quota else { return remaining }
        return max(0, min(remaining, quota - decided))
    }

    static func of(
        _ deck: Deck, activeCards: Int, remaining: Int, joining: Bool = false, paced: Bool = false, retired: Int = 0
    ) -> StackState {
        if activeCards == 0 { return .noCards }
        if !deck.isOpen { return .closed }
        if joining { return .joining }
        if paced {
            if let quota = deck.quota, activeCards - remaining - retired >= quota { return .limitReached }
            return remaining == 0 ? .waiting : .open
        }
        if remaining == 0 { return .finished }
        if let quota = deck.quota, activeCards - remaining >= quota { return .limitReached }
        return .open
    }
}
