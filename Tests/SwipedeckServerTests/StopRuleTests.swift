import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// The stop rule's verdicts, its anytime-valid error rate (simulated, checked after every vote)
/// against a fixed-sample Wilson interval checked the same way, and adaptive dealing's order.
@Suite("Stop rules and adaptive dealing")
struct StopRuleTests {
    /// Simulates `cards` cards of true like rate `rate`, each voted on up to `votes` times, and
    /// answers the share that `decides` ever called on the wrong side of 0.5 (checked after every
    /// vote; the first call stands). At a rate of exactly 0.5 every call is wrong.
    static func wrongShare(
        cards: Int, votes: Int, rate: (inout SplitMix64) -> Double, seed: UInt64,
        decides: (_ likes: Int, _ votes: Int) -> CardVerdict?
    ) -> Double {
        var rng = SplitMix64(seed: seed)
        var wrong = 0
        for _ in 0..<cards {
            let p = rate(&rng)
            var likes = 0
            for n in 1...votes {
                if rng.unit() < p { likes += 1 }
                guard let verdict = decides(likes, n), verdict == .yes || verdict == .no else { continue }
                if (verdict == .yes && p <= 0.5) || (verdict == .no && p >= 0.5) { wrong += 1 }
                break
            }
        }
        return Double(wrong) / Double(cards)
    }

    @Test("checked after every vote, the confidence sequence decides wrongly at most at the stated rate")
    func anytimeValid() {
        let rule = StopRule(kind: .threshold)
        // The hardest case: a rate exactly at the threshold, where any verdict is wrong.
        let atThreshold = Self.wrongShare(cards: 1500, votes: 1000, rate: { _ in 0.5 }, seed: 29) {
            rule.verdict(likes: $0, votes: $1)
        }
        #expect(atThreshold <= rule.errorRate)
        // Rates spread around the threshold: errors are rarer still.
        let spread = Self.wrongShare(cards: 1500, votes: 400, rate: { $0.uniform(0.35, 0.65) }, seed: 7) {
            rule.verdict(likes: $0, votes: $1)
        }
        #expect(spread <= rule.errorRate)
    }

    @Test("a fixed-sample Wilson interval checked after every vote decides wrongly far more often than 5 %")
    func wilsonPeeking() {
        let wilson = Self.wrongShare(cards: 1500, votes: 1000, rate: { _ in 0.5 }, seed: 29) { likes, n in
            let w = WilsonInterval(successes: likes, trials: n)
            return w.lower > 0.5 ? .yes : w.upper < 0.5 ? .no : .deciding
        }
        #expect(wilson > 0.05 * 3)
    }

    @Test("verdicts: yes, no, deciding, settled by votes and by width; no rule decides nothing")
    func verdicts() {
        let rule = StopRule(kind: .threshold)
        #expect(rule.verdict(likes: 30, votes: 30) == .yes)
        #expect(rule.verdict(likes: 0, votes: 30) == .no)
        #expect(rule.verdict(likes: 2, votes: 3) == .deciding)
        #expect(rule.verdict(likes: 0, votes: 0) == .deciding)
        // The sequence is wider than Wilson's interval: Wilson excludes 0.5 here, the rule does not.
        #expect(WilsonInterval(successes: 9, trials: 10).lower > 0.5)
        #expect(rule.verdict(likes: 9, votes: 10) == .deciding)
        let bounds = rule.bounds(likes: 9, votes: 10)
        #expect(bounds.lower < 0.5 && bounds.upper > 0.9 && bounds.upper <= 1)
        // The verdict and the bounds agree: yes exactly when the lower bound passes the threshold.
        for n in 1...60 {
            for likes in 0...n {
                let b = rule.bounds(likes: likes, votes: n)
                let v = rule.verdict(likes: likes, votes: n)
                #expect((v == .yes) == (b.lower > 0.5 + 1e-9) || abs(b.lower - 0.5) < 1e-6)
                #expect((v == .no) == (b.upper < 0.5 - 1e-9) || abs(b.upper - 0.5) < 1e-6)
            }
        }
        #expect(StopRule(kind: .votes, votes: 5).verdict(likes: 1, votes: 4) == .deciding)
        #expect(StopRule(kind: .votes, votes: 5).verdict(likes: 1, votes: 5) == .settled)
        let width = StopRule(kind: .width, width: 0.3)
        #expect(width.verdict(likes: 5, votes: 10) == .deciding)
        #expect(width.verdict(likes: 100, votes: 200) == .settled)
        #expect(StopRule(kind: .threshold, votesCap: 40).verdict(likes: 20, votes: 40) == .settled)
        #expect(StopRule.none.verdict(likes: 30, votes: 30) == nil)
    }

    @Test("votes needed: what the rule would need at the rate seen so far, and nil once decided")
    func votesNeeded() throws {
        let rule = StopRule(kind: .threshold)
        let needed = try #require(rule.votesNeeded(likes: 8, votes: 10))
        #expect(needed > 0)
        // At the projected rate, `needed` more votes decide it and one fewer does not.
        let rate = 9.0 / 12.0
        #expect(rule.verdict(successes: 8 + rate * Double(needed), trials: Double(10 + needed)) == .yes)
        #expect(rule.verdict(successes: 8 + rate * Double(needed - 1), trials: Double(9 + needed)) == .deciding)
        #expect(rule.votesNeeded(likes: 30, votes: 30) == nil)
        // A rate at the threshold (or no votes yet, shrunk to ½) gives no estimate: nothing to project.
        #expect(rule.votesNeeded(likes: 0, votes: 0) == nil && rule.votesNeeded(likes: 5, votes: 10) == nil)
        #expect(StopRule(kind: .votes, votes: 10).votesNeeded(likes: 0, votes: 4) == 6)
        #expect(StopRule(kind: .threshold, votesCap: 50).votesNeeded(likes: 5, votes: 10) == 40)
        #expect(StopRule.none.votesNeeded(likes: 1, votes: 1) == nil)
    }

    @Test("top k known: the k best separated from the rest at the error rate split over the cards")
    func topKnown() {
        let rule = StopRule(kind: .threshold, topK: 2)
        let clear = [
            CardCount(cardId: 1, likes: 190, votes: 200), CardCount(cardId: 2, likes: 185, votes: 200),
            CardCount(cardId: 3, likes: 20, votes: 200), CardCount(cardId: 4, likes: 100, votes: 200),
        ]
        #expect(rule.topKnown(clear) == [1, 2])
        #expect(rule.isDeckDecided(clear))
        // The same rates on ten votes each: not separated yet, and card 4 is undecided.
        let early = clear.map { CardCount(cardId: $0.cardId, likes: $0.likes / 20, votes: 10) }
        #expect(rule.topKnown(early) == nil)
        #expect(!rule.isDeckDecided(early))
        // Without top k: decided once every card is.
        let every = StopRule(kind: .threshold)
        #expect(!every.isDeckDecided(clear))
        #expect(every.isDeckDecided(clear.filter { $0.cardId != 4 }))
        #expect(!StopRule.none.isDeckDecided(clear))
    }

    @Test("bad fields name their rule; the stored form reads back; '{}' is no rule")
    func fields() throws {
        #expect(StopRule(kind: .threshold, threshold: 1).problem?.code == "invalid_stop_threshold")
        #expect(StopRule(kind: .threshold, errorRate: 0).problem?.code == "invalid_stop_error_rate")
        #expect(StopRule(kind: .votes, votes: 0).problem?.code == "invalid_stop_votes")
        #expect(StopRule(kind: .width, width: 1.5).problem?.code == "invalid_stop_width")
        #expect(StopRule(kind: .none, topK: 3).problem == nil)
        #expect(StopRule(kind: .none, topK: 3).topKnown([CardCount(cardId: 1, likes: 9, votes: 9)]) == nil)
        #expect(StopRule(kind: .threshold, topK: 0).problem?.code == "invalid_stop_top_k")
        #expect(StopRule(kind: .threshold).problem == nil)
        let rule = StopRule(kind: .threshold, threshold: 0.6, errorRate: 0.01, votesCap: 80, topK: 3, keepDecided: true)
        #expect(StopRule(stored: rule.stored) == rule)
        #expect(StopRule(stored: "{}") == StopRule.none)
        #expect(StopRule(stored: #"{"kind":"sometimes"}"#) == nil)
    }

    static func card(_ id: Int64) -> Card {
        Card(id: id, NewCard(deckId: 1, position: Int(id), title: "c\(id)"))
    }

    @Test("adaptive order: fewest votes first, then the widest, decided cards retired unless kept")
    func adaptiveOrder() {
        let cards = (1...5).map(Self.card)
        let counts: [Int64: CardCount] = [
            1: CardCount(cardId: 1, likes: 30, votes: 30),  // decided yes
            2: CardCount(cardId: 2, likes: 5, votes: 10),
            3: CardCount(cardId: 3, likes: 1, votes: 2),
            4: CardCount(cardId: 4, likes: 9, votes: 10),  // as many votes as 2, narrower
        ]
        let rule = StopRule(kind: .threshold)
        let order = AdaptiveDeal.ordered(cards, counts: counts, rule: rule, participant: "p").map(\.id)
        #expect(order == [5, 3, 2, 4])
        var keeping = rule
        keeping.keepDecided = true
        #expect(
            AdaptiveDeal.ordered(cards, counts: counts, rule: keeping, participant: "p").map(\.id) == [5, 3, 2, 4, 1])
        // Ties (no votes at all) follow each participant's shuffle key: two people, two orders.
        let fresh = (1...20).map(Self.card)
        let a = AdaptiveDeal.ordered(fresh, counts: [:], rule: rule, participant: "a").map(\.id)
        let b = AdaptiveDeal.ordered(fresh, counts: [:], rule: rule, participant: "b").map(\.id)
        #expect(a != b && Set(a) == Set(b) && a.count == 20)
    }
}
