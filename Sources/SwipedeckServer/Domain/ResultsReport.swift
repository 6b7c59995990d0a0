import SwipePhysics

/// A deck's results: cards ranked by the lower bound of the Wilson 95 % interval of their
/// like rate. Likes are `right`, `up` and `up_right` (yes, super-yes); every other direction
/// is a pass. Only live swipes of the kinds the deck counts (`countedInputs`) rank a card;
/// every live swipe is also counted by kind (`kinds`), suspect ones included, so the owner sees
/// what was left out. Swipes of excluded participants are in none of these numbers.
public struct ResultsReport: Sendable, Encodable {
    public struct CardResult: Sendable, Encodable {
        public var rank: Int
        public var cardId: Int64
        public var title: String
        public var image: String
        /// The card's colour, `#RRGGBB`: the placeholder shown when it has no image or it fails.
        public var accent: String
        /// The card's current revision (swipes name theirs in the per-swipe export).
        public var revision: Int
        /// Archived cards are dealt to nobody any more; their swipes still count.
        public var archived: Bool
        public var likes: Int
        /// Counted swipes.
        public var total: Int
        /// likes / total, 0 when total is 0.
        public var likeRate: Double
        public var wilson: WilsonInterval
        /// Counted swipes per direction (only directions that occurred).
        public var counts: [String: Int]
        /// Live swipes by kind (`SwipeKind` raw values, every kind present, 0 included); they add
        /// up to `all`.
        public var kinds: [String: Int]
        /// Live swipes of any kind.
        public var all: Int
        /// The card's verdict under the deck's stop rule (`CardVerdict`); nil without a rule.
        public var state: CardVerdict?
        /// About how many more counted votes a deciding card needs (`StopRule.votesNeeded`); nil
        /// when decided, without a rule, or too many to tell.
        public var votesNeeded: Int?
        /// Rooms that have the card as a match now (`RoomStore.roomMatchCounts`).
        public var roomMatches: Int = 0
    }

    /// The deck's stop rule and where the deck stands under it.
    public struct StopState: Sendable, Encodable {
        public var rule: StopRule
        /// Active cards decided, out of `activeCards`.
        public var decidedCards: Int
        public var activeCards: Int
        /// Every active card decided, or the top k known (`StopRule.isDeckDecided`).
        public var deckDecided: Bool
        /// The top k cards' ids, best first, once they are known; nil otherwise.
        public var topKnown: [Int64]?
    }

    public var deck: String
    public var title: String
    /// The kinds the ranking counts (`CountedInput` raw values).
    public var countedInputs: [String]
    /// Who could vote when these results were read (`DeckAccessMode`; changes are deck events).
    public var access: String
    public var cards: [CardResult]
    /// Distinct participants with a counted swipe.
    public var participants: Int
    /// Counted swipes.
    public var swipes: Int
    /// Live swipes by kind over the deck; they add up to `allSwipes`.
    public var swipesByKind: [String: Int]
    /// Live swipes of any kind (participants not excluded).
    public var allSwipes: Int
    /// Suspect swipes (machine-like traces, inhuman button pace), never counted.
    public var suspectExcluded: Int
    /// Participants the owner excluded, and their live swipes.
    public var excludedParticipants: Int
    public var excludedSwipes: Int
    /// Median time a card was on top before its decision, ms, over counted swipes; nil without data.
    public var medianDecisionMs: Double?
    /// Refused swipes by rejection code.
    public var rejections: [String: Int]
    /// Counted swipes per direction over the whole deck.
    public var directionTotals: [String: Int]
    /// The stop rule's verdicts over the deck; nil without a rule.
    public var decision: StopState?
    /// Who is counted, flagged and excluded, and why (`PeopleSummary`); the owner's only, nil
    /// (absent) for anybody else and for a room's results.
    public var people: PeopleSummary?

    /// The active cards' counted votes (what the stop rule and adaptive dealing read).
    public var activeCounts: [CardCount] {
        cards.filter { !$0.archived }.map { CardCount(cardId: $0.cardId, likes: $0.likes, votes: $0.total) }
    }

    public static func isLike(_ direction: String) -> Bool {
        direction == Decision.right.rawValue || direction == Decision.up.rawValue
            || direction == Decision.upRight.rawValue
    }

    /// Builds and ranks the report from the tally.
    public init(
        deck: Deck, cards: [Card], tally: ResultsTally, participants: Int, medianDecisionMs: Double?,
        rejections: [String: Int], excludedParticipants: Int, excludedSwipes: Int
    ) {
        func byKind(_ counts: [SwipeKind: Int]) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: SwipeKind.allCases.map { ($0.rawValue, counts[$0, default: 0]) })
        }
        var results = cards.map { c -> CardResult in
            let id = c.id
            let cc = tally.counted[id] ?? [:]
            let total = cc.values.reduce(0, +)
            let likes = cc.filter { Self.isLike($0.key) }.values.reduce(0, +)
            let kinds = tally.kinds[id] ?? [:]
            return CardResult(
                rank: 0, cardId: id, title: c.title, image: c.image, accent: c.accent, revision: c.revision,
                archived: c.archivedAt != nil,
                likes: likes, total: total, likeRate: total > 0 ? Double(likes) / Double(total) : 0,
                wilson: WilsonInterval(successes: likes, trials: total), counts: cc, kinds: byKind(kinds),
                all: kinds.values.reduce(0, +), state: deck.stopRule.verdict(likes: likes, votes: total),
                votesNeeded: deck.stopRule.votesNeeded(likes: likes, votes: total))
        }
        results.sort { a, b in
            if a.wilson.lower != b.wilson.lower { return a.wilson.lower > b.wilson.lower }
            if a.total != b.total { return a.total > b.total }
            return a.cardId < b.cardId
        }
        for i in results.indices { results[i].rank = i + 1 }
        self.deck = deck.slug
        title = deck.title
        countedInputs = CountedInput.allCases.filter(deck.countedInputs.contains).map(\.rawValue)
        access = deck.access.rawValue
        self.cards = results
        self.participants = participants
        swipes = tally.directionTotals.values.reduce(0, +)
        swipesByKind = byKind(tally.kindTotals)
        allSwipes = tally.kindTotals.values.reduce(0, +)
        suspectExcluded = tally.kindTotals[.suspectDrag, default: 0] + tally.kindTotals[.suspectButton, default: 0]
        self.excludedParticipants = excludedParticipants
        self.excludedSwipes = excludedSwipes
        self.medianDecisionMs = medianDecisionMs
        self.rejections = rejections
        directionTotals = tally.directionTotals
        let rule = deck.stopRule
        if rule.kind != .none {
            let active = results.filter { !$0.archived }
            let counts = active.map { CardCount(cardId: $0.cardId, likes: $0.likes, votes: $0.total) }
            decision = StopState(
                rule: rule, decidedCards: active.filter { $0.state?.isDecided == true }.count,
                activeCards: active.count, deckDecided: rule.isDeckDecided(counts), topKnown: rule.topKnown(counts))
        }
    }
}
