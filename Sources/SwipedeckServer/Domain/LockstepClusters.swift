import Foundation

/// Concerted fakes: participants who joined a deck in one burst from one network and then
/// decided in lockstep — near-identical decisions, far more of them than the deck's other
/// participants make likely. A pure function of the members' origins and decisions.
///
/// The rule, for each network (`ClientNetwork.key`):
/// 1. Members are split into bursts: sorted by join time, a gap longer than `burstGapSeconds`
///    starts a new burst. Only members with at least `minDecisions` live decisions (or every card,
///    on a smaller deck) are compared.
/// 2. In a burst, the most common decision vector is the *mode*; a member is *near* it when they
///    decided at least `minDecisions` of the mode's cards and differ on at most `maxDifference` of
///    those (10 %, rounded down: one card in ten).
/// 3. How likely is it that an honest member is near the mode? Each card's chance of matching the
///    mode's direction is estimated from the deck's participants outside the burst and outside
///    every cluster found so far (Laplace smoothing over the directions seen, so a deck with
///    nobody else assumes even odds; bursts are judged largest near-crowd first, so one cluster's
///    fakes never make another burst's honest members look unlikely), and the
///    chance of at most `maxDifference` mismatches is the Poisson-binomial tail over the mode's
///    cards. With `n` compared members and that chance `q`, the near members form a cluster when
///    there are at least `minSize` of them and the binomial chance of seeing so many by luck is
///    below `significance`.
///
/// So a classroom deciding honestly is not flagged — even one that agrees, as long as the rest of
/// the deck agrees as much — while a script that mints a crowd on one network and sends one
/// decision vector is, however the other participants decided, as soon as its crowd exceeds what
/// chance allows.
public enum LockstepClusters {
    /// A new join more than this long after the previous one from the network starts a new
    /// burst, seconds. Default 600 (a class or an event joins within minutes).
    public static let burstGapSeconds: Double = 600
    /// Fewest members a cluster has. Default 5: fewer identical votes move no ranking much, and a
    /// family on one home network may well agree.
    public static let minSize = 5
    /// Fewest decisions on the mode's cards for a member to be compared. Default 5 (on a deck of
    /// fewer cards, all of them): agreement on two or three cards says nothing.
    public static let minDecisions = 5
    /// Share of the compared cards on which a near member may differ from the mode. Default 0.1.
    public static let maxDifferenceShare = 0.1
    /// The chance below which so many near members are not luck. Default 1e-6: an owner with a
    /// thousand networks' bursts sees a false cluster about once in a thousand decks.
    public static let significance = 1e-6

    /// One participant as the rule sees them.
    public struct Member: Sendable, Hashable {
        public var id: String
        public var network: String
        /// When they joined the deck (their credential's mint time, else their first decision), seconds since 1970.
        public var joinedAt: Double
        /// Live decisions: card id → direction.
        public var decisions: [Int64: String]

        public init(id: String, network: String, joinedAt: Double, decisions: [Int64: String]) {
            self.id = id
            self.network = network
            self.joinedAt = joinedAt
            self.decisions = decisions
        }
    }

    /// A flagged group.
    public struct Cluster: Sendable, Hashable {
        public var network: String
        /// The members' stored ids, sorted.
        public var members: [String]
        /// When the first and last member joined.
        public var joinedFrom: Double
        public var joinedTo: Double
        /// The shared decisions (card id → direction).
        public var mode: [Int64: String]
        /// How many near members chance would give (n × q).
        public var expected: Double

        /// The owner-facing reason, in words, e.g. "12 people joined from one network
        /// (203.0.113.0/24) within 40 seconds and decided 10 cards the same way; by chance, fewer
        /// than 1 would".
        public var reason: String {
            let span = Int((joinedTo - joinedFrom).rounded())
            let within =
                span < 2 ? "within a second" : span < 120 ? "within \(span) seconds" : "within \(span / 60) minutes"
            let chance = expected < 1 ? "fewer than 1" : "about \(Int(expected.rounded()))"
            return
                "\(members.count) people joined from one network (\(network)) \(within) and decided \(mode.count) cards the same way; "
                + "by chance, \(chance) would"
        }
    }

    /// A burst with its mode and the members near it (step 2), before it is judged.
    struct Candidate {
        var network: String
        var burst: [Member]
        var compared: Int
        var mode: [Int64: String]
        var near: [Member]
    }

    /// The clusters among `members` (every participant of one deck, any network), largest first.
    public static func detect(_ members: [Member], cardCount: Int) -> [Cluster] {
        let needed = max(1, min(minDecisions, cardCount))
        var candidates: [Candidate] = []
        for (network, crowd) in Dictionary(grouping: members, by: \.network) where crowd.count >= minSize {
            for burst in bursts(crowd) where burst.count >= minSize {
                if let c = candidate(burst, network: network, needed: needed) { candidates.append(c) }
            }
        }
        candidates.sort {
            ($0.near.count, $1.network, $1.burst[0].joinedAt) > ($1.near.count, $0.network, $0.burst[0].joinedAt)
        }
        var clusters: [Cluster] = []
        var flagged = Set<String>()
        for c in candidates {
            let inBurst = Set(c.burst.map(\.id))
            let outsiders = members.filter { !inBurst.contains($0.id) && !flagged.contains($0.id) }
            if let cluster = judge(c, outsiders: outsiders) {
                clusters.append(cluster)
                flagged.formUnion(cluster.members)
            }
        }
        return clusters
    }

    /// The network's members split at gaps longer than `burstGapSeconds`.
    static func bursts(_ crowd: [Member]) -> [[Member]] {
        var out: [[Member]] = []
        for m in crowd.sorted(by: { ($0.joinedAt, $0.id) < ($1.joinedAt, $1.id) }) {
            if let last = out.last?.last, m.joinedAt - last.joinedAt <= burstGapSeconds {
                out[out.count - 1].append(m)
            } else {
                out.append([m])
            }
        }
        return out
    }

    /// Step 2 for one burst: its mode (the most common vector; ties go to the larger vector,
    /// then to the first in card order, so the outcome never depends on hashing) and who is near it.
    static func candidate(_ burst: [Member], network: String, needed: Int) -> Candidate? {
        let compared = burst.filter { $0.decisions.count >= needed }
        guard compared.count >= minSize else { return nil }
        var counts: [[Int64: String]: Int] = [:]
        for m in compared { counts[m.decisions, default: 0] += 1 }
        func spelled(_ v: [Int64: String]) -> String {
            v.keys.sorted().map { "\($0)=\(v[$0] ?? "")" }.joined(separator: ",")
        }
        guard
            let mode = counts.max(by: { a, b in
                (a.value, a.key.count, spelled(b.key)) < (b.value, b.key.count, spelled(a.key))
            })?.key, mode.count >= needed
        else { return nil }
        let cards = mode.keys.sorted()
        let near = compared.filter { m in
            let shared = cards.filter { m.decisions[$0] != nil }
            guard shared.count >= needed else { return false }
            return shared.filter { m.decisions[$0] != mode[$0] }.count
                <= Int((Double(shared.count) * maxDifferenceShare).rounded(.down))
        }
        guard near.count >= minSize else { return nil }
        return Candidate(network: network, burst: burst, compared: compared.count, mode: mode, near: near)
    }

    /// Step 3: whether the near members are more than chance gives, against `outsiders`.
    static func judge(_ c: Candidate, outsiders: [Member]) -> Cluster? {
        let cards = c.mode.keys.sorted()
        let allowed = Int((Double(cards.count) * maxDifferenceShare).rounded(.down))
        let match = cards.map { matchChance(card: $0, direction: c.mode[$0] ?? "", outsiders: outsiders) }
        let q = atMostMismatches(match, allowed)
        guard binomialTail(n: c.compared, k: c.near.count, p: q) < significance else { return nil }
        return Cluster(
            network: c.network, members: c.near.map(\.id).sorted(), joinedFrom: c.near.map(\.joinedAt).min() ?? 0,
            joinedTo: c.near.map(\.joinedAt).max() ?? 0, mode: c.mode, expected: Double(c.compared) * q)
    }

    /// The chance an honest participant decides `card` as `direction`: the outsiders' share,
    /// smoothed by one vote for each direction seen and one for the unseen (even odds with none).
    static func matchChance(card: Int64, direction: String, outsiders: [Member]) -> Double {
        var seen: [String: Int] = [:]
        for m in outsiders { if let d = m.decisions[card] { seen[d, default: 0] += 1 } }
        let kinds = Set(seen.keys).union([direction]).count + 1
        let total = seen.values.reduce(0, +)
        return Double((seen[direction] ?? 0) + 1) / Double(total + kinds)
    }

    /// P(at most `k` of independent events fail), event i succeeding with `p[i]` (Poisson binomial).
    static func atMostMismatches(_ p: [Double], _ k: Int) -> Double {
        var dist = [1.0] + Array(repeating: 0.0, count: k)
        for pi in p {
            for j in stride(from: k, through: 0, by: -1) {
                dist[j] = dist[j] * pi + (j > 0 ? dist[j - 1] * (1 - pi) : 0)
            }
        }
        return min(1, dist.reduce(0, +))
    }

    /// P(X ≥ k) for X ~ Binomial(n, p), summed in logs.
    static func binomialTail(n: Int, k: Int, p: Double) -> Double {
        if k <= 0 { return 1 }
        if p <= 0 { return 0 }
        if p >= 1 { return 1 }
        var total = 0.0
        for i in k...n {
            let logTerm =
                lgamma(Double(n + 1)) - lgamma(Double(i + 1)) - lgamma(Double(n - i + 1))
                + Double(i) * log(p) + Double(n - i) * log1p(-p)
            total += exp(logTerm)
        }
        return min(1, total)
    }
}
