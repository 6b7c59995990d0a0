import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// The match rule of rooms: the pure function alone (`RoomMatching`, `RoomEvaluation`), then
/// random histories through the store on the engine of this run (SQLite, or PostgreSQL with
/// `SWIPEDECK_TEST_DATABASE_URL`): a match exists if and only if the rule holds on the stored swipes.
@Suite("Room match rule")
struct RoomRuleTests {
    /// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomRule(_ g: inout Seeded) -> RoomRule {
        switch Int.random(in: 0..<3, using: &g) {
        case 0: return .all
        case 1: return .atLeast(Int.random(in: 1...4, using: &g))
        default: return .share(percent: Int.random(in: 1...100, using: &g))
        }
    }

    @Test("the rule's arithmetic: all, at least k, at least p % (and never without a like or a member)")
    func holds() {
        #expect(RoomRule.all.holds(likes: 3, members: 3))
        #expect(!RoomRule.all.holds(likes: 2, members: 3))
        #expect(!RoomRule.all.holds(likes: 0, members: 0))
        #expect(RoomRule.atLeast(2).holds(likes: 2, members: 5))
        #expect(!RoomRule.atLeast(2).holds(likes: 1, members: 1))
        #expect(RoomRule.share(percent: 60).holds(likes: 3, members: 5))
        #expect(!RoomRule.share(percent: 60).holds(likes: 2, members: 5))
        #expect(RoomRule.share(percent: 50).holds(likes: 1, members: 2))
        #expect(!RoomRule.share(percent: 1).holds(likes: 0, members: 2))
        #expect(RoomRule(kind: "atLeast", value: 0) == nil)
        #expect(RoomRule(kind: "share", value: 101) == nil)
        #expect(RoomRule(kind: "most", value: 1) == nil)
    }

    @Test("codes: 6 characters without look-alikes, read in any case")
    func codes() {
        var g = Seeded(state: 7)
        for _ in 0..<500 {
            let code = RoomCode.random(using: &g)
            #expect(code.count == 6)
            #expect(!code.contains { "01ILO".contains($0) }, "\(code)")
            #expect(RoomCode.normalized(code.lowercased()) == code)
        }
        #expect(RoomCode.normalized("K7M2QO") == nil)
        #expect(RoomCode.normalized("K7M2Q") == nil)
    }

    @Test("property: without a cap, the matches are exactly the cards on which the rule holds over current members")
    func matchesAreTheRule() {
        var g = Seeded(state: 28)
        for _ in 0..<2_000 {
            let rule = Self.randomRule(&g)
            let cards = (1...Int64.random(in: 1...8, using: &g)).map { $0 }
            let everyone = (0..<6).map { "p\($0)" }
            let members = Dictionary(
                uniqueKeysWithValues: everyone.shuffled(using: &g).prefix(Int.random(in: 0...5, using: &g))
                    .enumerated().map { (Int64($0 + 1), $1) })
            var likes: [Int64: Set<String>] = [:]
            for card in cards {
                likes[card] = Set(everyone.filter { _ in Bool.random(using: &g) })
            }
            let matches = RoomMatching.matches(
                rule: rule, maxMatches: nil, cards: cards, members: members, likes: likes, previous: [:], now: 1)
            let expected = cards.filter { card in
                rule.holds(likes: likes[card]!.intersection(members.values).count, members: members.count)
            }
            #expect(Set(matches.map(\.card)) == Set(expected), "\(rule) \(members) \(likes)")
            for m in matches {
                #expect(m.likedBy.map { members[$0]! }.allSatisfy { likes[m.card]!.contains($0) })
            }
        }
    }

    @Test("property: with maxMatches, the earliest matches (then the room's order) are kept, at most the cap")
    func capKeepsTheEarliest() {
        var g = Seeded(state: 29)
        for _ in 0..<1_000 {
            let cards = Array(Int64(1)...Int64.random(in: 1...8, using: &g))
            let members: [Int64: String] = [1: "a", 2: "b"]
            let likes = Dictionary(uniqueKeysWithValues: cards.map { ($0, Bool.random(using: &g) ? Set(["a"]) : []) })
            let previous = Dictionary(
                uniqueKeysWithValues: cards.filter { _ in Bool.random(using: &g) }.map {
                    ($0, Double.random(in: 0..<1, using: &g))
                })
            let cap = Int.random(in: 0...4, using: &g)
            let matches = RoomMatching.matches(
                rule: .atLeast(1), maxMatches: cap, cards: cards, members: members, likes: likes, previous: previous,
                now: 5)
            let holding = cards.filter { !likes[$0]!.isEmpty }
            let ordered = holding.sorted { (previous[$0] ?? 5, $0) < (previous[$1] ?? 5, $1) }
            #expect(matches.map(\.card) == Array(ordered.prefix(cap)))
        }
    }

    static func room(_ settings: RoomSettings = RoomSettings(), finishedAt: Double? = nil) -> Room {
        Room(
            id: 1, code: "ABCDEF", deckId: 1, settings: settings, createdAt: 0, expiresAt: 1_000, round: 1,
            roundCards: nil, roundStartedAt: 0, finishedAt: finishedAt)
    }

    static func member(_ id: Int64, _ p: String, decided: Int = 0, left: Bool = false) -> RoomMember {
        RoomMember(id: id, participant: p, name: p, joinedAt: 0, leftAt: left ? 1 : nil, decided: decided)
    }

    @Test("a rule can still hold while the undecided could make it: all dies with one pass; k of n with n − k + 1")
    func canStillHold() {
        #expect(RoomRule.all.canStillHold(likes: 1, undecided: 2, members: 3))
        #expect(!RoomRule.all.canStillHold(likes: 1, undecided: 1, members: 3))
        #expect(RoomRule.atLeast(2).canStillHold(likes: 0, undecided: 2, members: 4))
        #expect(!RoomRule.atLeast(2).canStillHold(likes: 0, undecided: 1, members: 4))
        #expect(RoomRule.share(percent: 50).canStillHold(likes: 1, undecided: 1, members: 4))
        #expect(!RoomRule.share(percent: 75).canStillHold(likes: 1, undecided: 1, members: 4))
    }

    @Test(
        "the deal: the room's order without my cards; liked-first puts others' likes first, cards that cannot match last"
    )
    func deal() {
        let members = [
            Self.member(1, "a"), Self.member(2, "b"), Self.member(3, "c"), Self.member(4, "gone", left: true),
        ]
        // b and c like 12; b likes 11; c passes 13; a decided 15; "gone" (left) likes 16.
        let swipes: [(participant: String, card: Int64, like: Bool)] = [
            ("b", 12, true), ("c", 12, true), ("b", 11, true), ("c", 13, false), ("a", 15, true), ("gone", 16, true),
        ]
        var snapshot = RoomSnapshot(
            room: Self.room(), members: members, cards: [10, 11, 12, 13, 14, 15, 16], matches: [:], swipes: swipes)
        #expect(snapshot.deal(for: "a") == [10, 11, 12, 13, 14, 16])
        var settings = RoomSettings()
        settings.likedFirst = true
        snapshot.room = Self.room(settings)
        // Under "all", c's pass leaves 13 no chance: it goes last.
        #expect(snapshot.deal(for: "a") == [12, 11, 10, 14, 16, 13])
        // At least 2 of 3: a and b could still make 13 a match.
        settings.rule = .atLeast(2)
        snapshot.room = Self.room(settings)
        #expect(snapshot.deal(for: "a") == [12, 11, 10, 13, 14, 16])
        // b's deal counts a's like and not their own.
        #expect(snapshot.deal(for: "b") == [15, 10, 13, 14, 16])
    }

    @Test("evaluation: a newcomer revokes an 'all' match (unmatch); an undone like revokes; progress counts only")
    func evaluation() {
        let both = RoomSnapshot(
            room: Self.room(), members: [Self.member(1, "a"), Self.member(2, "b")], cards: [10, 11], matches: [:],
            swipes: [("a", 10, true), ("b", 10, true), ("a", 11, false)])
        let first = RoomEvaluation.update(both, now: 5)
        #expect(first.added.map(\.card) == [10])
        #expect(first.decided == [1: 2, 2: 1])
        #expect(first.events.map(\.kind) == [.progress, .progress, .match])
        #expect(first.events.allSatisfy { !$0.data.contains("false") && !$0.data.contains("\"a\"") })
        #expect(first.finishedAt == nil)
        // A third member joins: n = 3, the match no longer holds.
        var three = both
        three.members.append(Self.member(3, "c"))
        three.matches = [10: 5]
        three.members[0].decided = 2
        three.members[1].decided = 1
        let joined = RoomEvaluation.update(three, now: 6)
        #expect(joined.revoked == [10])
        #expect(joined.events.map(\.kind) == [.unmatch])
        // b undoes their like: revoked too.
        var undone = both
        undone.matches = [10: 5]
        undone.swipes = [("a", 10, true), ("a", 11, false)]
        #expect(RoomEvaluation.update(undone, now: 7).revoked == [10])
        // A finished room changes no more.
        var finished = undone
        finished.room = Self.room(finishedAt: 6)
        #expect(RoomEvaluation.update(finished, now: 7).isEmpty)
    }

    @Test("evaluation: end on first match finishes; everyone done without a match finishes with the closest cards")
    func finishing() {
        var settings = RoomSettings()
        settings.endOnFirstMatch = true
        let s = RoomSnapshot(
            room: Self.room(settings), members: [Self.member(1, "a"), Self.member(2, "b")], cards: [10, 11, 12],
            matches: [:], swipes: [("a", 10, true), ("b", 10, true)])
        let u = RoomEvaluation.update(s, now: 5)
        #expect(u.finishedAt == 5)
        #expect(u.events.last?.kind == .finished)
        let none = RoomSnapshot(
            room: Self.room(), members: [Self.member(1, "a"), Self.member(2, "b")], cards: [10, 11, 12], matches: [:],
            swipes: [
                ("a", 10, true), ("b", 10, false), ("a", 11, false), ("b", 11, false), ("a", 12, true),
                ("b", 12, false),
            ])
        let done = RoomEvaluation.update(none, now: 5)
        #expect(done.finishedAt == 5)
        #expect(done.events.last?.data == #"{"closest":[{"card":10,"likes":1},{"card":12,"likes":1}]}"#)
        // Expired reads as finished and changes nothing.
        #expect(RoomEvaluation.update(s, now: 2_000).isEmpty)
        #expect(Self.room().status(now: 2_000) == .expired)
    }
}
