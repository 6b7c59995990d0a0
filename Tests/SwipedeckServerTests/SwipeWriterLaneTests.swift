import Foundation
import Testing

@testable import SwipedeckServer

/// The group commit's lanes (`SwipeWriter(lanes:)`) on the engine of this run: several
/// transactions of one writer overlap, and the storage rules hold between them as they hold
/// between servers.
@Suite("Swipe writer lanes (both engines)")
struct SwipeWriterLaneTests {
    /// Submits `swipes` (each twice, the second a replay of the first) all at once.
    static func burst(_ writer: SwipeWriter, _ swipes: [(Swipe, Int?)]) async throws -> [String: [SwipeOutcome?]] {
        try await withThrowingTaskGroup(of: (String, SwipeOutcome?).self) { group in
            for (swipe, quota) in swipes {
                for _ in 0..<2 { group.addTask { (swipe.id, try await writer.submit(.swipe(swipe, quota: quota))) } }
            }
            return try await group.reduce(into: [String: [SwipeOutcome?]]()) { $0[$1.0, default: []].append($1.1) }
        }
    }

    @Test("four lanes overlap transactions; keys, one live swipe per card and the quota hold between them")
    func fourLanes() async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, cards) = try await StoreContractTests.importDeck(store, cards: 10, quota: 4)
            let writer = SwipeWriter(store: store, lanes: 4)
            // 40 participants × 10 cards, each key sent twice, and "greedy" tries every card
            // under two keys each against a quota of 4.
            var swipes: [(Swipe, Int?)] = []
            for p in 0..<40 {
                for (c, card) in cards.enumerated() {
                    swipes.append((StorageTests.swipe(deck, card: card, participant: "p\(p)", id: "k\(p)-\(c)"), nil))
                }
            }
            for (c, card) in cards.enumerated() {
                for copy in 0..<2 {
                    swipes.append((StorageTests.swipe(deck, card: card, participant: "greedy", id: "g\(c)-\(copy)"), 4))
                }
            }
            let outcomes = try await Self.burst(writer, swipes.shuffled())
            var created = 0
            var replayed = 0
            var refused: [ApiError] = []
            for outcome in outcomes.values.joined() {
                switch outcome {
                case .created: created += 1
                case .replayed: replayed += 1
                case .refused(let reason): refused.append(reason)
                case nil: Issue.record("a swipe logged as a rejection")
                }
            }
            // 400 + 4 stored, and each stored key's second copy replays; greedy's 16 other keys
            // are refused both times (a second key on a card, or the quota).
            #expect(created == 404)
            #expect(replayed == 404)
            #expect(refused.count == 32)
            #expect(refused.allSatisfy { $0 == .alreadySwiped || $0 == .quotaReached(4) }, "\(refused)")
            #expect(await writer.mostInFlight > 1, "the lanes never overlapped")
            #expect(await writer.mostInFlight <= 4)
            let report = try await store.results(for: deck)
            #expect(report.allSwipes == 404)
            #expect(report.participants == 41)
            #expect(try await store.participantReport(deck: deck, participant: "greedy").kinds["api"] == 4)
        }
    }

    @Test("one lane runs one transaction at a time")
    func oneLane() async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, cards) = try await StoreContractTests.importDeck(store, cards: 10)
            let writer = SwipeWriter(store: store, lanes: 1)
            let swipes = (0..<200).map { i in
                (StorageTests.swipe(deck, card: cards[i % 10], participant: "p\(i / 10)", id: "k\(i)"), Int?.none)
            }
            let outcomes = try await Self.burst(writer, swipes)
            #expect(outcomes.values.joined().filter { if case .created = $0 { return true } else { return false } }.count == 200)
            #expect(await writer.mostInFlight == 1)
            #expect(await writer.commits < 400, "no batch held more than one item")
        }
    }
}
