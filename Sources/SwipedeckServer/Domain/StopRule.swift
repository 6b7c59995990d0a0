import Foundation

/// What a stop rule decides a card on.
public enum StopRuleKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// No rule: cards are never decided (the default).
    case none
    /// Yes or no once the like rate is known to lie above or below `threshold` at `errorRate`.
    case threshold
    /// Settled once the card has `votes` counted votes.
    case votes
    /// Settled once the confidence sequence is narrower than `width`.
    case width
}

/// Where a card stands under its deck's stop rule.
public enum CardVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Not decided yet: it still needs votes.
    case deciding
    /// Its like rate lies above the threshold at the stated error rate.
    case yes
    /// Its like rate lies below the threshold at the stated error rate.
    case no
    /// It has the votes (or the precision) the rule asks for.
    case settled

    /// Whether the card is decided (anything but `deciding`).
    public var isDecided: Bool { self != .deciding }
}

/// A deck's stop rule: when a card is decided, and when the deck is. Pure: counts in, verdicts
/// out, no clock and no storage. The rule is looked at after every vote, so a fixed-sample
/// interval (Wilson's) would decide wrongly far more often than its nominal rate; the bounds here
/// are an anytime-valid confidence sequence instead.
///
/// The confidence sequence is the beta-binomial mixture martingale (Robbins 1970, "Statistical
/// methods related to the law of the iterated logarithm", Ann. Math. Statist. 41(5); Howard,
/// Ramdas, McAuliffe & Sekhon 2021, "Time-uniform, nonparametric, nonasymptotic confidence
/// sequences", Ann. Statist. 49(2), §3 and Prop. 6): after `n` votes with `s` likes, with a
/// uniform Beta(1, 1) mixing prior,
///
///     M(p) = B(s + 1, n − s + 1) / (pˢ (1 − p)ⁿ⁻ˢ)
///
/// is a non-negative martingale with mean 1 under a true rate p, so by Ville's inequality
/// P(∃ n: M(p) ≥ 1/α) ≤ α. The set {p : M(p) < 1/α} is an interval (log M is convex in p) that
/// holds the true rate at every n at once with probability ≥ 1 − α: checking it after every vote
/// keeps the error rate at α.
public struct StopRule: Sendable, Hashable, Codable {
    public var kind: StopRuleKind
    /// The like rate a `threshold` rule decides against, in (0, 1). Default 0.5.
    public var threshold: Double
    /// The chance, over the whole life of a card, that a `threshold` verdict is wrong (or that the
    /// `width` interval misses the rate), in (0, 0.5]. Default 0.05.
    public var errorRate: Double
    /// Counted votes that settle a card under a `votes` rule, 1…`maxVotes`. Default 10 (about
    /// what comparative judgement needs per item: Kinnear, Jones & Davies 2025).
    public var votes: Int
    /// Widest confidence sequence that settles a card under a `width` rule, in (0, 1). Default 0.2.
    public var width: Double
    /// For a `threshold` rule: a card still deciding at this many counted votes is settled (its
    /// rate is too close to the threshold to matter); nil: never. 1…`maxVotes`.
    public var votesCap: Int?
    /// Whether the deck is decided once its `topK` best cards are separated from the rest
    /// (`topKnown`) rather than once every card is decided; nil: every card. 1…`DeckInput.maxCards`.
    /// Without a rule (`none`) nothing is decided, top k included.
    public var topK: Int?
    /// Whether an adaptive deck keeps dealing decided cards (last); default false: they retire.
    public var keepDecided: Bool
    /// Whether the deck closes itself the moment it is first decided (`DeckDecisions`: the server
    /// that records the deck's first decision closes it); default false. A deck its owner opens
    /// again stays open, even if it is undecided and decided again later.
    public var closeWhenDecided: Bool

    /// Defaults of the owner's fields (documented on each property).
    public static let defaultThreshold = 0.5
    public static let defaultErrorRate = 0.05
    public static let defaultVotes = 10
    public static let defaultWidth = 0.2
    /// Most votes a `votes` rule may ask for: far past any deck's need, bounded so the estimate of
    /// votes still needed stays a small search.
    public static let maxVotes = 100_000
    /// Votes past which `votesNeeded` stops searching and answers nil ("many"), 100,000: a card
    /// whose rate sits that close to the threshold is, for an owner, undecidable.
    public static let votesNeededCap = 100_000

    /// No rule: nothing is ever decided.
    public static let none = StopRule(kind: .none)

    public init(
        kind: StopRuleKind, threshold: Double = StopRule.defaultThreshold,
        errorRate: Double = StopRule.defaultErrorRate,
        votes: Int = StopRule.defaultVotes, width: Double = StopRule.defaultWidth, votesCap: Int? = nil,
        topK: Int? = nil,
        keepDecided: Bool = false, closeWhenDecided: Bool = false
    ) {
        self.kind = kind
        self.threshold = threshold
        self.errorRate = errorRate
        self.votes = votes
        self.width = width
        self.votesCap = votesCap
        self.topK = topK
        self.keepDecided = keepDecided
        self.closeWhenDecided = closeWhenDecided
    }

    enum CodingKeys: String, CodingKey {
        case kind, threshold, errorRate, votes, width, votesCap, topK, keepDecided, closeWhenDecided
    }

    /// Absent fields take their defaults, so a stored rule and an API body read alike.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decodeIfPresent(StopRuleKind.self, forKey: .kind) ?? .none
        threshold = try c.decodeIfPresent(Double.self, forKey: .threshold) ?? Self.defaultThreshold
        errorRate = try c.decodeIfPresent(Double.self, forKey: .errorRate) ?? Self.defaultErrorRate
        votes = try c.decodeIfPresent(Int.self, forKey: .votes) ?? Self.defaultVotes
        width = try c.decodeIfPresent(Double.self, forKey: .width) ?? Self.defaultWidth
        votesCap = try c.decodeIfPresent(Int.self, forKey: .votesCap)
        topK = try c.decodeIfPresent(Int.self, forKey: .topK)
        keepDecided = try c.decodeIfPresent(Bool.self, forKey: .keepDecided) ?? false
        closeWhenDecided = try c.decodeIfPresent(Bool.self, forKey: .closeWhenDecided) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(threshold, forKey: .threshold)
        try c.encode(errorRate, forKey: .errorRate)
        try c.encode(votes, forKey: .votes)
        try c.encode(width, forKey: .width)
        try c.encode(votesCap, forKey: .votesCap)
        try c.encode(topK, forKey: .topK)
        try c.encode(keepDecided, forKey: .keepDecided)
        try c.encode(closeWhenDecided, forKey: .closeWhenDecided)
    }

    /// The stored form: the rule's JSON (keys sorted, so equal rules store equal texts).
    public var stored: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding plain numbers, booleans and a raw-value enum cannot fail (no non-finite value
        // passes `problem`, and a rule is checked before it is stored).
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The rule `stored` wrote ('{}' is no rule); nil for a text that is no rule.
    public init?(stored text: String) {
        guard let rule = try? JSONDecoder().decode(StopRule.self, from: Data(text.utf8)) else { return nil }
        self = rule
    }

    /// The first broken field rule as (code, sentence), or nil when the rule is valid.
    public var problem: (code: String, message: String)? {
        if !(threshold > 0 && threshold < 1) {
            return ("invalid_stop_threshold", "The threshold must be a like rate between 0 and 100 %, both excluded.")
        }
        if !(errorRate > 0 && errorRate <= 0.5) {
            return ("invalid_stop_error_rate", "The error rate must be above 0 and at most 50 %.")
        }
        if !(1...Self.maxVotes).contains(votes) {
            return ("invalid_stop_votes", "The votes must be a whole number from 1 to \(Self.maxVotes).")
        }
        if !(width > 0 && width < 1) {
            return ("invalid_stop_width", "The width must be between 0 and 100 %, both excluded.")
        }
        if let votesCap, !(1...Self.maxVotes).contains(votesCap) {
            return (
                "invalid_stop_votes_cap", "The most votes per card must be a whole number from 1 to \(Self.maxVotes)."
            )
        }
        if let topK, !(1...DeckInput.maxCards).contains(topK) {
            return ("invalid_stop_top_k", "Top k must be a whole number of cards from 1 to \(DeckInput.maxCards).")
        }
        return nil
    }

    /// log M(p), the mixture martingale at rate `p` after `trials` votes with `successes` likes
    /// (see the type's documentation): log B(s + 1, n − s + 1) − s log p − (n − s) log(1 − p).
    static func logMixture(at p: Double, successes s: Double, trials n: Double) -> Double {
        let f = n - s
        let logB = lgamma(s + 1) + lgamma(f + 1) - lgamma(n + 2)
        let likelihood = (s > 0 ? s * log(p) : 0) + (f > 0 ? f * log(1 - p) : 0)
        return logB - likelihood
    }

    /// The bounds of the confidence sequence after `trials` votes with `successes` likes, at error
    /// rate `alpha`: [0, 1] before any vote. Counts may be fractional (`votesNeeded` projects).
    public static func bounds(successes: Double, trials: Double, alpha: Double) -> (lower: Double, upper: Double) {
        guard trials > 0 else { return (0, 1) }
        let s = min(max(successes, 0), trials)
        let limit = log(1 / alpha)
        func logM(_ p: Double) -> Double { logMixture(at: p, successes: s, trials: trials) }
        let centre = s / trials
        // Bisection to ~1e-15 between the minimum (inside the set) and an end outside it: log M is
        // monotone on each side of the minimum.
        func edge(from inside: Double, to outside: Double) -> Double {
            var a = inside
            var b = outside
            for _ in 0..<50 {
                let m = (a + b) / 2
                if logM(m) < limit { a = m } else { b = m }
            }
            return (a + b) / 2
        }
        let tiny = 1e-12
        let lower = logM(tiny) < limit ? 0 : edge(from: centre, to: tiny)
        let upper = logM(1 - tiny) < limit ? 1 : edge(from: centre, to: 1 - tiny)
        return (lower, upper)
    }

    /// The bounds of the card's confidence sequence at this rule's error rate.
    public func bounds(likes: Int, votes n: Int) -> (lower: Double, upper: Double) {
        Self.bounds(successes: Double(likes), trials: Double(n), alpha: errorRate)
    }

    /// The card's verdict after `votes` counted votes of which `likes` liked it; nil for no rule.
    public func verdict(likes: Int, votes n: Int) -> CardVerdict? {
        verdict(successes: Double(likes), trials: Double(n))
    }

    func verdict(successes: Double, trials: Double) -> CardVerdict? {
        switch kind {
        case .none:
            return nil
        case .votes:
            return trials >= Double(votes) ? .settled : .deciding
        case .width:
            let b = Self.bounds(successes: successes, trials: trials, alpha: errorRate)
            return b.upper - b.lower < width ? .settled : .deciding
        case .threshold:
            // The threshold lies outside the confidence sequence exactly when M(threshold) ≥ 1/α
            // (the set is {p : M(p) < 1/α}); the side is the observed rate's.
            if trials > 0, Self.logMixture(at: threshold, successes: successes, trials: trials) >= log(1 / errorRate) {
                return successes / trials > threshold ? .yes : .no
            }
            if let votesCap, trials >= Double(votesCap) { return .settled }
            return .deciding
        }
    }

    /// About how many more counted votes a deciding card needs: the fewest further votes after
    /// which the rule would decide it if they liked it at the rate seen so far, shrunk towards
    /// ½ as (likes + 1) / (votes + 2) (one vote is no rate). nil for a decided card, no rule, or
    /// more than `votesNeededCap` (a rate too close to the threshold to tell: a card without votes,
    /// shrunk to ½, has no estimate against a 50 % threshold). An estimate, not a promise: the votes to come may like it at another rate.
    public func votesNeeded(likes: Int, votes n: Int) -> Int? {
        guard let now = verdict(likes: likes, votes: n), !now.isDecided else { return nil }
        if kind == .votes { return votes - n }
        let capped = kind == .threshold ? votesCap.map { $0 - n } : nil
        let rate = (Double(likes) + 1) / (Double(n) + 2)
        func decidedAfter(_ m: Int) -> Bool {
            verdict(successes: Double(likes) + rate * Double(m), trials: Double(n + m))?.isDecided == true
        }
        // Doubling, then bisection: deciding is monotone in m for a fixed projected rate.
        var high = 1
        while !decidedAfter(high) {
            if let capped, high >= capped { return capped }
            if high >= Self.votesNeededCap { return nil }
            high = min(high * 2, Self.votesNeededCap)
        }
        var low = 0
        while high - low > 1 {
            let mid = (low + high) / 2
            if decidedAfter(mid) { high = mid } else { low = mid }
        }
        return high
    }
}

/// One card's counted votes, as the results count them (`ResultsReport`): what the stop rule and
/// adaptive dealing read.
public struct CardCount: Sendable, Hashable {
    public var cardId: Int64
    public var likes: Int
    public var votes: Int

    public init(cardId: Int64, likes: Int, votes: Int) {
        self.cardId = cardId
        self.likes = likes
        self.votes = votes
    }
}

extension StopRule {
    /// The ids of the `topK` best cards once they are separated from the rest, else nil.
    ///
    /// Each card gets a confidence sequence at `errorRate / cards.count` (Bonferroni over the
    /// deck's cards: all of them hold at once, at every vote, with probability ≥ 1 − errorRate).
    /// The k cards with the highest observed like rates are known when the lowest lower bound among
    /// them lies above the highest upper bound among the others. Nil without `topK`, or when the
    /// deck has no more than k cards (then every card must be decided, `isDeckDecided`).
    public func topKnown(_ cards: [CardCount]) -> [Int64]? {
        guard kind != .none, let k = topK, cards.count > k else { return nil }
        let alpha = errorRate / Double(cards.count)
        let ranked = cards.map { c -> (c: CardCount, rate: Double, bounds: (lower: Double, upper: Double)) in
            let rate = c.votes > 0 ? Double(c.likes) / Double(c.votes) : 0
            return (c, rate, Self.bounds(successes: Double(c.likes), trials: Double(c.votes), alpha: alpha))
        }
        .sorted { ($0.rate, $1.c.cardId) > ($1.rate, $0.c.cardId) }
        let top = ranked.prefix(k)
        let lowestTop = top.map(\.bounds.lower).min() ?? 0
        let highestRest = ranked.dropFirst(k).map(\.bounds.upper).max() ?? 0
        return lowestTop > highestRest ? top.map(\.c.cardId) : nil
    }

    /// Whether the deck is decided: its top k are known (`topKnown`), or, without `topK`, every
    /// one of `cards` (the active ones) is decided. Never for no rule or a deck without cards.
    public func isDeckDecided(_ cards: [CardCount]) -> Bool {
        guard kind != .none, !cards.isEmpty else { return false }
        if topKnown(cards) != nil { return true }
        if let k = topK, cards.count > k { return false }
        return cards.allSatisfy { verdict(likes: $0.likes, votes: $0.votes)?.isDecided == true }
    }
}
