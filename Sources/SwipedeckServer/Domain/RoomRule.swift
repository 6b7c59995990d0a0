import Foundation

/// When a card is a room's match: the room's choice, made when it is created.
///
/// Counted over the room's *current* members (joined, not left): `likes` is how many of them
/// have a live like (`ResultsReport.isLike`: right, up or up-right) on the card, `members` how many there are.
public enum RoomRule: Sendable, Hashable {
    /// Every current member liked the card.
    case all
    /// At least `count` current members liked it (1…50).
    case atLeast(Int)
    /// At least `percent` % of the current members liked it (1…100), and at least one did.
    case share(percent: Int)

    /// Whether the rule holds for `likes` of `members` current members.
    public func holds(likes: Int, members: Int) -> Bool {
        guard members > 0, likes > 0 else { return false }
        switch self {
        case .all: return likes >= members
        case .atLeast(let k): return likes >= k
        case .share(let p): return likes * 100 >= p * members
        }
    }

    /// Whether the rule can still come to hold on a card with `likes` of `members` current members
    /// and `undecided` of them yet to decide it: it would hold if every one of those liked it.
    public func canStillHold(likes: Int, undecided: Int, members: Int) -> Bool {
        holds(likes: likes + max(0, undecided), members: members)
    }

    /// The stored kind (`rooms.ruleKind`).
    public var kind: String {
        switch self {
        case .all: return "all"
        case .atLeast: return "atLeast"
        case .share: return "share"
        }
    }

    /// The stored number (`rooms.ruleValue`): k, p, or 0 for `all`.
    public var value: Int {
        switch self {
        case .all: return 0
        case .atLeast(let k): return k
        case .share(let p): return p
        }
    }

    /// The rule from its stored kind and value; nil for a kind or value no rule has.
    public init?(kind: String, value: Int) {
        switch kind {
        case "all": self = .all
        case "atLeast" where (1...RoomSettings.maxMembersLimit).contains(value): self = .atLeast(value)
        case "share" where (1...100).contains(value): self = .share(percent: value)
        default: return nil
        }
    }
}

extension RoomRule: Codable {
    enum CodingKeys: String, CodingKey { case kind, count, percent }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        let value: Int
        switch kind {
        case "atLeast": value = try c.decode(Int.self, forKey: .count)
        case "share": value = try c.decode(Int.self, forKey: .percent)
        default: value = 0
        }
        guard let rule = RoomRule(kind: kind, value: value) else {
            throw ApiError.invalidField(
                code: "invalid_room_rule",
                message:
                    "rule must be {\"kind\":\"all\"}, {\"kind\":\"atLeast\",\"count\":1…50} or {\"kind\":\"share\",\"percent\":1…100}."
            )
        }
        self = rule
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        switch self {
        case .all: break
        case .atLeast(let k): try c.encode(k, forKey: .count)
        case .share(let p): try c.encode(p, forKey: .percent)
        }
    }
}

/// The match rule, one pure function: which cards of a room are matches now.
///
/// The semantics (docs/ARCHITECTURE.md, README "Decide together"):
/// - A card is a match exactly while `rule` holds on the stored swipes: the live likes of the
///   room's current members over their number. So a match follows every change of its inputs:
///   - a member **joins**: n grows; an `all` or `share` match that no longer holds is revoked
///     (an `unmatch` event), and comes back when the newcomer likes the card too;
///   - a member **leaves**: n shrinks and their likes stop counting; a card may become a match;
///   - a member **undoes** or **flips** a like: a match that no longer holds is revoked;
///   - a member **finishes** (decides every card): nothing changes by itself.
/// - `maxMatches`: at most that many matches; the earliest (by the time the rule began to hold,
///   then the room's order) win, so a later card that meets the rule is no match while the cap is full.
/// - `endOnFirstMatch` ends the room at its first match; a finished room's matches are frozen
///   (nothing is evaluated any more), like an expired room's.
public enum RoomMatching {
    /// One match: the card, since when the rule holds on it, and the current members who like it.
    public struct Match: Sendable, Hashable {
        public var card: Int64
        public var at: Double
        public var likedBy: [Int64]
    }

    /// The matches of a room now.
    ///
    /// - Parameters:
    ///   - cards: the round's cards in the room's order (ties in time are broken by it).
    ///   - members: current members: id → participant.
    ///   - likes: per card, the participants with a live like on it (anyone's; non-members are ignored).
    ///   - previous: the matches stored before this evaluation, card → since when (kept times).
    ///   - now: seconds since 1970, the time of a match that begins now.
    public static func matches(
        rule: RoomRule, maxMatches: Int?, cards: [Int64], members: [Int64: String], likes: [Int64: Set<String>],
        previous: [Int64: Double], now: Double
    ) -> [Match] {
        let byParticipant = Dictionary(members.map { ($0.value, $0.key) }, uniquingKeysWith: min)
        var candidates: [(match: Match, order: Int)] = []
        for (index, card) in cards.enumerated() {
            let likers = (likes[card] ?? []).compactMap { byParticipant[$0] }.sorted()
            guard rule.holds(likes: likers.count, members: members.count) else { continue }
            candidates.append((Match(card: card, at: previous[card] ?? now, likedBy: likers), index))
        }
        candidates.sort { ($0.match.at, $0.order) < ($1.match.at, $1.order) }
        let kept = maxMatches.map { Array(candidates.prefix(max(0, $0))) } ?? candidates
        return kept.map(\.match)
    }

    /// The cards closest to a match when none matched: most likes among current members, then
    /// the Wilson lower bound of likes over the members who decided the card, then the room's order;
    /// at most `limit` (the second round's cards), cards nobody liked left out.
    public static func closest(
        cards: [Int64], members: Set<String>, likes: [Int64: Set<String>], decided: [Int64: Set<String>],
        limit: Int = RoomSettings.closestCount
    ) -> [(card: Int64, likes: Int)] {
        let scored = cards.enumerated().map { index, card in
            let l = (likes[card] ?? []).intersection(members).count
            let n = (decided[card] ?? []).intersection(members).count
            return (card: card, likes: l, lower: WilsonInterval(successes: l, trials: n).lower, index: index)
        }
        return
            scored
            .filter { $0.likes > 0 }
            .sorted { ($1.likes, $1.lower, $0.index) < ($0.likes, $0.lower, $1.index) }
            .prefix(limit)
            .map { (card: $0.card, likes: $0.likes) }
    }
}
