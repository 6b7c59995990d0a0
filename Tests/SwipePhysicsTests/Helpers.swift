import Foundation

@testable import SwipePhysics

// Shared helpers of the SwipePhysics tests: a seeded PRNG, trace builders and boundary finders.
// No suite lives here.

/// Test-only draws on the shared seeded generator (`SwipePhysics.SplitMix64`).
extension SplitMix64 {
    /// Uniform integer in lo...hi.
    mutating func int(_ lo: Int, _ hi: Int) -> Int { Int.random(in: lo...hi, using: &self) }

    /// True with probability p.
    mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// A multiple of 1/64 in [lo, hi]: every sum and difference of such small values is exact in
    /// binary floating point, which lets symmetry properties hit exact boundaries.
    mutating func dyadic(_ lo: Double, _ hi: Double) -> Double {
        let steps = Int(((hi - lo) * 64).rounded(.down))
        return lo + Double(int(0, max(steps, 0))) / 64
    }

    mutating func pick<T>(_ xs: [T]) -> T { xs[int(0, xs.count - 1)] }
}

/// Card, viewport and grab point of a trace.
struct Geometry {
    var w: Double = 320
    var h: Double = 440
    var vw: Double = 390
    var vh: Double = 844
    var gx: Double = 160
    var gy: Double = 300
    var ox: Double? = nil
    var oy: Double? = nil

    /// A phone in portrait, the card grabbed a little below its centre.
    static let phone = Geometry()
    /// Round numbers so that thresholds are exact: card 400×600, viewport 400×800.
    static let square = Geometry(w: 400, h: 600, vw: 400, vh: 800, gx: 200, gy: 300)
}

/// A trace from explicit samples.
func makeTrace(_ t: [Double], _ x: [Double], _ y: [Double], _ g: Geometry = .square) -> Trace {
    Trace(t: t, x: x, y: y, w: g.w, h: g.h, vw: g.vw, vh: g.vh, gx: g.gx, gy: g.gy, ox: g.ox, oy: g.oy)
}

/// A slow drag that ends exactly at (`dx`, `dy`) and then holds still long enough that the
/// release velocity is exactly zero (every sample in the 100 ms window sits at the end point).
///
/// Samples every 16 ms: a still press up to `pressMs` (samples at t < `pressMs` are at the origin),
/// a straight ramp over `moveMs`, then 7 still samples (112 ms).
func rampTrace(dx: Double, dy: Double = 0, pressMs: Double = 0, moveMs: Double = 320, _ g: Geometry = .square) -> Trace
{
    var t: [Double] = []
    var x: [Double] = []
    var y: [Double] = []
    var now = 0.0
    while now < pressMs {
        t.append(now)
        x.append(0)
        y.append(0)
        now += 16
    }
    let start = pressMs
    let steps = Int((moveMs / 16).rounded(.up))
    for i in 1...steps {
        let f = Double(i) / Double(steps)
        t.append(start + moveMs * f)
        x.append(i == steps ? dx : dx * f)
        y.append(i == steps ? dy : dy * f)
    }
    let end = start + moveMs
    for i in 1...7 {
        t.append(end + 16 * Double(i))
        x.append(dx)
        y.append(dy)
    }
    return makeTrace(t, x, y, g)
}

/// A drag whose release velocity is exactly `slope` px/ms along x and whose final offset is
/// exactly `final` px. Samples every 14 ms from 14 to 294 ms: the release window (294 − 100 … 294)
/// then holds exactly 8 samples (196 … 294), all on the line `x = c0 + slope · (t − 196)` with
/// `c0 = final − 98 · slope`. With dyadic `slope` and `final`, the least-squares sums are exact,
/// so the computed velocity is `slope` bit for bit. Before 196 ms the pointer drifts slowly to c0.
func flingTrace(final: Double, slope: Double, _ g: Geometry = .square) -> Trace {
    let c0 = final - 98 * slope
    var t: [Double] = []
    var x: [Double] = []
    var y: [Double] = []
    for k in 1...21 {
        let tk = 14 * Double(k)
        t.append(tk)
        if tk < 196 {
            x.append(c0 * tk / 196)
        } else {
            x.append(c0 + slope * (tk - 196))
        }
        y.append(0)
    }
    return makeTrace(t, x, y, g)
}

/// The largest double ≤ `start` (stepping down one ulp at a time) for which `pass` holds.
func stepDown(from start: Double, until pass: (Double) -> Bool) -> Double {
    step(from: start, by: \.nextDown, until: pass)
}

/// The smallest double ≥ `start` (stepping up one ulp at a time) for which `pass` holds.
func stepUp(from start: Double, until pass: (Double) -> Bool) -> Double { step(from: start, by: \.nextUp, until: pass) }

/// The first of `start`, `next(start)`, … for which `pass` holds (at most a million ulps away).
private func step(from start: Double, by next: KeyPath<Double, Double>, until pass: (Double) -> Bool) -> Double {
    var v = start
    var guardSteps = 0
    while !pass(v) {
        v = v[keyPath: next]
        guardSteps += 1
        precondition(guardSteps < 1_000_000, "boundary not found")
    }
    return v
}

/// The decision of a trace under a profile, or the rejection code as a string.
func outcome(_ trace: Trace, _ profile: SwipeProfile) -> String {
    let c = Classification.of(trace, claimed: nil, profile: profile)
    if let r = c.rejection { return "rejected:\(r.rawValue)" }
    return c.decision.rawValue
}

/// The decision of a valid trace; records an issue (via the returned `nil`) when it is rejected.
func decide(_ trace: Trace, _ profile: SwipeProfile) -> Decision? {
    do {
        return try validate(trace, claimed: nil, profile: profile).decision
    } catch {
        return nil
    }
}

/// The rejection `validate` throws, or nil when the trace is valid.
func rejection(_ trace: Trace, _ profile: SwipeProfile = .standard) -> SwipeRejection? {
    do {
        _ = try validate(trace, claimed: nil, profile: profile)
        return nil
    } catch {
        return error
    }
}

/// Independent re-statement of seed 004's direction sum: the last `samples` moves of `xs`,
/// each clamped to ±`clamp`, summed in order.
func clampedMoveSum(_ xs: [Double], clamp: Double, samples: Int) -> Double {
    guard xs.count >= 2 else { return 0 }
    var sum = 0.0
    for i in max(1, xs.count - samples)..<xs.count {
        sum += min(max(xs[i] - xs[i - 1], -clamp), clamp)
    }
    return sum
}

// MARK: Generated traces

/// A human-like drag: minimum-jerk progress (bell-shaped speed), sample intervals jittered ±20 %
/// around a frame time, slight curvature (a sideways bow), and sub-pixel noise.
func humanTrace(_ rng: inout SplitMix64) -> Trace {
    let w = rng.uniform(200, 420)
    let h = rng.uniform(280, 600)
    let vw = rng.uniform(max(w + 20, 320), 1400)
    let vh = rng.uniform(max(h + 40, 480), 1000)
    let g = Geometry(w: w, h: h, vw: vw, vh: vh, gx: rng.uniform(0, w), gy: rng.uniform(0, h))
    let angle = rng.uniform(-Double.pi, Double.pi)
    let length = rng.uniform(20, 500)
    let duration = rng.uniform(120, 900)
    let frame = rng.pick([1000.0 / 60, 1000.0 / 120, 1000.0 / 90, 1000.0 / 30])
    let bow = rng.uniform(0.02, 0.12) * (rng.chance(0.5) ? 1 : -1)
    let ex = cos(angle) * length
    let ey = sin(angle) * length
    // Perpendicular unit vector for the bow.
    let nx = -sin(angle)
    let ny = cos(angle)
    let holdAfter = rng.chance(0.3) ? rng.uniform(0, 150) : 0
    var t: [Double] = []
    var x: [Double] = []
    var y: [Double] = []
    var now = frame * rng.uniform(0.2, 1.0)
    while now < duration + holdAfter {
        let tau = min(now / duration, 1)
        let s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)
        let side = bow * length * sin(Double.pi * s)
        t.append(now)
        x.append(ex * s + nx * side + rng.uniform(-0.3, 0.3))
        y.append(ey * s + ny * side + rng.uniform(-0.3, 0.3))
        now += frame * rng.uniform(0.8, 1.2)
    }
    return makeTrace(t, x, y, g)
}

/// A machine-like drag: constant interval, constant speed, a perfectly straight line.
func machineTrace(_ rng: inout SplitMix64) -> Trace {
    let g = Geometry(
        w: 320, h: 440, vw: rng.uniform(320, 1400), vh: rng.uniform(480, 1000), gx: rng.uniform(0, 320),
        gy: rng.uniform(0, 440))
    let dt = rng.uniform(4, 20)
    let speed = rng.uniform(0.1, 5)
    let angle = rng.uniform(-Double.pi, Double.pi)
    let vx = cos(angle) * speed
    let vy = sin(angle) * speed
    let n = rng.int(5, 64)
    var t: [Double] = []
    var x: [Double] = []
    var y: [Double] = []
    for i in 1...n {
        let ti = dt * Double(i)
        t.append(ti)
        x.append(vx * ti)
        y.append(vy * ti)
    }
    return makeTrace(t, x, y, g)
}
