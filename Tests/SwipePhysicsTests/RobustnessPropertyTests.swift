import Foundation
import Testing

@testable import SwipePhysics

/// Properties that hold for any input: a trace that stays in a small circle is never thrown, and
/// garbage (NaN, ±infinity, huge or negative numbers, empty or mismatched arrays) yields a
/// rejection or a verdict, never a trap.
@Suite("Property: robustness")
struct RobustnessPropertyTests {
    static let cases = 10_000

    @Test("a trace that never leaves a 4 px circle is never thrown, under any profile")
    func smallCircleNeverThrows() {
        var rng = SplitMix64(seed: 0xC1C1_E004)
        var failures = 0
        for i in 0..<Self.cases {
            let w = rng.uniform(100, 1000)
            let h = rng.uniform(100, 1000)
            let vw = rng.uniform(320, 2000)
            let vh = rng.uniform(320, 2000)
            // A press in the middle: either stated, or implied by a centred card grabbed at its centre.
            let centred = rng.chance(0.5)
            let g = Geometry(
                w: w, h: h, vw: vw, vh: vh,
                gx: centred ? w / 2 : rng.uniform(0, w), gy: rng.uniform(0, h),
                ox: centred ? nil : vw / 2 + rng.uniform(-20, 20), oy: vh / 2
            )
            let n = rng.int(3, 80)
            var t: [Double] = []
            var x: [Double] = []
            var y: [Double] = []
            // The first sample comes 1–10 ms after pointerdown; 8–20 ms between samples keep even 3 of
            // them past the shortest duration (16 ms).
            var now = rng.uniform(1, 10)
            for _ in 0..<n {
                // Uniform in the disc of radius 4 (rejection sampling), sometimes right on its rim.
                var px: Double
                var py: Double
                repeat {
                    px = rng.uniform(-4, 4)
                    py = rng.uniform(-4, 4)
                } while px * px + py * py > 16
                if rng.chance(0.1) {
                    let a = rng.uniform(-Double.pi, Double.pi)
                    px = 4 * cos(a) * (1 - 1e-12)
                    py = 4 * sin(a) * (1 - 1e-12)
                }
                t.append(now)
                x.append(px)
                y.append(py)
                now += rng.uniform(8, 20)
            }
            let tr = makeTrace(t, x, y, g)
            for p in SwipeProfile.all {
                let c = Classification.of(tr, claimed: nil, profile: p)
                let claim = rng.pick([Decision.left, .right, .up, .upRight])
                let claimed = Classification.of(tr, claimed: claim, profile: p)
                if c.rejection != nil || c.decision != .none || claimed.rejection != .notAThrow {
                    failures += 1
                    if failures <= 5 {
                        Issue.record("case \(i), \(p.name): \(c) / claimed \(claim): \(claimed) for \(tr)")
                    }
                }
            }
        }
        #expect(failures == 0)
    }

    /// A number from the nastiest corners of `Double`, or an ordinary one.
    static func garbageDouble(_ rng: inout SplitMix64) -> Double {
        switch rng.int(0, 15) {
        case 0: return .nan
        case 1: return .infinity
        case 2: return -.infinity
        case 3: return .greatestFiniteMagnitude
        case 4: return -.greatestFiniteMagnitude
        case 5: return .leastNonzeroMagnitude
        case 6: return -.leastNonzeroMagnitude
        case 7: return -0.0
        case 8: return Double(bitPattern: rng.next())  // any bit pattern: NaN payloads, subnormals…
        case 9: return rng.uniform(-1e300, 1e300)
        case 10: return -rng.uniform(0, 5000)
        case 11: return .signalingNaN
        default: return rng.uniform(-100, 2000)
        }
    }

    static func garbageArray(_ rng: inout SplitMix64, count: Int) -> [Double] {
        (0..<count).map { _ in rng.chance(0.3) ? garbageDouble(&rng) : rng.uniform(0, 500) }
    }

    /// Either pure garbage, or a plausible trace with one thing broken.
    static func garbageTrace(_ rng: inout SplitMix64) -> Trace {
        if rng.chance(0.5) {
            let n = rng.pick([0, 1, 2, 3, 5, 8, 64, 2049])
            let lengths = rng.chance(0.6) ? (n, n, n) : (rng.int(0, 9), rng.int(0, 9), rng.int(0, 9))
            return Trace(
                t: garbageArray(&rng, count: lengths.0), x: garbageArray(&rng, count: lengths.1),
                y: garbageArray(&rng, count: lengths.2),
                w: garbageDouble(&rng), h: garbageDouble(&rng), vw: garbageDouble(&rng), vh: garbageDouble(&rng),
                gx: garbageDouble(&rng), gy: garbageDouble(&rng),
                ox: rng.chance(0.5) ? nil : garbageDouble(&rng), oy: rng.chance(0.5) ? nil : garbageDouble(&rng)
            )
        }
        var tr = humanTrace(&rng)
        for _ in 0..<rng.int(1, 3) {
            // Earlier mutations may have emptied or shortened arrays: index each one by its own length.
            func spoil(_ a: inout [Double], _ rng: inout SplitMix64) {
                if !a.isEmpty { a[rng.int(0, a.count - 1)] = garbageDouble(&rng) }
            }
            switch rng.int(0, 13) {
            case 0: spoil(&tr.t, &rng)
            case 1: spoil(&tr.x, &rng)
            case 2: spoil(&tr.y, &rng)
            case 3: tr.w = garbageDouble(&rng)
            case 4: tr.vh = garbageDouble(&rng)
            case 5: tr.gx = garbageDouble(&rng)
            case 6: tr.ox = garbageDouble(&rng)
            case 7: if !tr.x.isEmpty { tr.x.removeLast(rng.int(1, tr.x.count)) }
            case 8: tr.t = []
            case 9:  // keep 0 or 1 samples
                let k = rng.int(0, 1)
                tr.t = Array(tr.t.prefix(k))
                tr.x = Array(tr.x.prefix(k))
                tr.y = Array(tr.y.prefix(k))
            case 10: tr.t = tr.t.map { $0 / 1000 }  // squashed into a millisecond
            case 11: tr.t = tr.t.map { $0 * 100 }  // stretched past 10 s, or just slowed down
            case 12: tr.t = tr.t.map { $0 * garbageDouble(&rng) }
            default: tr.y.append(garbageDouble(&rng))
            }
        }
        return tr
    }

    @Test("garbage never traps: checkTrace, validate and Classification.of agree on a rejection or a verdict")
    func garbageNeverTraps() {
        var rng = SplitMix64(seed: 0x6A2B_A6E0)
        var rejected = 0
        var accepted = 0
        var failures = 0
        var seen = Set<SwipeRejection>()
        for i in 0..<(2 * Self.cases) {
            let tr = Self.garbageTrace(&rng)
            let p = rng.pick(SwipeProfile.all)
            let claim: Decision? = rng.chance(0.3) ? nil : rng.pick(Decision.allCases)
            var shape: SwipeRejection?
            do { try checkTrace(tr, limits: p.limits) } catch { shape = error }
            var validated: Result<Verdict, SwipeRejection>
            do { validated = .success(try validate(tr, claimed: claim, profile: p)) } catch {
                validated = .failure(error)
            }
            let c = Classification.of(tr, claimed: claim, profile: p)
            var ok: Bool
            if let shape {
                rejected += 1
                seen.insert(shape)
                ok = c.rejection == shape && c.decision == .none && c.velocity == .zero && c.progress == 0 && !c.suspect
                if case .failure(let e) = validated { ok = ok && e == shape } else { ok = false }
            } else {
                accepted += 1
                ok = !c.velocity.x.isNaN && !c.velocity.y.isNaN && !c.progress.isNaN
                switch validated {
                case .success(let v):
                    ok = ok && c.rejection == nil && v.decision == c.decision && (claim == nil || claim == v.decision)
                case .failure(let e): ok = ok && c.rejection == e && (e == .decisionMismatch || e == .notAThrow)
                }
            }
            if !ok {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        "case \(i): shape \(String(describing: shape)), validate \(validated), classification \(c) for \(tr)"
                    )
                }
            }
        }
        #expect(failures == 0)
        // Every shape rule fired at least once, and some garbage still made sense.
        #expect(
            seen == [
                .malformed, .sizeOutOfRange, .tooFewSamples, .tooLong, .nonMonotonicTime, .tooShort, .impossibleSpeed,
            ], "\(seen)")
        #expect(accepted > 100 && rejected > Self.cases)
    }

    @Test("garbage JSON lines classify as malformed, never trap")
    func garbageLines() {
        var rng = SplitMix64(seed: 0x1157_0000)
        let fragments = [
            "{", "}", "[", "]", "\"t\":", "\"x\":", "\"y\":", "\"w\":", "\"trace\":", "\"claimed\":", "\"right\"",
            "\"sideways\"",
            "\"NaN\"", "\"Infinity\"", "\"-Infinity\"", "\"nan\"", "1e999", "-1e999", "0", "-0", "1", "320", "null",
            "true", ",", ":",
            "[0,16,32]", "[]", "\u{0}", "\"\u{FFFF}\"", "9007199254740993",
            "{\"t\":[0,10],\"x\":[0,1],\"y\":[0,0],\"w\":320,\"h\":440,\"vw\":390,\"vh\":844,\"gx\":1,\"gy\":1}",
        ]
        var malformed = 0
        for _ in 0..<Self.cases {
            var line = ""
            for _ in 0..<rng.int(0, 12) { line += rng.pick(fragments) }
            if rng.chance(0.3) { line = "{\"trace\":" + line + "}" }
            let c = Classification.of(line: Array(line.utf8), profile: rng.pick(SwipeProfile.all))
            if c == .malformed { malformed += 1 }
            #expect(c.rejection != nil || c.decision != .none || c.velocity.x.isFinite)
        }
        #expect(malformed > Self.cases / 2)
        // Random bytes too.
        for _ in 0..<1000 {
            let bytes = (0..<rng.int(0, 64)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            #expect(Classification.of(line: bytes, profile: .standard) == .malformed)
        }
    }
}
