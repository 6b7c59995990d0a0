import Foundation

/// Concerted fakes: participants who joined a deck in one burst from one network and then show
/// what people do not produce. A pure function of the members' origins, decisions and timings.
///
/// **Agreement is not evidence.** A crowd in one room that decides the same way on one-sided cards,
/// or two camps that each agree among themselves, is what people do; so votes alone never exclude
/// anybody. Exclusion needs evidence people do not produce, and weaker evidence only flags a group
/// for the owner (`Cluster.excludes` false: nobody is left out).
///
/// The rule, for each network (`ClientNetwork.key`), each burst of its members (sorted by join
/// time, a gap longer than `burstGapSeconds` starts a new one) of at least `minSize`:
/// 1. **Machine pace** (excludes): at least `minSize` members of the burst each sent most of their
///    decisions less than `machineGapSeconds` after their previous one (server clock): a script's
///    batch, never a person reading cards.
/// 2. **Clockwork** (excludes): at least `minSize` other members decided at one fixed rhythm —
///    each with `minGaps` or more gaps between decisions whose spread (coefficient of variation)
///    is under `clockworkSpread`, and all with mean gaps within `rhythmTolerance` of each other (a
///    script's one interval). People's pace wanders far more from card to card, and the few of a
///    large hall steady by chance keep paces of their own: in the crowds the tests model (1.5 s a
///    card or more, each person's own pace), 10,000 on one network judged after seven decisions
///    put at most 4 such people at one rhythm in 20 draws, fewer than `minSize`.
/// 3. **Near-identical decisions**: in the burst's other members with at least `minDecisions`
///    decisions (or every active card on a smaller deck), the most common decision vector is the
///    *mode*, and the members who differ from it on at most one card in ten are *near* it; at least
///    `minSize` near members over at least that many cards make a *group*. A group alone is nothing.
///    - **One generator**: the group has no personal style. A person keeps their own
///      pace and their own hand — how long they drag, how fast they throw, how long they look —
///      so, measured as an intraclass correlation over the members' decisions (log scale), part
///      of every such quantity belongs to the person. Identities made by one program draw every
///      swipe from one distribution and show none. A group is one generator when at least one
///      gesture measure (drag duration or release speed) is available and the intraclass
///      correlations of the available measures (those two, the gap between decisions, the page's
///      decision time) average under `styleFloor`.
///    - **Unanimous**: every vote the crowd cast on the group's cards has the group's direction
///      (a new deck with nobody else on it, say).
///    - **Agreement beyond the crowd's rates** (flags only): each card's chance of the mode's
///      direction is the crowd's own share (every member given, the group included, smoothed by
///      half a vote each way), so agreeing on a card 95 % of the crowd likes is no evidence and
///      agreeing on every split card is; the chance `q` of an honest member being near the mode
///      is the Poisson-binomial tail over the mode's cards, and the group agrees beyond the
///      crowd's rates when the binomial chance of so many near members among the `n` compared —
///      or of so many exact ones, at the product of the chances — is below `significance`.
///      Two honest camps of a polarised crowd are flagged so, and never excluded.
///
///    A group is excluded when it is one generator and either agrees beyond the crowd's rates or
///    is unanimous: identities without a style of their own pushing cards against the crowd, or
///    alone. One generator whose agreement is no more than the crowd's (a simulation of people
///    drawing every swipe from one distribution, deciding as diversely as the crowd), or agreement
///    alone, only flags.
///
/// Bursts are judged on their own; a member is in at most one result (pace first, then clockwork,
/// then groups). Results are ordered by size, largest first.
public enum LockstepClusters {
    /// A new join more than this long after the previous one from the network starts a new
    /// burst, seconds. Default 600 (a class or an event joins within minutes).
    public static let burstGapSeconds: Double = 600
    /// Fewest members a result has. Default 5: fewer identical votes move no ranking much, and a
    /// family on one home network may well agree.
    public static let minSize = 5
    /// Fewest decisions on the mode's cards for a member to be compared. Default 5 (on a deck of
    /// fewer active cards, all of them): agreement on two or three cards says nothing.
    public static let minDecisions = 5
    /// Share of the compared cards on which a near member may differ from the mode. Default 0.1.
    public static let maxDifferenceShare = 0.1
    /// The chance below which so many near members are not luck. Default 1e-6: an owner with a
    /// thousand networks' bursts sees a false flag about once in a thousand decks.
    public static let significance = 1e-6
    /// A gap between two decisions of one member shorter than this is a machine's, seconds.
    /// Default 0.3 (half of `HumanPace.burstWindowSeconds`: less than a choice reaction plus the
    /// stack's animation).
    public static let machineGapSeconds = HumanPace.burstWindowSeconds / 2
    /// Fewest gaps between decisions for a member's rhythm to be judged. Default 6 (seven
    /// decisions): over five, one in a hundred fast people is steady by chance.
    public static let minGaps = 6
    /// A member whose gaps vary less than this (standard deviation over mean) keeps a clockwork
    /// rhythm. Default 0.03: a person's time per card varies by tens of percent; a script's
    /// sleep, sent over a network, by a few.
    public static let clockworkSpread = 0.03
    /// Members keep one rhythm when their mean gaps lie within this share of each other. Default
    /// 0.02 (±1 %): one program's interval, whatever the network adds.
    public static let rhythmTolerance = 0.02
    /// Fewest values of one measure a member needs to count in its intraclass correlation. Default 3.
    public static let minStyleValues = 3
    /// The average intraclass correlation under which a group shows no personal style. Default
    /// 0.15: the crowds the tests model keep 0.3–0.7 of the variation of their pace and gesture as
    /// their own; one program's identities 0, estimated within ± 0.05 for ten identities of ten
    /// decisions (0.2 in one measure of ten such seen in the tests: hence the average).
    public static let styleFloor = 0.15

    /// What a result rests on.
    public enum Evidence: String, Sendable, Hashable, Codable, CaseIterable {
        /// Most decisions came faster than a person reads a card (excludes).
        case machinePace = "machine_pace"
        /// Every member decided at a fixed rhythm (excludes).
        case clockwork
        /// Near-identical decisions by identities without a pace or gesture of their own (excludes
        /// with `agreement` or `unanimous`).
        case oneGenerator = "one_generator"
        /// Near-identical decisions beyond what the crowd's own per-card rates give.
        case agreement
        /// The whole crowd decided the group's cards the group's way.
        case unanimous
    }

    /// One live decision as the rule sees it.
    public struct Vote: Sendable, Hashable {
        public var card: Int64
        public var direction: String
        /// When the server stored it, seconds since 1970.
        public var at: Double
        /// The page's own time from showing the card to the decision, ms, if sent.
        public var decisionMs: Double?
        /// The drag's duration (its trace's last time), ms; nil without a trace.
        public var durationMs: Double?
        /// The drag's release speed, px/ms; nil without a trace.
        public var speed: Double?

        /// Whether a vote decided `card` as `direction`.
        static func decided(_ card: Int64, _ direction: String?) -> (Vote) -> Bool {
            { $0.card == card && $0.direction == direction }
        }

        /// The release speed of a stored velocity, px/ms; nil without one.
        public static func speed(_ x: Double?, _ y: Double?) -> Double? {
            guard let x, let y else { return nil }
            return (x * x + y * y).squareRoot()
        }

        public init(
            card: Int64, direction: String, at: Double, decisionMs: Double? = nil, durationMs: Double? = nil,
            speed: Double? = nil
        ) {
            self.card = card
            self.direction = direction
            self.at = at
            self.decisionMs = decisionMs
            self.durationMs = durationMs
            self.speed = speed
        }
    }

    /// One participant as the rule sees them.
    public struct Member: Sendable, Hashable {
        public var id: String
        public var network: String
        /// When they joined the deck (their credential's mint time, else their first decision), seconds since 1970.
        public var joinedAt: Double
        /// Live decisions, in any order.
        public var votes: [Vote]

        public init(id: String, network: String, joinedAt: Double, votes: [Vote]) {
            self.id = id
            self.network = network
            self.joinedAt = joinedAt
            self.votes = votes
        }

        /// Decisions without timings (one a second from `joinedAt`, in card order).
        public init(id: String, network: String, joinedAt: Double, decisions: [Int64: String]) {
            self.init(
                id: id, network: network, joinedAt: joinedAt,
                votes: decisions.keys.sorted().enumerated().map { i, card in
                    Vote(card: card, direction: decisions[card] ?? "", at: joinedAt + Double(i + 1))
                })
        }

        /// Card id → direction.
        public var decisions: [Int64: String] {
            Dictionary(votes.map { ($0.card, $0.direction) }, uniquingKeysWith: { a, _ in a })
        }

        /// The gaps between consecutive decisions (server clock), seconds.
        var gaps: [Double] {
            let times = votes.map(\.at).sorted()
            return zip(times.dropFirst(), times).map { $0 - $1 }
        }
    }

    /// A group found in one burst: excluded (`excludes`) or flagged for the owner.
    public struct Cluster: Sendable, Hashable {
        public var network: String
        /// The members' stored ids, sorted.
        public var members: [String]
        /// When the first and last member joined.
        public var joinedFrom: Double
        public var joinedTo: Double
        /// What it rests on, in `Evidence` order.
        public var evidence: [Evidence]
        /// The shared decisions (card id → direction); empty for a pace or rhythm result.
        public var mode: [Int64: String]
        /// How many near members chance would give (n × q); 0 for a pace or rhythm result.
        public var expected: Double
        /// The members' typical gap between decisions (median of their medians), seconds.
        public var typicalGap: Double

        /// Whether the evidence is strong: the members are left out of the results. Otherwise the
        /// group is only shown to the owner.
        public var excludes: Bool {
            evidence.contains(.machinePace) || evidence.contains(.clockwork)
                || (evidence.contains(.oneGenerator)
                    && (evidence.contains(.agreement) || evidence.contains(.unanimous)))
        }

        /// The owner-facing reason, in words, e.g. "12 people joined from one network
        /// (203.0.113.0/24) within 40 seconds and each sent their decisions faster than anyone
        /// reads a card (0.01 s apart)".
        public var reason: String {
            let span = Int((joinedTo - joinedFrom).rounded())
            let within =
                span < 2 ? "within a second" : span < 120 ? "within \(span) seconds" : "within \(span / 60) minutes"
            let who = "\(members.count) people joined from one network (\(network)) \(within) and"
            let chance = expected < 1 ? "fewer than 1" : "about \(Int(expected.rounded()))"
            if evidence.contains(.machinePace) {
                return
                    "\(who) each sent their decisions faster than anyone reads a card (\(Self.seconds(typicalGap)) apart)"
            }
            if evidence.contains(.clockwork) {
                let spread = Int((LockstepClusters.clockworkSpread * 100).rounded())
                let pace = "one clockwork pace (every \(Self.seconds(typicalGap)), varying by under \(spread) %)"
                return "\(who) each decided at \(pace)"
            }
            let same = "decided \(mode.count) cards the same way"
            let generator = "none of them has a pace or a gesture of their own"
            if excludes {
                return "\(who) \(same), and \(generator), as identities made by one program"
            }
            if evidence.contains(.oneGenerator) {
                return "\(who) \(same) no more alike than the crowd, and \(generator); this alone excludes nobody"
            }
            return
                "\(who) \(same) where the crowd was split (by chance, \(chance) would); agreement alone excludes nobody"
        }

        static func seconds(_ s: Double) -> String {
            s < 0.095 ? String(format: "%.2f s", s) : s < 10 ? String(format: "%.1f s", s) : "\(Int(s.rounded())) s"
        }
    }

    /// The results among `members` (every participant of one deck on a crowded network), largest
    /// first. `activeCards` is the deck's number of active cards: a group must span
    /// `min(minDecisions, activeCards)` cards or more.
    public static func detect(_ members: [Member], activeCards: Int) -> [Cluster] {
        let needed = max(1, min(minDecisions, activeCards))
        let rates = CrowdRates(members)
        var out: [Cluster] = []
        for (network, crowd) in Dictionary(grouping: members, by: \.network) where crowd.count >= minSize {
            for burst in bursts(crowd) where burst.count >= minSize {
                out += judge(burst, network: network, needed: needed, rates: rates)
            }
        }
        return out.sorted {
            ($0.members.count, $1.network, $1.joinedFrom) > ($1.members.count, $0.network, $0.joinedFrom)
        }
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

    /// Rules 1–3 for one burst.
    static func judge(_ burst: [Member], network: String, needed: Int, rates: CrowdRates) -> [Cluster] {
        var out: [Cluster] = []
        var rest = burst
        func found(_ group: [Member], _ evidence: [Evidence], mode: [Int64: String] = [:], expected: Double = 0) {
            let ids = Set(group.map(\.id))
            rest.removeAll { ids.contains($0.id) }
            out.append(
                Cluster(
                    network: network, members: ids.sorted(), joinedFrom: group.map(\.joinedAt).min() ?? 0,
                    joinedTo: group.map(\.joinedAt).max() ?? 0, evidence: evidence, mode: mode, expected: expected,
                    typicalGap: median(group.compactMap { median($0.gaps) })))
        }
        let machine = rest.filter(isMachinePaced)
        if machine.count >= minSize { found(machine, [.machinePace]) }
        var clockwork = rest.filter(isClockwork)
        while let rhythm = oneRhythm(clockwork), rhythm.count >= minSize {
            found(rhythm, [.clockwork])
            let ids = Set(rhythm.map(\.id))
            clockwork.removeAll { ids.contains($0.id) }
        }
        for center in centers(rest, needed: needed) {
            guard let group = nearGroup(rest, center: center, needed: needed) else { continue }
            var evidence: [Evidence] = []
            if isOneGenerator(group.near) { evidence.append(.oneGenerator) }
            let cards = group.mode.keys.sorted()
            let allowed = Int((Double(cards.count) * maxDifferenceShare).rounded(.down))
            let chances = cards.map { rates.chance(card: $0, direction: group.mode[$0] ?? "") }
            let q = atMostMismatches(chances, allowed)
            // Near members, and exact ones: identical votes are far less likely than near ones, so
            // fakes that outnumber the crowd (and so set its rates) still stand out.
            let exact = chances.reduce(1, *)
            if binomialTail(n: group.compared, k: group.near.count, p: q) < significance
                || binomialTail(n: group.compared, k: group.exact, p: exact) < significance
            {
                evidence.append(.agreement)
            }
            if cards.allSatisfy({ rates.isUnanimous(card: $0, direction: group.mode[$0] ?? "") }) {
                evidence.append(.unanimous)
            }
            // Unanimity alone is a crowd agreeing, nothing to show.
            if evidence.contains(.oneGenerator) || evidence.contains(.agreement) {
                found(group.near, evidence, mode: group.mode, expected: Double(group.compared) * q)
            }
        }
        return out
    }

    /// Rule 1 for one member: at least one gap, and more than half of them under `machineGapSeconds`.
    static func isMachinePaced(_ m: Member) -> Bool {
        let gaps = m.gaps
        return !gaps.isEmpty && 2 * gaps.filter { $0 < machineGapSeconds }.count > gaps.count
    }

    /// Rule 2 for one member: `minGaps` or more gaps, spread under `clockworkSpread` of their mean.
    static func isClockwork(_ m: Member) -> Bool {
        let gaps = m.gaps
        guard gaps.count >= minGaps else { return false }
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        guard mean > 0 else { return false }
        let variance = gaps.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(gaps.count - 1)
        return variance.squareRoot() < clockworkSpread * mean
    }

    /// Rule 2 for clockwork members: the most of them whose mean gaps lie within
    /// `rhythmTolerance` of each other (the first such run in order of mean gap); nil for none.
    static func oneRhythm(_ members: [Member]) -> [Member]? {
        let sorted = members.map { m in (m, m.gaps.reduce(0, +) / Double(m.gaps.count)) }.sorted { $0.1 < $1.1 }
        var best: ArraySlice<(Member, Double)> = []
        var start = 0
        for end in sorted.indices {
            while sorted[end].1 > sorted[start].1 * (1 + rhythmTolerance) { start += 1 }
            if end - start + 1 > best.count { best = sorted[start...end] }
        }
        return best.isEmpty ? nil : best.map(\.0)
    }

    /// A burst's mode and the members near it (rule 3), before it is judged.
    struct NearGroup {
        var compared: Int
        var mode: [Int64: String]
        var near: [Member]
        /// Near members who decided every card of the mode its way.
        var exact: Int
    }

    /// Most decision vectors tried as a group's centre in one burst. Default 20.
    static let maxCenters = 20

    /// Rule 3's candidate modes, most common first: each decision vector at least two compared
    /// members share (ties go to the larger vector, then to the first in card order, so the
    /// outcome never depends on hashing), moved to the per-card majority of the members within
    /// twice the allowed difference of it — so fakes that each change a different card still
    /// meet at the vector they vary around. At most `maxCenters`, none twice.
    static func centers(_ burst: [Member], needed: Int) -> [[Int64: String]] {
        let compared = burst.map(\.decisions).filter { $0.count >= needed }
        guard compared.count >= minSize else { return [] }
        var counts: [[Int64: String]: Int] = [:]
        for d in compared { counts[d, default: 0] += 1 }
        func spelled(_ v: [Int64: String]) -> String {
            v.keys.sorted().map { "\($0)=\(v[$0] ?? "")" }.joined(separator: ",")
        }
        let common = counts.filter { $0.value >= 2 && $0.key.count >= needed }
            .map { (vector: $0.key, count: $0.value, spelled: spelled($0.key)) }
            .sorted { ($0.count, $0.vector.count, $1.spelled) > ($1.count, $1.vector.count, $0.spelled) }
            .prefix(maxCenters)
        var out: [[Int64: String]] = []
        for c in common {
            let cards = c.vector.keys.sorted()
            let loose = 2 * Int((Double(cards.count) * maxDifferenceShare).rounded(.down))
            let around = compared.filter { d in
                cards.allSatisfy { d[$0] != nil } && cards.filter { d[$0] != c.vector[$0] }.count <= loose
            }
            var center: [Int64: String] = [:]
            for card in cards {
                var tally: [String: Int] = [:]
                for d in around { if let v = d[card] { tally[v, default: 0] += 1 } }
                center[card] = tally.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key ?? c.vector[card]
            }
            if !out.contains(center) { out.append(center) }
        }
        return out
    }

    /// Rule 3's group around `center`: the compared members (at least `needed` decisions) who
    /// decided at least `needed` of its cards and differ on at most one in ten of them; nil
    /// without `minSize` of them.
    static func nearGroup(_ burst: [Member], center mode: [Int64: String], needed: Int) -> NearGroup? {
        let compared = burst.map { ($0, $0.decisions) }.filter { $0.1.count >= needed }
        let cards = mode.keys.sorted()
        let near = compared.filter { _, d in
            let shared = cards.filter { d[$0] != nil }
            guard shared.count >= needed else { return false }
            return shared.filter { d[$0] != mode[$0] }.count
                <= Int((Double(shared.count) * maxDifferenceShare).rounded(.down))
        }.map(\.0)
        guard near.count >= minSize else { return nil }
        let exact = near.filter { m in cards.allSatisfy { m.votes.contains(where: Vote.decided($0, mode[$0])) } }.count
        return NearGroup(compared: compared.count, mode: mode, near: near, exact: exact)
    }

    /// Rule 3's "one generator": a gesture measure is available and the available measures'
    /// intraclass correlations average under `styleFloor`.
    static func isOneGenerator(_ group: [Member]) -> Bool {
        func logs(_ values: [Double?]) -> [Double] { values.compactMap { $0 }.filter { $0 > 0 }.map { log($0) } }
        let duration = intraclassCorrelation(group.map { logs($0.votes.map(\.durationMs)) })
        let speed = intraclassCorrelation(group.map { logs($0.votes.map(\.speed)) })
        guard duration != nil || speed != nil else { return false }
        let pace = intraclassCorrelation(group.map { m in logs(m.gaps.map { max($0, 0.001) }) })
        let look = intraclassCorrelation(group.map { logs($0.votes.map(\.decisionMs)) })
        // Their mean: one measure's estimate wanders (± 0.05 for ten identities), four together less.
        let measured = [duration, speed, pace, look].compactMap { $0 }
        return measured.reduce(0, +) / Double(measured.count) < styleFloor
    }

    /// The one-way ANOVA intraclass correlation ICC(1) of `values` grouped by member (members with
    /// fewer than `minStyleValues` values left out): the share of the variance that lies between
    /// members. Nil with fewer than `minSize` members left. 1 when members differ and each is
    /// constant; 0 when nothing varies.
    static func intraclassCorrelation(_ values: [[Double]]) -> Double? {
        let groups = values.filter { $0.count >= minStyleValues }
        let k = groups.count
        guard k >= minSize else { return nil }
        let total = groups.reduce(0) { $0 + $1.count }
        let grand = groups.reduce(0) { $0 + $1.reduce(0, +) } / Double(total)
        var between = 0.0
        var within = 0.0
        for g in groups {
            let mean = g.reduce(0, +) / Double(g.count)
            between += Double(g.count) * (mean - grand) * (mean - grand)
            within += g.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        }
        let msb = between / Double(k - 1)
        let msw = within / Double(total - k)
        if msw <= 0 { return msb > 0 ? 1 : 0 }
        let n0 = (Double(total) - groups.reduce(0) { $0 + Double($1.count * $1.count) } / Double(total)) / Double(k - 1)
        return (msb - msw) / (msb + (n0 - 1) * msw)
    }

    /// Each card's directions over the crowd (every member given).
    struct CrowdRates {
        var seen: [Int64: [String: Int]] = [:]

        init(_ members: [Member]) {
            for m in members { for v in m.votes { seen[v.card, default: [:]][v.direction, default: 0] += 1 } }
        }

        /// Whether every vote on `card` has `direction` (and there is one).
        func isUnanimous(card: Int64, direction: String) -> Bool {
            seen[card].map { $0.count == 1 && $0[direction] != nil } ?? false
        }

        /// The crowd's share of `direction` on `card`, smoothed by half a vote each way (even odds
        /// with no votes).
        func chance(card: Int64, direction: String) -> Double {
            let counts = seen[card] ?? [:]
            let total = counts.values.reduce(0, +)
            return (Double(counts[direction] ?? 0) + 0.5) / (Double(total) + 1)
        }
    }

    /// The median of `values`; 0 for none.
    static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return 0 }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
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
