/// The order of an `adaptive` deck for one participant: one pure function both engines' deals
/// go through (`Dealer`), from the cards the participant has not swiped and the deck's counts.
public enum AdaptiveDeal {
    /// `cards` (the participant's unswiped active cards) in adaptive order: undecided cards first,
    /// those with the fewest counted votes first, then the widest confidence sequence, ties broken
    /// by the participant's shuffle key (so two people are not dealt identical orders) and the id.
    /// Decided cards (`StopRule.verdict`) are retired — left out — unless the rule keeps them
    /// (`keepDecided`), then they come last in the same order. Without a rule nothing is decided:
    /// the order is fewest votes first. A card missing from `counts` has no votes.
    public static func ordered(
        _ cards: [Card], counts: [Int64: CardCount], rule: StopRule, participant: String
    ) -> [Card] {
        let keyed = cards.compactMap { card -> (card: Card, key: (Int, Int, Double, Int, Int64))? in
            let count = counts[card.id] ?? CardCount(cardId: card.id, likes: 0, votes: 0)
            let decided = rule.verdict(likes: count.likes, votes: count.votes)?.isDecided == true
            if decided && !rule.keepDecided { return nil }
            let bounds = rule.bounds(likes: count.likes, votes: count.votes)
            // Negated so that the widest sorts first in an ascending sort.
            let narrowness = -(bounds.upper - bounds.lower)
            let shuffle = CardOrder.shuffleKey(participant: participant, cardId: card.id)
            return (card, (decided ? 1 : 0, count.votes, narrowness, shuffle, card.id))
        }
        return keyed.sorted { $0.key < $1.key }.map(\.card)
    }
}
