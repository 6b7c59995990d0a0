import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// `SwipeRule.decide` without a database: every verdict from facts written out by hand.
@Suite("Swipe rule")
struct SwipeRuleTests {
    static func swipe(id: String = "k", input: SwipeInput = .button, at: Double = 100, hash: String = "h") -> Swipe {
        Swipe(
            id: id, deckId: 1, cardId: 7, participantId: "p", direction: .right, input: input, trace: nil,
            velocityX: nil, velocityY: nil, durationMs: nil, decisionMs: 800, suspect: false, requestHash: hash,
            createdAt: at, undoneAt: nil)
    }

    static func facts(
        existing: Swipe? = nil, live: Bool = false, counts: [Int] = [0, 0, 0, 0, 0], recent: [Double] = [],
        revision: Int? = 3
    ) -> SwipeRule.Facts {
        SwipeRule.Facts(
            existing: existing, liveOnCard: live, participant: .init(excluded: false, counts: counts), recent: recent,
            revision: revision)
    }

    @Test("a stored swipe under the key is replayed for the same fingerprint, refused for another")
    func key() {
        let stored = Self.swipe(at: 50)
        #expect(
            SwipeRule.decide(Self.swipe(), quota: nil, origin: nil, facts: Self.facts(existing: stored))
                == .replay(stored))
        #expect(
            SwipeRule.decide(Self.swipe(hash: "other"), quota: nil, origin: nil, facts: Self.facts(existing: stored))
                == .refuse(.idempotencyMismatch))
        // The key is checked first: a replay is answered even on a card swiped since and past the quota.
        let busy = Self.facts(existing: stored, live: true, counts: [0, 0, 5, 0, 0])
        #expect(SwipeRule.decide(Self.swipe(), quota: 5, origin: nil, facts: busy) == .replay(stored))
    }

    @Test("a live swipe on the card refuses another, before the quota")
    func live() {
        let facts = Self.facts(live: true, counts: [0, 0, 9, 0, 0])
        #expect(SwipeRule.decide(Self.swipe(), quota: 2, origin: nil, facts: facts) == .refuse(.alreadySwiped))
    }

    @Test("the quota counts live swipes of every kind; no quota, no limit")
    func quota() {
        let facts = Self.facts(counts: [1, 0, 1, 0, 1])
        #expect(SwipeRule.decide(Self.swipe(), quota: 3, origin: nil, facts: facts) == .refuse(.quotaReached(3)))
        guard case .create = SwipeRule.decide(Self.swipe(), quota: 4, origin: nil, facts: facts) else {
            Issue.record("refused under the quota")
            return
        }
        guard case .create = SwipeRule.decide(Self.swipe(), quota: nil, origin: nil, facts: facts) else {
            Issue.record("refused without a quota")
            return
        }
    }

    @Test("a created swipe carries the card's revision and counts in the participant's row by its kind")
    func created() {
        let verdict = SwipeRule.decide(
            Self.swipe(), quota: nil, origin: nil, facts: Self.facts(counts: [0, 0, 2, 0, 0], revision: 4))
        var expected = Self.swipe()
        expected.cardRevision = 4
        #expect(verdict == .create(expected, participant: .init(excluded: false, counts: [0, 0, 3, 0, 0]), join: nil))
        #expect(verdict.outcome == .created(expected))
        let api = SwipeRule.decide(Self.swipe(input: .api), quota: nil, origin: nil, facts: Self.facts())
        guard case .create(_, let row, _) = api else {
            Issue.record("refused")
            return
        }
        #expect(row.counts == [0, 0, 0, 0, 1])
    }

    @Test("with an origin, pace flags a burst or a decision before reading; without, nothing is paced")
    func pace() throws {
        let origin = SwipeWriter.Origin(mintedAt: 0, network: nil)
        func reason(_ input: SwipeInput, at: Double, recent: [Double], origin: SwipeWriter.Origin?) -> String? {
            guard
                case .create(let s, _, _) = SwipeRule.decide(
                    Self.swipe(input: input, at: at), quota: nil, origin: origin, facts: Self.facts(recent: recent))
            else { return "refused" }
            #expect(s.suspect == (s.suspectReason != nil))
            return s.suspectReason
        }
        #expect(reason(.button, at: 100, recent: [99.8, 99.5], origin: origin) == "button_burst")
        #expect(reason(.drag, at: 100, recent: [99.8, 99.5], origin: origin) == "drag_burst")
        #expect(reason(.button, at: 100, recent: [99.8, 99.3], origin: origin) == nil)
        #expect(reason(.button, at: 100, recent: [99.8, 99.5], origin: nil) == nil)
        let fresh = SwipeWriter.Origin(mintedAt: 99.9, network: nil)
        #expect(reason(.key, at: 100, recent: [], origin: fresh) == "button_before_read")
        #expect(reason(.api, at: 100, recent: [], origin: fresh) == "drag_before_read")
        #expect(reason(.api, at: 100.5, recent: [], origin: fresh) == nil)
    }

    @Test("an origin with a network records the join at the minting, else at the swipe")
    func join() {
        func join(_ origin: SwipeWriter.Origin?) -> SwipeRule.Join? {
            guard
                case .create(_, _, let join) = SwipeRule.decide(
                    Self.swipe(at: 100), quota: nil, origin: origin, facts: Self.facts())
            else { return nil }
            return join
        }
        #expect(
            join(SwipeWriter.Origin(mintedAt: 40, network: "10.0.0.0/24"))
                == SwipeRule.Join(network: "10.0.0.0/24", at: 40))
        #expect(
            join(SwipeWriter.Origin(mintedAt: nil, network: "10.0.0.0/24"))
                == SwipeRule.Join(network: "10.0.0.0/24", at: 100))
        #expect(join(SwipeWriter.Origin(mintedAt: 40, network: nil)) == nil)
        #expect(join(nil) == nil)
    }

    @Test("a program's first swipe makes an api participant, any other a browser one")
    func participantKind() {
        #expect(Participant.Kind(firstInput: .api) == .api)
        for input: SwipeInput in [.drag, .button, .key] { #expect(Participant.Kind(firstInput: input) == .browser) }
    }
}

@Suite("Swipe fingerprint")
struct SwipeFingerprintTests {
    static let trace = Trace(
        t: [0, 16, 32], x: [0, 40, 120], y: [0, 1, -0.0], w: 320, h: 440, vw: 390, vh: 844, gx: 160, gy: 220)

    @Test("the same request spelt alone or as a batch item, in any key order, has one fingerprint")
    func spelling() throws {
        let single =
            #"{"card": 7, "direction": "right", "input": "drag", "decisionMs": 812.5,"#
            + #" "trace": {"t":[0,16,32],"x":[0,40,120],"y":[0,1,-0],"w":320,"h":440,"vw":390,"vh":844,"gx":160,"gy":220}}"#
        let item =
            #"{"trace":{"gy":220,"gx":160,"vh":844,"vw":390,"h":440,"w":320,"y":[0,1,-0.0],"x":[0,40,120],"t":[0,16,32]},"#
            + #""idempotencyKey":"k1","decisionMs":812.5,"input":"drag","direction":"right","card":7}"#
        let a = try JSONDecoder().decode(SwipeRequest.self, from: Data(single.utf8))
        let b = try JSONDecoder().decode(SwipeRequest.self, from: Data(item.utf8))
        #expect(
            SwipeFingerprint.of(a, deck: "d", participant: "p") == SwipeFingerprint.of(b, deck: "d", participant: "p"))
    }

    @Test("every field the request decides changes the fingerprint")
    func fields() {
        let base = SwipeRequest(card: 7, direction: "right", input: "drag", trace: Self.trace, decisionMs: 812.5)
        let f = SwipeFingerprint.of(base, deck: "d", participant: "p")
        var variants: [SwipeRequest] = []
        var r = base
        r.card = 8
        variants.append(r)
        r = base
        r.direction = "left"
        variants.append(r)
        r = base
        r.input = "api"
        variants.append(r)
        r = base
        r.decisionMs = nil
        variants.append(r)
        r = base
        r.trace = nil
        variants.append(r)
        r = base
        r.trace?.y[2] = 0  // -0 and 0 are different numbers in a trace.
        variants.append(r)
        r = base
        r.trace?.ox = 10
        variants.append(r)
        for v in variants { #expect(SwipeFingerprint.of(v, deck: "d", participant: "p") != f, "\(v)") }
        #expect(SwipeFingerprint.of(base, deck: "e", participant: "p") != f)
        #expect(SwipeFingerprint.of(base, deck: "d", participant: "q") != f)
        // Fields are delimited: moving a character across a boundary is another request.
        #expect(
            SwipeFingerprint.of(base, deck: "dp", participant: "")
                != SwipeFingerprint.of(base, deck: "d", participant: "p"))
    }
}
