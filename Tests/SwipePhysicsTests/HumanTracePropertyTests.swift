import Foundation
import Testing

@testable import SwipePhysics

/// Properties over generated gestures: human-like traces pass and are not suspect; machine-like
/// traces pass but are suspect; forged traces are rejected with the code of what was forged.
@Suite("Property: human, machine and forged traces")
struct HumanTracePropertyTests {
    static let cases = 10_000

    @Test("human-like traces (bell-shaped speed, ±20 % intervals, slight curve) are never rejected or suspect")
    func humanTracesPass() {
        var rng = SplitMix64(seed: 0x4855_4D41)
        var failures = 0
        var decisions: [Decision: Int] = [:]
        for i in 0..<Self.cases {
            let tr = humanTrace(&rng)
            for p in SwipeProfile.all {
                let c = Classification.of(tr, claimed: nil, profile: p)
                // Claiming what the model decided is accepted too.
                let agreed = Classification.of(tr, claimed: c.decision, profile: p)
                if c.rejection != nil || c.suspect || agreed.rejection != nil {
                    failures += 1
                    if failures <= 5 { Issue.record("case \(i), \(p.name): \(c) for \(tr)") }
                }
                if p.name == "standard" { decisions[c.decision, default: 0] += 1 }
            }
        }
        #expect(failures == 0)
        // Realistic mix: many throws both ways and many spring-backs.
        #expect(decisions[.left, default: 0] > Self.cases / 10 && decisions[.right, default: 0] > Self.cases / 10)
        #expect(decisions[.none, default: 0] > Self.cases / 10)
    }

    @Test("constant-interval, constant-speed, straight-line traces are valid but suspect")
    func machineTracesAreSuspect() {
        var rng = SplitMix64(seed: 0x4D41_4348)
        var failures = 0
        for i in 0..<Self.cases {
            let tr = machineTrace(&rng)
            for p in SwipeProfile.all {
                let c = Classification.of(tr, claimed: nil, profile: p)
                if c.rejection != nil || !c.suspect {
                    failures += 1
                    if failures <= 5 { Issue.record("case \(i), \(p.name): \(c) for \(tr)") }
                }
            }
        }
        #expect(failures == 0)
    }

    @Test("each machine-likeness condition alone is not enough to be suspect")
    func suspectNeedsAllThree() {
        let limits = ValidationLimits()
        let t = (1...20).map { 10 * Double($0) }
        let line = makeTrace(t, t.map { $0 * 0.5 }, t.map { $0 * 0.25 })
        #expect(isSuspect(line, limits: limits))
        // Jittered intervals (still a straight line at constant speed per sample).
        var jitter = line
        jitter.t[7] += 1
        #expect(!isSuspect(jitter, limits: limits))
        // Accelerating (constant interval, straight line).
        var accel = line
        accel.x = t.map { $0 * $0 / 200 }
        accel.y = accel.x.map { $0 / 2 }
        #expect(!isSuspect(accel, limits: limits))
        // Curved: points on a circle at constant angular speed (constant interval and constant
        // speed) bulge 2.25 px off the chord on a 500 px radius; on a 5000 px radius only 0.23 px.
        func arc(radius: Double, step: Double) -> Trace {
            let a = (0..<20).map { Double($0) * step }
            return makeTrace(t, a.map { radius * sin($0) }, a.map { radius * (1 - cos($0)) })
        }
        #expect(!isSuspect(arc(radius: 500, step: 0.01), limits: limits))
        #expect(isSuspect(arc(radius: 5000, step: 0.001), limits: limits))
        // Within the tolerances: 1 % interval jitter and a 0.25 px sideways wobble stay suspect.
        var close = line
        close.t[7] += 0.1
        close.x[10] -= 0.25 * 0.25 / (0.3125).squareRoot()
        close.y[10] += 0.25 * 0.5 / (0.3125).squareRoot()
        #expect(isSuspect(close, limits: limits))
        var far = line
        far.x[10] -= 0.6 * 0.25 / (0.3125).squareRoot()
        far.y[10] += 0.6 * 0.5 / (0.3125).squareRoot()
        #expect(!isSuspect(far, limits: limits), "0.6 px off the line")
        // Too few samples is never suspect.
        let short = makeTrace([10, 20, 30, 40], [5, 10, 15, 20], [0, 0, 0, 0])
        #expect(!isSuspect(short, limits: limits))
        // Standing still is not "constant speed".
        #expect(!isSuspect(makeTrace(t, t.map { _ in 0 }, t.map { _ in 0 }), limits: limits))
    }

    @Test("forged: time going backwards is rejected as non_monotonic_time")
    func forgedTimeBackwards() {
        var rng = SplitMix64(seed: 0x7173_BACC)
        var failures = 0
        for i in 0..<Self.cases {
            var tr = humanTrace(&rng)
            let k = rng.int(0, tr.count - 1)
            switch rng.int(0, 3) {
            case 0 where k > 0: tr.t[k] = tr.t[k - 1] - rng.uniform(0, 5)  // back (or equal)
            case 1 where k > 0: tr.t.swapAt(k, k - 1)
            case 2 where k > 0: tr.t[k] = tr.t[k - 1]  // standing still in time
            default: tr.t[0] = -rng.uniform(0x1p-40, 100)  // before the pointerdown
            }
            let p = rng.pick(SwipeProfile.all)
            if rejection(tr, p) != .nonMonotonicTime
                || Classification.of(tr, claimed: .right, profile: p).rejection != .nonMonotonicTime
            {
                failures += 1
                if failures <= 5 { Issue.record("case \(i): \(String(describing: rejection(tr, p))) for \(tr)") }
            }
        }
        #expect(failures == 0)
    }

    @Test("forged: a teleport of one sample is rejected as impossible_speed")
    func forgedTeleport() {
        var rng = SplitMix64(seed: 0x7E1E_9087)
        var failures = 0
        for i in 0..<Self.cases {
            var tr = humanTrace(&rng)
            let k = rng.int(0, tr.count - 1)
            // Out of reach of every earlier point: further than 20 px/ms over all the time since the
            // pointerdown (at least the 24 ms window) + 2 px, beyond the furthest earlier sample.
            let before = (0..<k).map { (tr.x[$0] * tr.x[$0] + tr.y[$0] * tr.y[$0]).squareRoot() }.max() ?? 0
            let jump = before + 20 * max(tr.t[k], 24) + 2 + rng.uniform(0.5, 600)
            let a = rng.uniform(-Double.pi, Double.pi)
            tr.x[k] = jump * cos(a)
            tr.y[k] = jump * sin(a)
            let p = rng.pick(SwipeProfile.all)
            if rejection(tr, p) != .impossibleSpeed {
                failures += 1
                if failures <= 5 { Issue.record("case \(i): \(String(describing: rejection(tr, p))) for \(tr)") }
            }
        }
        #expect(failures == 0)
    }

    @Test("forged: a whole drag faster than 20 px/ms is rejected as impossible_speed")
    func forgedImpossibleSpeed() {
        var rng = SplitMix64(seed: 0x5BEE_D000)
        var failures = 0
        for i in 0..<Self.cases {
            let speed = rng.uniform(25, 400)
            let a = rng.uniform(-Double.pi, Double.pi)
            let frame = rng.pick([1000.0 / 60, 1000.0 / 120])
            var t: [Double] = []
            var x: [Double] = []
            var y: [Double] = []
            var now = frame * rng.uniform(0.5, 1)
            // At least 8 samples: past the 24 ms window of the speed rule, whatever the frame.
            for _ in 0..<rng.int(8, 40) {
                t.append(now)
                x.append(speed * now * cos(a))
                y.append(speed * now * sin(a))
                now += frame * rng.uniform(0.8, 1.2)
            }
            let tr = makeTrace(t, x, y, .phone)
            let p = rng.pick(SwipeProfile.all)
            if rejection(tr, p) != .impossibleSpeed {
                failures += 1
                if failures <= 5 { Issue.record("case \(i): \(String(describing: rejection(tr, p))) for \(tr)") }
            }
        }
        #expect(failures == 0)
    }

    @Test("forged: a claim contradicting the trace is decision_mismatch or not_a_throw")
    func forgedClaim() {
        var rng = SplitMix64(seed: 0xC1A1_3000)
        var failures = 0
        var codes: [SwipeRejection: Int] = [:]
        for i in 0..<Self.cases {
            let tr = humanTrace(&rng)
            let p = rng.pick(SwipeProfile.all)
            guard let actual = decide(tr, p) else {
                failures += 1
                Issue.record("case \(i): a human trace was rejected")
                continue
            }
            let claim = rng.pick(Decision.allCases.filter { $0 != actual })
            let expected: SwipeRejection = actual == .none ? .notAThrow : .decisionMismatch
            codes[expected, default: 0] += 1
            let c = Classification.of(tr, claimed: claim, profile: p)
            if claimRejection(claim, tr, p) != expected || c.rejection != expected || c.decision != actual {
                failures += 1
                if failures <= 5 { Issue.record("case \(i), \(p.name): claimed \(claim), model \(actual): \(c)") }
            }
        }
        #expect(failures == 0)
        #expect(codes[.notAThrow, default: 0] > 1000 && codes[.decisionMismatch, default: 0] > 1000)
    }

    func claimRejection(_ claimed: Decision, _ tr: Trace, _ p: SwipeProfile) -> SwipeRejection? {
        do {
            _ = try validate(tr, claimed: claimed, profile: p)
            return nil
        } catch {
            return error
        }
    }
}
