import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Agreement is not evidence: a crowd in one room that decides alike is counted, whatever its
/// cards; identities that show what people do not produce (machine pace, clockwork rhythm, no
/// pace or gesture of their own) are left out, and agreement beyond the crowd's own rates is only
/// shown to the owner. Honest crowds and attacks are simulated side by side (`CrowdSimulation`).
// Serialized: its simulated crowds run hundreds of human-shaped drags through the physics, seconds
// of CPU each in a debug build; one at a time they hold at most one of the concurrency pool's threads.
@Suite("Lockstep clusters", .serialized)
struct LockstepClusterTests {
    static let network = "203.0.113.0/24"
    static let cards: [Int64] = Array(1...10)

    /// The counted share of `crowd` and of `attack` decided together (one deck).
    static func shares(_ crowd: [LockstepClusters.Member], _ attack: [LockstepClusters.Member], cards: Int = 10)
        -> (honest: Double, attack: Double, clusters: [LockstepClusters.Cluster])
    {
        let clusters = LockstepClusters.detect(crowd + attack, activeCards: cards)
        return (crowd.countedShare(clusters), attack.countedShare(clusters), clusters)
    }

    /// A live server on a clock the test moves, without rate limits: a crowd's swipes as fast as
    /// the test sends them, each at the time the clock says.
    static func withCrowdApp(
        _ body: @Sendable (_ client: any TestClientProtocol, _ env: TestEnv, _ clock: TestClock) async throws -> Void
    ) async throws {
        let clock = TestClock()
        try await withApp(
            {
                $0.port = 0
                $0.participantRateLimit = 0
                $0.ipRateLimit = 0
            }, clock: clock.read, testing: .live
        ) { client, env in try await body(client, env, clock) }
    }

    @Test(
        "honest crowds on one /24 in one burst keep >= 99 % of their decisions counted: consensus, one-sided, mixed, polarised; 30, 60, 120"
    )
    func honestCrowdsCount() {
        for taste in [CrowdSimulation.Taste.consensus, .oneSided, .mixed, .polarised] {
            for size in [30, 60, 120] {
                var kept = 0.0
                for seed in 1...4 as ClosedRange<UInt64> {
                    var sim = CrowdSimulation(seed: seed &* 1000 &+ UInt64(size))
                    let crowd = sim.honest("h", size, network: Self.network, cards: Self.cards, taste: taste)
                    let (honest, _, clusters) = Self.shares(crowd, [])
                    #expect(
                        clusters.allSatisfy { !$0.excludes }, "\(taste) \(size) seed \(seed): \(clusters.map(\.reason))"
                    )
                    kept += honest / 4
                }
                #expect(kept >= 0.99, "\(taste), \(size) people: \(kept)")
            }
        }
    }

    @Test("the issue's 4-card deck: one card all like, one all pass, two split 30/30 — nobody is left out")
    func fourCardDeck() {
        var sim = CrowdSimulation(seed: 4)
        var crowd = sim.honest("h", 60, network: Self.network, cards: [1, 2, 3, 4], taste: .mixed)
        for i in crowd.indices {
            for k in crowd[i].votes.indices {
                let card = crowd[i].votes[k].card
                let like = card == 1 || (card == 3 && i < 30) || (card == 4 && i % 2 == 0)
                crowd[i].votes[k].direction = card == 2 ? "left" : like ? "right" : "left"
            }
        }
        let (honest, _, clusters) = Self.shares(crowd, [], cards: 4)
        #expect(honest == 1, "\(clusters.map(\.reason))")
    }

    @Test("a polarised crowd's camps agree far beyond the crowd's rates: flagged for the owner, nobody excluded")
    func polarisedIsFlaggedOnly() {
        var sim = CrowdSimulation(seed: 11)
        let crowd = sim.honest("h", 120, network: Self.network, cards: Self.cards, taste: .polarised)
        let clusters = LockstepClusters.detect(crowd, activeCards: 10)
        #expect(!clusters.isEmpty)
        #expect(clusters.allSatisfy { $0.evidence == [.agreement] && !$0.excludes })
        #expect(clusters.first?.reason.hasSuffix("agreement alone excludes nobody") == true)
    }

    @Test(
        "attack (a): lockstep batches beside an honest class on the same /24 and burst: <= 5 % counted, the class >= 99 %"
    )
    func lockstepBatches() {
        for seed in 1...3 as ClosedRange<UInt64> {
            var sim = CrowdSimulation(seed: seed)
            let crowd = sim.honest("h", 60, network: Self.network, cards: Self.cards, taste: .consensus)
            let attack = sim.lockstepBatches("a", 200, network: Self.network, cards: Self.cards)
            let (honest, fake, clusters) = Self.shares(crowd, attack)
            #expect(fake <= 0.05, "seed \(seed): \(fake)")
            #expect(honest >= 0.99, "seed \(seed): \(honest)")
            #expect(clusters.first?.evidence == [.machinePace])
            #expect(clusters.first?.reason.contains("faster than anyone reads a card") == true)
        }
    }

    @Test(
        "attack (b): identical votes at a human pace with human-shaped drags beside an honest class on the same /24: <= 5 % counted"
    )
    func pacedIdenticalVotes() {
        for seed in 1...3 as ClosedRange<UInt64> {
            for size in [10, 40, 120] {
                var sim = CrowdSimulation(seed: seed &+ 100)
                let crowd = sim.honest("h", 60, network: Self.network, cards: Self.cards, taste: .oneSided)
                let attack = sim.pacedIdentical("b", size, network: Self.network, cards: Self.cards)
                let (honest, fake, clusters) = Self.shares(crowd, attack)
                let style = [
                    attack.map { $0.votes.compactMap(\.durationMs).map(log) },
                    attack.map { $0.votes.compactMap(\.speed).map(log) }, attack.map { $0.gaps.map(log) },
                    attack.map { $0.votes.compactMap(\.decisionMs).map(log) },
                ].map { LockstepClusters.intraclassCorrelation($0) ?? .nan }
                #expect(fake <= 0.05, "seed \(seed), \(size) fakes: \(fake) \(clusters.map(\.reason)) style \(style)")
                #expect(honest >= 0.99, "seed \(seed), \(size) fakes: \(honest)")
            }
        }
    }

    @Test("attack (b) alone on a new deck (nobody else to compare with) is left out too: no pace or gesture of its own")
    func pacedIdenticalAlone() {
        var sim = CrowdSimulation(seed: 21)
        let attack = sim.pacedIdentical("b", 40, network: Self.network, cards: Self.cards)
        let clusters = LockstepClusters.detect(attack, activeCards: 10)
        #expect(attack.countedShare(clusters) <= 0.05)
        #expect(clusters.first?.evidence == [.oneGenerator, .unanimous])
        #expect(
            clusters.first?.reason
                == "40 people joined from one network (203.0.113.0/24) within 10 seconds and decided 10 cards the same way, and none of them has a pace or a gesture of their own, as identities made by one program"
        )
        // The same votes by people, each with their own phone, hand and pace: counted.
        let people = sim.honest("p", 40, network: Self.network, cards: Self.cards, taste: .consensus).map { p in
            var p = p
            for k in p.votes.indices { p.votes[k].direction = "right" }
            return p
        }
        #expect(LockstepClusters.detect(people, activeCards: 10).allSatisfy { !$0.excludes })
    }

    @Test("near-identical fakes (one card in ten changed) from one generator are left out")
    func nearIdentical() {
        var sim = CrowdSimulation(seed: 5)
        var attack = sim.pacedIdentical("b", 30, network: Self.network, cards: Self.cards)
        for i in attack.indices { attack[i].votes[i % 10].direction = "left" }
        let crowd = sim.honest("h", 60, network: "192.0.2.0/24", cards: Self.cards, taste: .consensus)
        let (honest, fake, _) = Self.shares(crowd, attack)
        #expect(fake <= 0.05 && honest >= 0.99)
    }

    @Test("a clockwork rhythm is left out whatever the votes; people's rhythm never is")
    func clockworkRhythm() {
        var sim = CrowdSimulation(seed: 8)
        let bots = sim.clockwork("c", 12, network: Self.network, cards: Self.cards, every: 2)
        let clusters = LockstepClusters.detect(bots, activeCards: 10)
        #expect(clusters.count == 1 && clusters.first?.evidence == [.clockwork] && clusters.first?.members.count == 12)
        #expect(
            clusters.first?.reason
                == "12 people joined from one network (203.0.113.0/24) within 11 seconds and each decided at one clockwork pace (every 2.0 s, varying by under 3 %)"
        )
    }

    @Test(
        "a hall of 500 or 2,000 on one network, judged after 5, 7 and 10 decisions each: the few steady by chance keep paces of their own, nobody is left out; clockwork scripts in it are"
    )
    func largeHallKeepsItsSteadyPeople() {
        for size in [500, 2000] {
            var sim = CrowdSimulation(seed: UInt64(size))
            let hall = sim.honest("h", size, network: Self.network, cards: Self.cards, taste: .consensus)
            // Two scripts, each one sleep between decisions, hidden in the hall.
            let bots =
                sim.clockwork("c", 8, network: Self.network, cards: Self.cards, every: 2.2)
                + sim.clockwork("d", 8, network: Self.network, cards: Self.cards, every: 3.1)
            for decided in [5, 7, 10] {
                let seen = (hall + bots).map { m in
                    var m = m
                    m.votes = Array(m.votes.sorted { $0.at < $1.at }.prefix(decided))
                    return m
                }
                let clusters = LockstepClusters.detect(seen, activeCards: 10)
                let out = Set(clusters.filter(\.excludes).flatMap(\.members))
                #expect(
                    !hall.contains { out.contains($0.id) }, "\(size) after \(decided): \(clusters.map(\.reason))")
                if decided >= LockstepClusters.minGaps + 1 {
                    #expect(
                        bots.allSatisfy { out.contains($0.id) }, "\(size) after \(decided): \(clusters.map(\.reason))")
                    #expect(clusters.filter { $0.evidence == [.clockwork] }.map(\.members.count).sorted() == [8, 8])
                }
            }
        }
    }

    @Test("small crowds, separate bursts and members with too few decisions are never a cluster")
    func bounds() {
        var sim = CrowdSimulation(seed: 9)
        let four = sim.lockstepBatches("b", 4, network: "n", cards: Self.cards)
        #expect(LockstepClusters.detect(four, activeCards: 10).isEmpty)
        // Ten identical generated voters, but a burst gap of more than ten minutes between each pair.
        var spread = sim.pacedIdentical("s", 10, network: "n", cards: Self.cards)
        for i in spread.indices {
            let shift = Double(i / 2) * 1000
            spread[i].joinedAt += shift
            for k in spread[i].votes.indices { spread[i].votes[k].at += shift }
        }
        #expect(LockstepClusters.detect(spread, activeCards: 10).isEmpty)
        // Two decisions each on a deck of ten: too few to compare.
        let two = sim.pacedIdentical("t", 20, network: "n", cards: [1, 2])
        #expect(LockstepClusters.detect(two, activeCards: 10).isEmpty)
    }

    @Test("the outcome does not depend on the order of the members")
    func deterministic() {
        var sim = CrowdSimulation(seed: 12)
        let members =
            sim.honest("h", 60, network: Self.network, cards: Self.cards, taste: .consensus)
            + sim.pacedIdentical("b", 30, network: Self.network, cards: Self.cards)
        let expected = LockstepClusters.detect(members, activeCards: 10)
        var order = SplitMix64(seed: 1)
        for _ in 0..<5 {
            #expect(LockstepClusters.detect(members.shuffled(using: &order), activeCards: 10) == expected)
        }
    }

    @Test("the intraclass correlation: 0 for draws of one distribution, near 1 for constant people, nil for too few")
    func intraclassCorrelation() {
        #expect(
            LockstepClusters.intraclassCorrelation([[1, 1, 1], [2, 2, 2], [3, 3, 3], [4, 4, 4], [5, 5, 5]]) == 1)
        #expect(
            LockstepClusters.intraclassCorrelation([[1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1], [1, 1, 1]]) == 0)
        #expect(LockstepClusters.intraclassCorrelation([[1, 2, 3], [1, 2, 3]]) == nil)
        var rng = SplitMix64(seed: 3)
        let same = (0..<40).map { _ in (0..<10).map { _ in rng.uniform(0, 1) } }
        #expect(abs(LockstepClusters.intraclassCorrelation(same) ?? 1) < 0.1)
        // One-way ANOVA by hand: groups [1,2,3] and [4,5,6] ... five of them.
        let g = (0..<5).map { i in [Double(i), Double(i) + 1, Double(i) + 2] }
        // MSB = 3 * var of means (2.5) = 7.5, MSW = 1, n0 = 3: (7.5 - 1) / (7.5 + 2) = 0.684…
        #expect(abs((LockstepClusters.intraclassCorrelation(g) ?? 0) - 6.5 / 9.5) < 1e-12)
    }

    @Test("the binomial tail and the Poisson-binomial agree with direct sums")
    func probabilities() {
        #expect(abs(LockstepClusters.binomialTail(n: 10, k: 8, p: 0.5) - 56.0 / 1024) < 1e-12)
        #expect(LockstepClusters.binomialTail(n: 10, k: 0, p: 0.3) == 1)
        #expect(abs(LockstepClusters.atMostMismatches([0.5, 0.5, 0.5], 1) - 0.5) < 1e-12)
        #expect(abs(LockstepClusters.atMostMismatches([0.9, 0.8], 0) - 0.72) < 1e-12)
    }

    @Test("over HTTP: 20 people behind one network who each liked the same single card of six are all counted")
    func oneCardIsNoCrowdEvidence() async throws {
        try await Self.withCrowdApp { client, _, clock in
            let ids = try await client.makeDeck("one", titles: (0..<6).map { "c\($0)" }, allowButtons: true)
            for p in 0..<20 {
                clock.advance(by: 2)
                #expect(
                    try await client.swipe(
                        "one", card: ids[0], direction: "right", input: "button", trace: nil, participant: "v\(p)"
                    ).status == .created)
            }
            clock.advance(by: 10)
            let results = try await client.get("/api/v1/decks/one/results", headers: admin).json()
            #expect(results["excludedParticipants"].int == 0)
            #expect(results["swipes"].int == 20)
        }
    }

    @Test(
        "over HTTP: a clockwork crowd decides no card, closes no deck, is told in no event: excluded before the decision; people still decide"
    )
    func excludedBeforeDeciding() async throws {
        try await Self.withCrowdApp { client, env, clock in
            let ids = try await client.makeDeck("rule", titles: (0..<8).map { "c\($0)" }, allowButtons: true)
            let rule =
                #"{"stopRule":{"kind":"threshold","threshold":0.5,"errorRate":0.05,"votesCap":400,"closeWhenDecided":true}}"#
            #expect(
                try await client.execute(
                    uri: "/api/v1/decks/rule", method: .patch, headers: merged(jsonType, admin),
                    body: ByteBuffer(string: rule)
                ).status == .ok)
            var rng = SplitMix64(seed: 35)
            // 12 people (one network, as everything here) split on every card, each at a pace of their own.
            for p in 0..<12 {
                for card in ids {
                    clock.advance(by: rng.uniform(1.5, 4))
                    let d = rng.next() % 2 == 0 ? "right" : "left"
                    _ = try await client.swipe(
                        "rule", card: card, direction: d, input: "button", trace: nil, participant: "h\(p)")
                }
            }
            // 30 fakes liking every card, one a second by the clock; nobody reads the results meanwhile.
            for p in 0..<30 {
                for card in ids {
                    clock.advance(by: 1)
                    _ = try await client.swipe(
                        "rule", card: card, direction: "right", input: "button", trace: nil, participant: "bot\(p)")
                }
            }
            let decided = "SELECT COUNT(*) FROM deckEvents WHERE kind IN ('card_decided', 'deck_decided')"
            #expect(try await env.count(decided) == 0, "the fakes decided a card")
            #expect(try await client.get("/api/v1/decks/rule", headers: admin).json()["open"].bool == true)
            // (Fakes who had not yet made a decision tip are left for the next look: they decided nothing.)
            #expect(try await env.count("SELECT COUNT(*) FROM exclusions WHERE liftedAt IS NULL") >= 5)

            // 40 more people, every one liking the first card, split on the rest: the room decides it.
            for p in 0..<40 {
                for card in ids {
                    clock.advance(by: rng.uniform(1.5, 4))
                    let d = card == ids[0] || rng.next() % 2 == 0 ? "right" : "left"
                    _ = try await client.swipe(
                        "rule", card: card, direction: d, input: "button", trace: nil, participant: "p\(p)")
                }
            }
            let first = "SELECT COUNT(*) FROM deckEvents WHERE kind = 'card_decided' AND detail LIKE ?"
            #expect(try await env.count(first, [#"%"card":\#(ids[0]),%"state":"yes"%"#]) == 1)
            // Read, the results leave out every fake, and none of the 52 people.
            clock.advance(by: 10)
            let results = try await client.get("/api/v1/decks/rule/results", headers: admin).json()
            #expect(results["excludedParticipants"].int == 30)
            let bots = Set(try await (0..<30).asyncMap { try await identity("bot\($0)", in: "rule", env) })
            let excluded = try await env.rows("SELECT participantId FROM exclusions WHERE liftedAt IS NULL")
                .map { $0.value(at: 0) as String? ?? "" }
            #expect(Set(excluded) == bots)
        }
    }

    @Test("over HTTP: a lockstep crowd is excluded before results are read and shown as a cluster; Include all sticks")
    func endToEnd() async throws {
        try await Self.withCrowdApp { client, env, clock in
            let ids = try await client.makeDeck("lock", titles: (0..<8).map { "c\($0)" }, allowButtons: true)
            var rng = SplitMix64(seed: 3)
            // 25 honest people (all on 127.0.0.0/24, as everything in this test) deciding diversely,
            // each at a pace of their own.
            for p in 0..<25 {
                for card in ids {
                    clock.advance(by: rng.uniform(1.5, 4))
                    let d = rng.next() % 2 == 0 ? "right" : "left"
                    #expect(
                        try await client.swipe(
                            "lock", card: card, direction: d, input: "button", trace: nil, participant: "h\(p)"
                        ).status == .created)
                }
            }
            #expect(
                try await client.get("/api/v1/decks/lock/results", headers: admin).json()["excludedParticipants"].int
                    == 0)
            // 30 more deciding every card alike, one a second by the clock.
            for p in 0..<30 {
                for card in ids {
                    clock.advance(by: 1)
                    #expect(
                        try await client.swipe(
                            "lock", card: card, direction: "right", input: "button", trace: nil, participant: "bot\(p)"
                        ).status == .created)
                }
            }
            clock.advance(by: 10)
            let results = try await client.get("/api/v1/decks/lock/results", headers: admin).json()
            let excluded = try #require(results["excludedParticipants"].int)
            #expect(excluded == 30, "the clockwork crowd, and none of the people")
            let botIds = try await (0..<30).asyncMap { try await identity("bot\($0)", in: "lock", env) }
            let reasons = try await env.rows(
                "SELECT participantId, reason FROM exclusions WHERE liftedAt IS NULL"
            ).map { ($0.value(at: 0) as String? ?? "", $0.value(at: 1) as String? ?? "") }
            #expect(Set(botIds).isSubset(of: Set(reasons.map(\.0))))
            #expect(reasons.allSatisfy { $0.1.hasPrefix(ClusterGuard.reasonPrefix) && $0.1.contains("127.0.0.0/24") })

            // The owner sees the cluster on the results page and includes it: it stays included.
            let ann = try await OwnerAuthTests.signIn(client, "ann", adding: env)
            _ = try await client.execute(
                uri: "/api/v1/decks/lock", method: .patch, headers: merged(jsonType, admin),
                body: ByteBuffer(string: #"{"resultsPublic":false}"#))
            let page = try await client.get("/d/lock/results", headers: ann).text
            #expect(page.contains("Voting in lockstep") && page.contains("Include all"))
            let from = try #require(
                page.range(of: #"name="from" value="([^"]+)""#, options: .regularExpression).map { String(page[$0]) })
            let value = String(from.dropFirst(#"name="from" value=""#.count).dropLast())
            let include = try await client.postForm(
                "/owner/decks/lock/clusters",
                "csrf=\(OwnerAuthTests.csrf(page))&network=127.0.0.0%2F24&from=\(value)&action=include", headers: ann)
            #expect(include.status == .seeOther)
            clock.advance(by: 10)
            #expect(
                try await client.get("/api/v1/decks/lock/results", headers: admin).json()["excludedParticipants"].int
                    == 0)
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for element in self { out.append(try await transform(element)) }
        return out
    }
}

/// The owner sees it: how many people are counted, flagged and left out, and why, in the results
/// JSON and on the page, with nobody hidden behind a cap.
@Suite("Who is counted")
struct PeopleSummaryTests {
    @Test(
        "results JSON and page: counted, flagged and left out with every reason; 60 people worth a look on two pages; public readers see no reasons"
    )
    func summaryAndPages() async throws {
        try await LockstepClusterTests.withCrowdApp { client, env, clock in
            let ids = try await client.makeDeck("who", titles: (0..<4).map { "c\($0)" }, allowButtons: true)
            var rng = SplitMix64(seed: 5)
            for p in 0..<6 {
                for card in ids {
                    clock.advance(by: rng.uniform(1.5, 4))
                    let d = rng.next() % 2 == 0 ? "right" : "left"
                    #expect(
                        try await client.swipe(
                            "who", card: card, direction: d, input: "button", trace: nil, participant: "h\(p)"
                        ).status == .created)
                }
            }
            // 60 scripts, each three decisions 0.1 s apart: machine pace (and their third a burst).
            for p in 0..<60 {
                clock.advance(by: 2)
                for card in ids.prefix(3) {
                    clock.advance(by: 0.1)
                    #expect(
                        try await client.swipe(
                            "who", card: card, direction: "right", input: "button", trace: nil, participant: "s\(p)"
                        ).status == .created)
                }
            }
            clock.advance(by: 10)
            let results = try await client.get("/api/v1/decks/who/results", headers: admin).json()
            let people = results["people"]
            #expect(people["counted"].int == 6)
            #expect(people["excluded"].int == 60)
            #expect(people["flagged"].int == 0)
            #expect(people["groups"].array.count == 1)
            #expect(people["groups"][0]["status"].string == "excluded")
            #expect(people["groups"][0]["people"].int == 60)
            #expect(
                people["groups"][0]["reason"].string?.hasPrefix(
                    "Left out automatically: 60 people joined from one network (127.0.0.0/24)") == true)
            #expect(people["groups"][0]["reason"].string?.contains("faster than anyone reads a card") == true)

            // The owner's page: the summary, and every one of the 60 on two pages of 50 and 10.
            let ann = try await OwnerAuthTests.signIn(client, "ann", adding: env)
            let first = try await client.get("/d/who/results", headers: ann).text
            #expect(first.contains(#"<b data-stat="peopleExcluded">60</b>"#))
            #expect(first.contains("60 people joined from one network"))
            #expect(first.components(separatedBy: #"data-label="suspect""#).count - 1 == 50)
            #expect(first.contains(#"href="?people=2#flagged""#))
            let second = try await client.get("/d/who/results?people=2", headers: ann).text
            #expect(second.components(separatedBy: #"data-label="suspect""#).count - 1 == 10)
            #expect(second.contains(#"href="?people=1#flagged""#) && !second.contains("?people=3"))

            // Public results carry no reasons.
            #expect(try await client.patchDeck("who", #"{"resultsPublic":true}"#).status == .ok)
            #expect(try await client.get("/api/v1/decks/who/results").json()["people"].isNull)
        }
    }
}
