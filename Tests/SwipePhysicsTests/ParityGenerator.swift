import Foundation

@testable import SwipePhysics

/// The parity generator draws from the suites' `SplitMix64` (Helpers.swift), so the traces are the
/// same on every run and machine; these two spellings read well in the generator.
extension SplitMix64 {
    /// Uniform in [a, b).
    mutating func range(_ a: Double, _ b: Double) -> Double { uniform(a, b) }
    /// Uniform in 0..<n.
    mutating func int(_ n: Int) -> Int { int(0, n - 1) }
}

/// JSON text of a number that both decoders read back to the same bits: Swift's shortest
/// round-trip digits (`-0.0`, `1e-05` and `1e+20` are valid JSON), and for non-finite values
/// the strings that `LenientDouble` (and `classify` in physics.js) accept.
func parityJSONNumber(_ d: Double) -> String {
    if d.isNaN { return "\"NaN\"" }
    if d.isInfinite { return d < 0 ? "\"-Infinity\"" : "\"Infinity\"" }
    return d.description
}

func parityJSONArray(_ a: [Double]) -> String {
    var s = "["
    for i in a.indices {
        if i > 0 { s += "," }
        s += parityJSONNumber(a[i])
    }
    return s + "]"
}

/// A trace as JSON fields (key, raw JSON text), so tests can drop keys or plant wrong types.
struct ParityRawTrace {
    var fields: [(key: String, value: String)]

    init(_ tr: Trace) {
        fields = [
            ("t", parityJSONArray(tr.t)), ("x", parityJSONArray(tr.x)), ("y", parityJSONArray(tr.y)),
            ("w", parityJSONNumber(tr.w)), ("h", parityJSONNumber(tr.h)), ("vw", parityJSONNumber(tr.vw)),
            ("vh", parityJSONNumber(tr.vh)),
            ("gx", parityJSONNumber(tr.gx)), ("gy", parityJSONNumber(tr.gy)),
        ]
        if let ox = tr.ox { fields.append(("ox", parityJSONNumber(ox))) }
        if let oy = tr.oy { fields.append(("oy", parityJSONNumber(oy))) }
    }

    /// Replaces (or adds) a field's raw JSON; nil removes it.
    mutating func set(_ key: String, _ raw: String?) {
        fields.removeAll { $0.key == key }
        if let raw { fields.append((key, raw)) }
    }

    var json: String { "{" + fields.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}" }
}

/// Inputs for everything besides `classify` that the runner evaluates on each line (see `ParityTests.extras`).
struct ParityAux: Sendable {
    var dx = 0.0, dy = 0.0, w = 0.0, h = 0.0, vw = 0.0, vh = 0.0, gy = 0.0, ox = 0.0
    var pr = 0.0, vx = 0.0, vy = 0.0
    var d = Decision.right
    var count = 3
    var ts: [Double] = []
    var x0 = 0.0, v0 = 0.0
    var spring = SpringParameters(responseMs: 260, dampingRatio: 0.68)
    var xs: [Double] = []
    var off = 0.0, travel = 0.0, opening = false
    var sd = 0.0, ty = 0.0, iy = 0.0, os = 0.0, idx = 0, cnt = 0, top = false
    var r1 = 0.0, r2 = 0.0, r3 = 0.0
    /// Which spring the line samples: 0 the profile's return spring, 1 its spring-list spring, 2 `spring`.
    var k = 0

    /// Rounds the free-standing random values to 0.001 (shorter lines; the values stay arbitrary doubles).
    mutating func shorten() {
        func r(_ v: inout Double) { v = (v * 1000).rounded() / 1000 }
        for kp in [\ParityAux.pr, \.vx, \.vy, \.x0, \.v0, \.off, \.travel, \.sd, \.ty, \.iy, \.os, \.r2] {
            r(&self[keyPath: kp])
        }
        ts = ts.map { ($0 * 1000).rounded() / 1000 }
        xs = xs.map { ($0 * 1000).rounded() / 1000 }
        spring.responseMs = spring.responseMs.rounded()
    }

    var json: String {
        let n = parityJSONNumber
        return
            "{\"dx\":\(n(dx)),\"dy\":\(n(dy)),\"w\":\(n(w)),\"h\":\(n(h)),\"vw\":\(n(vw)),\"vh\":\(n(vh)),\"gy\":\(n(gy)),\"ox\":\(n(ox)),"
            + "\"pr\":\(n(pr)),\"vx\":\(n(vx)),\"vy\":\(n(vy)),\"d\":\"\(d.rawValue)\",\"count\":\(count),\"ts\":\(parityJSONArray(ts)),"
            + "\"x0\":\(n(x0)),\"v0\":\(n(v0)),\"spring\":{\"responseMs\":\(n(spring.responseMs)),\"dampingRatio\":\(n(spring.dampingRatio))},"
            + "\"xs\":\(parityJSONArray(xs)),\"off\":\(n(off)),\"travel\":\(n(travel)),\"opening\":\(opening),"
            + "\"sd\":\(n(sd)),\"ty\":\(n(ty)),\"iy\":\(n(iy)),\"os\":\(n(os)),\"idx\":\(idx),\"cnt\":\(cnt),\"top\":\(top),"
            + "\"r1\":\(n(r1)),\"r2\":\(n(r2)),\"r3\":\(n(r3)),\"k\":\(k)}"
    }
}

/// One generated parity input: the profile's index in `SwipeProfile.all`, the `swipedeck classify`
/// line (`{"trace":…,"claimed":…}`), the runner's whole line, and the aux values.
struct ParityCase: Sendable {
    var profile: Int
    var input: String
    var line: String
    var aux: ParityAux
    /// What Swift's decoder makes of `input`, when it is plain (a generated trace, a valid or no claim):
    /// lets the test skip most JSON decoding. The test still decodes a sample to check the round trip.
    var decoded: (trace: Trace, claimed: Decision?)?
}

/// Generates traces of every kind the brief asks for: human-like drags, points exactly on the
/// thresholds, 0–2 samples, tiny and huge cards, 8-way diagonals, machine-like traces, and broken
/// ones (NaN / infinities, bad sizes, non-monotonic time, teleports, missing fields, wrong types,
/// bad claims).
struct ParityGenerator {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    // MARK: Geometry

    /// A pointer-event-like quantisation: none, whole px, half px, or third px (3× screens).
    mutating func quantiser() -> (Double) -> Double {
        switch rng.int(4) {
        case 0: return { $0 }
        case 1: return { $0.rounded() }
        case 2: return { ($0 * 2).rounded() / 2 }
        default: return { ($0 * 3).rounded() / 3 }
        }
    }

    /// Event timestamps: full precision, microseconds, or whole ms.
    mutating func timeQuantiser() -> (Double) -> Double {
        switch rng.int(4) {
        case 0: return { $0 }
        case 1: return { $0.rounded() }
        default: return { ($0 * 1000).rounded() / 1000 }
        }
    }

    mutating func geometry() -> (w: Double, h: Double, vw: Double, vh: Double) {
        var w: Double
        var h: Double
        switch rng.int(12) {
        case 0:
            w = 16
            h = rng.chance(0.5) ? 16 : rng.range(16, 64).rounded()
        case 1:
            w = 4096
            h = rng.chance(0.5) ? 4096 : rng.range(1000, 4096).rounded()
        case 2:
            w = rng.range(16, 4096)
            h = rng.range(16, 4096)
        case 3:
            w = rng.range(16, 64)
            h = rng.range(16, 64)
        default:
            w = rng.range(220, 480)
            if rng.chance(0.6) { w = w.rounded() }
            h = (w * rng.range(1.1, 1.6)).rounded()
        }
        var vw = max(rng.range(320, 2560), w * rng.range(0.8, 1.6)).rounded()
        var vh = max(rng.range(480, 1600), h * rng.range(0.8, 1.4)).rounded()
        switch rng.int(20) {
        case 0: vw = 100
        case 1: vw = 16384
        case 2: vh = 100
        case 3: vh = 16384
        default: break
        }
        vw = min(max(vw, 100), 16384)
        vh = min(max(vh, 100), 16384)
        return (w, h, vw, vh)
    }

    mutating func grab(w: Double, h: Double) -> (gx: Double, gy: Double) {
        switch rng.int(10) {
        case 0: return (0, 0)
        case 1: return (w, h)
        case 2: return (w / 2, h / 2)
        case 3: return (rng.range(0, w), h / 2)
        default: return (rng.range(0, w).rounded(.down), rng.range(0, h).rounded(.down))
        }
    }

    // MARK: Trace kinds

    /// A human-ish drag: eased path at an angle (any, near an axis, or near a diagonal), frame
    /// jitter, noise, quantisation, optionally a still press first (the `zone` long press).
    mutating func human() -> Trace {
        let (w, h, vw, vh) = geometry()
        let (gx, gy) = grab(w: w, h: h)
        let q = quantiser()
        let tq = timeQuantiser()
        let angle: Double
        switch rng.int(3) {
        case 0: angle = rng.range(0, 2 * .pi)
        case 1: angle = Double(rng.int(4)) * .pi / 2 + rng.range(-0.15, 0.15)
        default: angle = Double(rng.int(4)) * .pi / 2 + .pi / 4 + rng.range(-0.1, 0.1)
        }
        let reach = max(w, 0.6 * vw, h * 0.5)
        let dist = rng.range(0, 1.2) * reach
        let speed = rng.range(0.3, rng.chance(0.2) ? 12 : 4)  // px/ms on average
        let frame = rng.pick([1000.0 / 60, 1000.0 / 120, 1000.0 / 90, 1000.0 / 144, 8, 10, 16, 20, 25])
        var n = max(2 + rng.int(24), Int((dist / speed / frame).rounded(.up)) + 1)
        n = min(n, rng.chance(0.02) ? 400 : 40)
        let ease = rng.int(5)
        let noise = rng.chance(0.3) ? 0 : rng.range(0, 2)
        let hold = rng.chance(0.25) ? rng.range(30, 90) : 0  // ms of still press first
        var t: [Double] = []
        var x: [Double] = []
        var y: [Double] = []
        var now = rng.chance(0.5) ? 0 : rng.range(0, 30)
        if rng.chance(0.3) { now = now.rounded() }
        if hold > 0 {
            while now < hold {
                t.append(tq(now))
                x.append(q(rng.range(-0.4, 0.4)))
                y.append(q(rng.range(-0.4, 0.4)))
                now += frame * rng.range(0.9, 1.1)
            }
        }
        let moveStart = t.count
        for i in 0..<n {
            let s = n == 1 ? 1 : Double(i) / Double(n - 1)
            let f: Double
            switch ease {
            case 0: f = s
            case 1: f = s * (2 - s)
            case 2: f = s * s
            case 3: f = s < 0.7 ? 1.3 * s / 0.7 : 1.3 - 0.3 * (s - 0.7) / 0.3
            default: f = s * s * s
            }
            let jitter = (i == 0 && moveStart == 0) ? 0 : rng.range(-noise, noise)
            t.append(tq(now))
            x.append(q(f * dist * cos(angle) + jitter))
            y.append(q(f * dist * sin(angle) + rng.range(-noise, noise) * 0.5))
            now += frame * (rng.chance(0.2) ? rng.range(0.5, 2) : rng.range(0.95, 1.05))
        }
        var tr = Trace(t: t, x: x, y: y, w: w, h: h, vw: vw, vh: vh, gx: gx, gy: gy)
        if rng.chance(0.5) {
            tr.ox = rng.chance(0.5) ? rng.range(0, vw) : (vw - w) / 2 + gx
            if rng.chance(0.7) { tr.oy = rng.range(0, vh) }
        }
        if rng.chance(0.1) { tr = tr.mirroredHorizontally }
        return tr
    }

    /// A straight drag ending exactly on (or one ulp around) a threshold of the profile's rules.
    mutating func threshold(_ p: SwipeProfile) -> Trace {
        let (w, h, vw, vh) = geometry()
        let (gx, gy) = grab(w: w, h: h)
        let ox = rng.chance(0.5) ? rng.range(0, vw).rounded() : (vw - w) / 2 + gx
        let ends: [Double] = [
            p.distanceThreshold * w, p.minFlingDistance * w, p.classicXRatio * vw,
            p.kolodaThreshold * w / 2, p.reveal.minTravelPx, p.zoneInsetX - ox, vw - p.zoneInsetX - ox,
            p.distanceThreshold * h, p.kolodaThreshold * h / 2, p.reveal.actionFraction * w, 0,
        ]
        let ys: [Double] = [
            0, -0.0, 0.02 * vh, -0.02 * vh, p.kolodaThreshold * h / 2,
            -p.kolodaThreshold * h / 2, p.distanceThreshold * h, -p.distanceThreshold * h, p.minFlingDistance * h, 1,
            -1,
        ]
        var ex = rng.pick(ends)
        var ey = rng.pick(ys)
        if rng.chance(0.5) { ex = -ex }
        switch rng.int(4) {
        case 0: ex = ex.nextUp
        case 1: ex = ex.nextDown
        default: break
        }
        if rng.chance(0.2) { ey = rng.chance(0.5) ? ey.nextUp : ey.nextDown }
        if rng.chance(0.2) { swap(&ex, &ey) }
        let n = 2 + rng.int(12)
        // Either a steady frame, or times that put the release speed exactly at the fling velocity.
        let frame: Double
        if rng.chance(0.3) {
            let len = (ex * ex + ey * ey).squareRoot()
            frame = max(len / p.flingVelocity / Double(n - 1), 1)
        } else {
            frame = rng.pick([10, 20, 25, 16, 1000.0 / 60, 50])
        }
        var t: [Double] = []
        var x: [Double] = []
        var y: [Double] = []
        var start = 0.0
        if rng.chance(0.3) {
            // A press held exactly pressDelayMs with exactly pressSlopPx of movement.
            t = [0, p.pressDelayMs / 2]
            x = [0, p.pressSlopPx * (rng.chance(0.5) ? 1 : -1)]
            y = [0, 0]
            start = p.pressDelayMs
        }
        for i in 0..<n {
            let s = Double(i) / Double(n - 1)
            t.append(start + Double(i) * frame)
            x.append(i == n - 1 ? ex : ex * s)
            y.append(i == n - 1 ? ey : ey * s)
        }
        var tr = Trace(t: t, x: x, y: y, w: w, h: h, vw: vw, vh: vh, gx: gx, gy: gy)
        if rng.chance(0.6) { tr.ox = ox }
        return tr
    }

    /// 0 to 3 samples.
    mutating func few() -> Trace {
        let (w, h, vw, vh) = geometry()
        let n = rng.int(4)
        let t = (0..<n).map { Double($0) * rng.pick([4.0, 8, 16, 50]) + rng.pick([0.0, 1, 3.5]) }
        let x = (0..<n).map { _ in rng.range(-w, w).rounded() }
        let y = (0..<n).map { _ in rng.range(-h, h).rounded() }
        return Trace(t: t, x: x, y: y, w: w, h: h, vw: vw, vh: vh, gx: w / 2, gy: h / 2)
    }

    /// A straight drag towards one of the 8 directions, to a fraction of the card (or the
    /// Koloda/standard thresholds exactly).
    mutating func diagonal(_ p: SwipeProfile) -> Trace {
        let (w, h, vw, vh) = geometry()
        let a = rng.pick([0.1, 0.2, 0.3, 0.35, 0.5, 0.8, p.kolodaThreshold / 2, p.distanceThreshold, rng.range(0, 1)])
        let d = rng.pick(Decision.directions)
        let g = d.target
        let n = 3 + rng.int(10)
        let frame = rng.pick([8.0, 16, 1000.0 / 60])
        let t = (0..<n).map { Double($0) * frame }
        let x = (0..<n).map { Double($0) / Double(n - 1) * a * w * g.x }
        let y = (0..<n).map { Double($0) / Double(n - 1) * a * h * g.y }
        return Trace(t: t, x: x, y: y, w: w, h: h, vw: vw, vh: vh, gx: w / 2, gy: rng.pick([0, h / 2, h]))
    }

    /// Constant intervals, constant speed, a straight line: suspect unless perturbed past a tolerance.
    mutating func machine(_ p: SwipeProfile) -> Trace {
        let (w, h, vw, vh) = geometry()
        let n = 2 + rng.int(20)
        let dt = rng.pick([16.0, 10, 1000.0 / 60, 8])
        let vx = rng.range(-3, 3)
        let vy = rng.chance(0.5) ? 0 : rng.range(-2, 2)
        var t = (0..<n).map { Double($0) * dt }
        var x = (0..<n).map { Double($0) * dt * vx }
        var y = (0..<n).map { Double($0) * dt * vy }
        if rng.chance(0.5), n > 2 {
            let i = 1 + rng.int(n - 2)
            let l = p.limits
            switch rng.int(3) {
            case 0: t[i] += dt * l.suspectIntervalTolerance * rng.pick([0.5, 1, 1.5])
            case 1:
                x[i] += l.suspectLineTolerancePx * rng.pick([0.5, 1, 2]) * (vy == 0 ? 0 : 1)
                y[i] += l.suspectLineTolerancePx * rng.pick([0.5, 1, 2])
            default: x[i] *= 1 + l.suspectSpeedTolerance * rng.pick([0.5, 1, 3])
            }
        }
        return Trace(t: t, x: x, y: y, w: w, h: h, vw: vw, vh: vh, gx: w / 2, gy: h / 2)
    }

    /// A trace on the edges of the validation limits (sizes, grab point, duration, speed, count).
    mutating func limits(_ p: SwipeProfile) -> Trace {
        var tr = human()
        let l = p.limits
        switch rng.int(14) {
        case 0:
            tr.w = rng.pick([l.minCardSize, l.maxCardSize, l.minCardSize.nextDown, l.maxCardSize.nextUp])
            tr.gx = min(tr.gx, max(tr.w, 0))
        case 1:
            tr.h = rng.pick([l.minCardSize, l.maxCardSize, l.minCardSize.nextDown, l.maxCardSize.nextUp])
            tr.gy = min(tr.gy, max(tr.h, 0))
        case 2: tr.vw = rng.pick([l.minViewport, l.maxViewport, l.minViewport.nextDown, l.maxViewport.nextUp])
        case 3: tr.vh = rng.pick([l.minViewport, l.maxViewport, l.minViewport.nextDown, l.maxViewport.nextUp])
        case 4: tr.gx = rng.pick([0, -0.0, tr.w, tr.w.nextUp, -1e-300])
        case 5: tr.gy = rng.pick([0, -0.0, tr.h, tr.h.nextUp, (-0.0).nextDown])
        case 6:  // duration exactly at / around the minimum, over the fewest samples or one more
            let d = rng.pick([l.minDurationMs, l.minDurationMs.nextDown, l.minDurationMs.nextUp])
            let t0 = rng.pick([0.0, 3, 12.5])
            let n = max(l.minSamples, 2) + rng.int(2)
            tr.t = (0..<n).map { $0 == n - 1 ? t0 + d : t0 + d * Double($0) / Double(n - 1) }
            tr.x = (0..<n).map { $0 == 0 ? 0 : rng.range(-10, 10) }
            tr.y = (0..<n).map { $0 == 0 ? 0 : rng.range(-10, 10) }
        case 7:  // last sample at / around the maximum duration
            let n = tr.t.count
            let shift = rng.pick([l.maxDurationMs, l.maxDurationMs.nextUp, l.maxDurationMs - 1]) - tr.t[n - 1]
            tr.t = tr.t.map { $0 + shift }
        case 8:  // a move exactly at the speed limit (plus the slop) from its anchor, or just past it:
            // samples a window or more apart, or a burst (a pair under a millisecond apart)
            let dt = rng.pick([l.speedWindowMs, l.speedWindowMs.nextUp, 30, 1000.0 / 30])
            let reach = l.maxSpeed * dt + l.pointerSlopPx
            let dx = rng.pick([reach, reach.nextUp, reach.nextDown])
            if rng.chance(0.5) {
                tr.t = [0, dt, 2 * dt, 3 * dt]
                tr.x = [0, rng.chance(0.5) ? dx : 0, dx, dx + rng.range(0, 5)]
                tr.y = [0, rng.chance(0.5) ? 0 : dx, 0, 0]
            } else {
                let gap = rng.pick([0.1, 0.35, 0.8])
                tr.t = [dt / 2, dt - gap, dt, 2 * dt]
                tr.x = [0, rng.range(0, 40), dx, dx + rng.range(0, 5)]
                tr.y = [0, 0, 0, 0]
            }
        case 9:  // the first sample measured from the pointerdown point, a window or more away
            let span = tr.t[0] > l.speedWindowMs ? tr.t[0] : l.speedWindowMs
            let reach = l.maxSpeed * span + l.pointerSlopPx
            tr.x[0] = rng.pick([l.pointerSlopPx, reach, reach.nextUp, reach.nextDown])
        case 10 where rng.chance(0.1):  // sample count at / over the maximum (rarely: long lines)
            let n = rng.pick([l.maxSamples, l.maxSamples + 1])
            tr.t = (0..<n).map { Double($0) * 4 }
            tr.x = (0..<n).map { Double($0) * 0.25 }
            tr.y = (0..<n).map { _ in 0 }
        case 11:  // samples below the minimum count
            let n = max(l.minSamples - 1, 0)
            tr.t = Array(tr.t.prefix(n))
            tr.x = Array(tr.x.prefix(n))
            tr.y = Array(tr.y.prefix(n))
        case 12: tr.t[0] = rng.pick([-0.0, -1e-9, 0])
        default:  // first sample at exactly the velocity window before the last
            let n = tr.t.count
            if n >= 3 { tr.t[n - 3] = tr.t[n - 1] - p.velocityWindowMs }
        }
        return tr
    }

    /// A trace broken in one way: a non-finite number, a bad size, time going backwards, a
    /// teleport, or arrays of different lengths.
    mutating func broken() -> Trace {
        var tr = human()
        let n = tr.t.count
        let bad = rng.pick([Double.nan, .infinity, -.infinity])
        switch rng.int(12) {
        case 0: tr.t[rng.int(n)] = bad
        case 1: tr.x[rng.int(n)] = bad
        case 2: tr.y[rng.int(n)] = bad
        case 3:
            switch rng.int(8) {
            case 0: tr.w = bad
            case 1: tr.h = bad
            case 2: tr.vw = bad
            case 3: tr.vh = bad
            case 4: tr.gx = bad
            case 5: tr.gy = bad
            case 6: tr.ox = bad
            default: tr.oy = bad
            }
        case 4:  // negative or zero sizes
            switch rng.int(4) {
            case 0: tr.w = -tr.w
            case 1: tr.h = rng.pick([0, -0.0, -1])
            case 2: tr.vw = -tr.vw
            default: tr.vh = 0
            }
        case 5:  // two times swapped, or one repeated
            if n >= 2 {
                let i = 1 + rng.int(n - 1)
                if rng.chance(0.5) { tr.t.swapAt(i, i - 1) } else { tr.t[i] = tr.t[i - 1] }
            }
        case 6: tr.t = tr.t.map { $0 - rng.pick([1, 0.001, 1000]) }
        case 7:  // a teleport
            let i = rng.int(n)
            tr.x[i] += rng.pick([500, -1000, 5000])
        case 8:  // arrays of different lengths
            switch rng.int(3) {
            case 0: tr.x.removeLast()
            case 1: tr.y.append(0)
            default: tr.t.append((tr.t.last ?? 0) + 16)
            }
        case 9: tr.gx = tr.w + rng.pick([0.5, 100])
        case 10: tr.gy = rng.pick([-0.5, -100])
        default:  // grossly out-of-range sizes
            tr.w = rng.pick([1e6, 1, 15.9, 1e-300])
        }
        return tr
    }

    /// JSON that Swift's decoder refuses (or reads leniently): missing keys, wrong types, strings
    /// in arrays, nulls, extra keys, exponent spellings.
    mutating func badJSON(_ tr: Trace) -> String? {
        var raw = ParityRawTrace(tr)
        let keys = ["t", "x", "y", "w", "h", "vw", "vh", "gx", "gy"]
        switch rng.int(11) {
        case 0: raw.set(rng.pick(keys), nil)
        case 1:
            raw.set(
                rng.pick(["w", "h", "vw", "vh", "gx", "gy"]),
                rng.pick(["\"320\"", "true", "null", "[]", "{}", "\"nan\"", "\"inf\""]))
        case 2: raw.set(rng.pick(["t", "x", "y"]), rng.pick(["\"0,1\"", "5", "null", "{}", "[[0]]", "\"[]\""]))
        case 3:  // one element of an array replaced by a non-number
            let k = rng.pick(["t", "x", "y"])
            let a = k == "t" ? tr.t : k == "x" ? tr.x : tr.y
            var parts = a.map(parityJSONNumber)
            if !parts.isEmpty {
                parts[rng.int(parts.count)] = rng.pick(["\"abc\"", "null", "true", "\"nan\"", "[]", "\"\"", "\"1\""])
            }
            raw.set(k, "[" + parts.joined(separator: ",") + "]")
        case 4:  // the lenient spellings: decoded, then malformed by the finiteness rule
            let k = rng.pick(["t", "x", "y"])
            let a = k == "t" ? tr.t : k == "x" ? tr.x : tr.y
            var parts = a.map(parityJSONNumber)
            if !parts.isEmpty {
                parts[rng.int(parts.count)] = rng.pick(["\"NaN\"", "\"Infinity\"", "\"+Infinity\"", "\"-Infinity\""])
            }
            raw.set(k, "[" + parts.joined(separator: ",") + "]")
        case 5: raw.set(rng.pick(["ox", "oy"]), rng.pick(["null", "\"x\"", "\"+Infinity\"", "true", "0", "-0"]))
        case 6: raw.set(rng.pick(["extra", "T", "W"]), rng.pick(["1", "\"x\"", "null"]))
        case 7: raw.set("w", tr.w.isFinite ? String(format: "%.17E", tr.w) : "1E2")
        case 8: return rng.pick(["[]", "null", "5", "\"trace\"", "[\(raw.json)]", "true"])
        case 9: return nil  // no trace at all
        default: raw.set(rng.pick(["ox", "oy"]), rng.pick(["\"NaN\"", "\"-Infinity\"", "1e308", "-1e-308"]))
        }
        return raw.json
    }

    // MARK: Claims and aux values

    /// Raw JSON for `claimed`, or nil to leave it out.
    mutating func claim(_ tr: Trace, _ p: SwipeProfile) -> String? {
        switch rng.int(20) {
        case 0..<6: return nil
        case 6: return "null"
        case 7..<12: return "\"\(Classification.of(tr, claimed: nil, profile: p).decision.rawValue)\""
        case 12..<18: return "\"\(rng.pick(Decision.allCases).rawValue)\""
        case 18: return rng.pick(["\"sideways\"", "3", "true", "\"LEFT\"", "[\"left\"]", "{}", "\"\"", "\"up-left\""])
        default: return "\"none\""
        }
    }

    mutating func aux(for tr: Trace?) -> ParityAux {
        var a = ParityAux()
        let scalarsFinite =
            tr.map { [$0.w, $0.h, $0.vw, $0.vh, $0.gx, $0.gy, $0.ox ?? 0].allSatisfy(\.isFinite) } ?? false
        if let tr, scalarsFinite, rng.chance(0.85) {
            a.dx = tr.x.last.flatMap { $0.isFinite ? $0 : nil } ?? 0
            a.dy = tr.y.last.flatMap { $0.isFinite ? $0 : nil } ?? 0
            a.w = tr.w
            a.h = tr.h
            a.vw = tr.vw
            a.vh = tr.vh
            a.gy = tr.gy
            a.ox = tr.ox ?? ((tr.vw - tr.w) / 2 + tr.gx)
        } else {
            a.w = rng.pick([0, -50, rng.range(16, 600), 320])
            a.h = rng.pick([0, rng.range(16, 800), 440])
            a.vw = rng.pick([0, rng.range(100, 2000)])
            a.vh = rng.range(100, 1200)
            a.dx = rng.pick([0, -0.0, rng.range(-600, 600), 2 * a.w, -2 * a.w])
            a.dy = rng.pick([0, rng.range(-600, 600)])
            a.gy = rng.range(0, max(a.h, 1))
            a.ox = rng.pick([rng.range(0, a.vw), 0, a.vw, 75, a.vw - 75])
        }
        a.pr = rng.pick([rng.range(-0.5, 2), 0.25, 1, 0, -0.0, 0.625])
        a.vx = rng.pick([0, rng.range(-5, 5)])
        a.vy = rng.pick([0, -0.0, rng.range(-5, 5)])
        a.d = rng.pick(Decision.allCases)
        a.count = rng.int(6)
        a.ts = [0, rng.range(0, 100), rng.range(100, 600), rng.pick([rng.range(600, 3000), 1e5])]
        a.x0 = rng.pick([0, rng.range(-600, 600), rng.range(-1, 1)])
        a.v0 = rng.pick([0, rng.range(-8, 8)])
        a.spring = SpringParameters(
            responseMs: rng.range(30, 1500),
            dampingRatio: rng.pick([rng.range(0.05, 0.99), 1, rng.range(1.01, 3), 0.999999, 1.000001])
        )
        var x = 0.0
        a.xs = (0..<rng.int(8)).map { _ in
            x += rng.pick([rng.range(-12, 12), 5, -5, 0, 5.000001])
            return x
        }
        a.travel = rng.pick([0, -10, rng.range(1, 400)])
        a.off = rng.range(-1.2 * abs(a.travel) - 1, 50)
        a.opening = rng.chance(0.5)
        a.sd = rng.range(-40, 40)
        a.ty = rng.range(0, 2000)
        a.iy = rng.range(0, 2000)
        a.os = rng.range(-300, 300)
        a.cnt = rng.int(21)
        a.idx = rng.int(a.cnt + 1)
        a.top = rng.chance(0.5)
        a.r1 = rng.pick([rng.unit(), 0, (1.0).nextDown])
        a.r2 = rng.unit()
        a.r3 = rng.pick([rng.unit(), 0.5])
        a.k = rng.int(3)
        if rng.chance(0.8) { a.shorten() }
        return a
    }

    // MARK: Lines

    /// The `index`-th case: profiles in turn, trace kinds at random.
    mutating func next(_ index: Int) -> ParityCase {
        let pi = index % SwipeProfile.all.count
        let p = SwipeProfile.all[pi]
        var tr: Trace
        switch rng.int(100) {
        case 0..<40: tr = human()
        case 40..<55: tr = threshold(p)
        case 55..<58: tr = few()
        case 58..<66: tr = diagonal(p)
        case 66..<72: tr = machine(p)
        case 72..<82: tr = limits(p)
        case 82..<94: tr = broken()
        default:
            tr = human()
            return make(pi, badJSON(tr), claim(tr, p), aux(for: nil))
        }
        let claimRaw = claim(tr, p)
        var c = make(pi, ParityRawTrace(tr).json, claimRaw, aux(for: tr))
        switch claimRaw {
        case nil, "null": c.decoded = (tr, nil)
        case let raw?:
            if raw.count > 2, raw.hasPrefix("\""), let d = Decision(rawValue: String(raw.dropFirst().dropLast())) {
                c.decoded = (tr, d)
            }
        }
        return c
    }

    func make(_ profile: Int, _ trace: String?, _ claim: String?, _ aux: ParityAux) -> ParityCase {
        var input = "{"
        if let trace { input += "\"trace\":" + trace }
        if let claim { input += (trace == nil ? "" : ",") + "\"claimed\":" + claim }
        input += "}"
        return ParityCase(
            profile: profile, input: input, line: "{\"p\":\(profile),\"aux\":\(aux.json),\"input\":\(input)}", aux: aux)
    }
}
