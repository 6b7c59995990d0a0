import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Concerted fakes are caught: a crowd minted on one network that decides alike beyond chance
/// is one cluster, left out of the ranking and shown to the owner; honest crowds are not.
@Suite("Lockstep clusters")
struct LockstepClusterTests {
    /// `n` members of `network` joining one a second from `start`, deciding `cards` by `decide`.
    static func crowd(
        _ prefix: String, _ n: Int, network: String, start: Double = 1000, cards: Int = 10, decide: (Int, Int) -> String
    ) -> [LockstepClusters.Member] {
        (0..<n).map { i in
            LockstepClusters.Member(
                id: "\(prefix)\(i)", network: network, joinedAt: start + Double(i),
                decisions: Dictionary(uniqueKeysWithValues: (0..<cards).map { (Int64($0), decide(i, $0)) }))
        }
    }

    @Test("a lockstep crowd on one network is one cluster; an honest classroom of 120 with diverse decisions is not")
    func attackFlaggedClassroomNot() {
        var rng = SplitMix64(seed: 42)
        let classroom = Self.crowd("c", 120, network: "198.51.100.0/24") { _, _ in
            rng.next() % 2 == 0 ? "right" : "left"
        }
        let bots = Self.crowd("b", 40, network: "203.0.113.0/24") { _, _ in "right" }
        let clusters = LockstepClusters.detect(classroom + bots, cardCount: 10)
        #expect(clusters.count == 1)
        #expect(clusters.first?.network == "203.0.113.0/24")
        #expect(clusters.first?.members.count == 40)
        #expect(clusters.first?.members.allSatisfy { $0.hasPrefix("b") } == true)
        #expect(
            clusters.first?.reason
                == "40 people joined from one network (203.0.113.0/24) within 39 seconds and decided 10 cards the same way; by chance, fewer than 1 would"
        )
        // The classroom alone: nothing.
        #expect(LockstepClusters.detect(classroom, cardCount: 10).isEmpty)
    }

    @Test(
        "the outcome is the same for 40 classrooms beside the same fakes, in any order: the fakes never make the honest look unlikely"
    )
    func deterministicAndUnpoisoned() {
        let bots = Self.crowd("b", 40, network: "203.0.113.0/24") { _, _ in "right" }
        for seed in 1...40 as ClosedRange<UInt64> {
            var rng = SplitMix64(seed: seed)
            let classroom = Self.crowd("c", 120, network: "198.51.100.0/24") { _, _ in
                rng.next() % 2 == 0 ? "right" : "left"
            }
            var order = SplitMix64(seed: seed &* 7)
            for members in [classroom + bots, bots + classroom, (classroom + bots).shuffled(using: &order)] {
                let clusters = LockstepClusters.detect(members, cardCount: 10)
                #expect(clusters.map(\.network) == ["203.0.113.0/24"], "seed \(seed)")
                #expect(clusters.first?.members.count == 40, "seed \(seed)")
            }
        }
    }

    @Test(
        "near-identical fakes (one card in ten changed) are caught; a crowd agreeing as much as the rest of the deck is not"
    )
    func nearIdenticalAndConsensus() {
        let bots = Self.crowd("b", 30, network: "203.0.113.0/24") { i, card in card == i % 10 ? "left" : "right" }
        let others = Self.crowd("o", 60, network: "192.0.2.0/24", start: 5000) { i, card in
            (i + card) % 2 == 0 ? "right" : "left"
        }
        #expect(LockstepClusters.detect(bots + others, cardCount: 10).first?.members.count == 30)
        // A consensus the whole deck shares: 40 on one network like everything, and so do 200 elsewhere.
        var rng = SplitMix64(seed: 7)
        let fans = Self.crowd("f", 40, network: "203.0.113.0/24") { _, _ in rng.next() % 10 < 9 ? "right" : "left" }
        let everyone = Self.crowd("e", 200, network: "192.0.2.0/24", start: 9000) { _, _ in
            rng.next() % 10 < 9 ? "right" : "left"
        }
        #expect(LockstepClusters.detect(fans + everyone, cardCount: 10).isEmpty)
    }

    @Test("small crowds, separate bursts and members with too few decisions are never a cluster")
    func bounds() {
        #expect(LockstepClusters.detect(Self.crowd("b", 4, network: "n") { _, _ in "right" }, cardCount: 10).isEmpty)
        // Ten identical voters, but a burst gap of more than ten minutes between each: five bursts of two.
        let spread = (0..<10).map { i in
            LockstepClusters.Member(
                id: "s\(i)", network: "n", joinedAt: Double(i / 2) * 1000 + Double(i % 2),
                decisions: Dictionary(uniqueKeysWithValues: (0..<10).map { (Int64($0), "right") }))
        }
        #expect(LockstepClusters.detect(spread, cardCount: 10).isEmpty)
        #expect(
            LockstepClusters.detect(Self.crowd("t", 20, network: "n", cards: 2) { _, _ in "right" }, cardCount: 10)
                .isEmpty)
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
        let clock = TestClock()
        try await withApp(
            {
                $0.port = 0
                $0.participantRateLimit = 0
                $0.ipRateLimit = 0
            }, clock: clock.read, testing: .live
        ) { client, _ in
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

    @Test("over HTTP: a lockstep crowd is excluded before results are read and shown as a cluster; Include all sticks")
    func endToEnd() async throws {
        let clock = TestClock()
        try await withApp(
            {
                $0.port = 0
                $0.participantRateLimit = 0
                $0.ipRateLimit = 0
            }, clock: clock.read, testing: .live
        ) { client, env in
            let ids = try await client.makeDeck("lock", titles: (0..<6).map { "c\($0)" }, allowButtons: true)
            var rng = SplitMix64(seed: 3)
            // 25 honest people (all on 127.0.0.0/24, as everything in this test) deciding diversely.
            for p in 0..<25 {
                for card in ids {
                    clock.advance(by: 1)
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
            // 30 more deciding every card alike.
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
            #expect(
                excluded >= 30 && excluded <= 32,
                "the crowd, and at most an honest voter or two who happened to like everything")
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
