import Foundation
import Testing

@testable import SwipePhysics

/// `DampedSpring`: the closed form against physics (no overshoot when critically damped, energy
/// never grows, agreement with a fine RK4 integration) and `settleTime`.
@Suite("Damped spring")
struct SpringTests {
    /// Under-, critically and over-damped springs, including the profiles' own.
    static let springs: [SpringParameters] = [
        SpringParameters(responseMs: 260, dampingRatio: 0.68),  // standard / classic return
        SpringParameters(responseMs: 579, dampingRatio: 0.59),  // eightway (POP)
        SpringParameters(responseMs: 1000, dampingRatio: 1.0),  // springList
        SpringParameters(responseMs: 300, dampingRatio: 1.0),
        SpringParameters(responseMs: 400, dampingRatio: 1.7),
        SpringParameters(responseMs: 150, dampingRatio: 0.15),
    ]

    /// Starts: position (px) and velocity (px/ms).
    static let starts: [(x0: Double, v0: Double)] = [(120, 0), (-80, 0), (60, 2.5), (-30, -1.2), (0, 3), (200, -4)]

    /// Energy per unit mass: ½v² + ½ω²x².
    static func energy(_ s: DampedSpring, _ x: Double, _ v: Double) -> Double {
        0.5 * v * v + 0.5 * s.omega * s.omega * x * x
    }

    @Test("ω = 2π / response, ζ = damping ratio")
    func parameters() {
        let s = DampedSpring(SpringParameters(responseMs: 260, dampingRatio: 0.68))
        #expect(abs(s.omega - 2 * Double.pi / 260) < 1e-18 && s.zeta == 0.68)
        // Starts where it was told to.
        for p in Self.springs {
            let sp = DampedSpring(p)
            for (x0, v0) in Self.starts {
                let st = sp.state(at: 0, x0: x0, v0: v0)
                #expect(abs(st.position - x0) < 1e-12 && abs(st.velocity - v0) < 1e-12)
            }
        }
    }

    @Test("critical and over-damping never overshoot from rest; under-damping does")
    func noOvershoot() {
        for p in [
            SpringParameters(responseMs: 260, dampingRatio: 1), SpringParameters(responseMs: 1000, dampingRatio: 1),
            SpringParameters(responseMs: 400, dampingRatio: 1.7),
        ] {
            let s = DampedSpring(p)
            // v0 = 0 and v0 pointing away from 0: the solution cannot cross zero.
            for (x0, v0) in [(120.0, 0.0), (1, 0), (50, 0.4), (200, 0)] {
                var minPos = Double.infinity
                for ms in 0...8000 {
                    minPos = min(minPos, s.state(at: Double(ms), x0: x0, v0: v0).position)
                }
                #expect(minPos >= 0, "ζ \(p.dampingRatio) from \(x0), \(v0)")
                #expect(abs(s.state(at: 8000, x0: x0, v0: v0).position) < 1e-3 * x0, "it does come back")
            }
        }
        // The control: ζ = 0.68 from rest crosses zero.
        let u = DampedSpring(SpringParameters(responseMs: 260, dampingRatio: 0.68))
        let minPos = (0...2000).map { u.state(at: Double($0), x0: 120, v0: 0).position }.min()!
        #expect(minPos < -1)
    }

    @Test("energy ½v² + ½ω²x² never grows (sampled every 1 ms)")
    func energyNeverGrows() {
        for p in Self.springs {
            let s = DampedSpring(p)
            for (x0, v0) in Self.starts {
                var previous = Self.energy(s, x0, v0)
                let initial = previous
                var firstGrowth: Int?
                for ms in 1...5000 {
                    let st = s.state(at: Double(ms), x0: x0, v0: v0)
                    let e = Self.energy(s, st.position, st.velocity)
                    if e > previous * (1 + 1e-12) + 1e-300 {
                        firstGrowth = ms
                        break
                    }
                    previous = e
                }
                #expect(
                    firstGrowth == nil, "ζ \(p.dampingRatio) from (\(x0), \(v0)): energy grew at \(firstGrowth ?? 0) ms"
                )
                #expect(previous < initial * 1e-3, "energy is actually dissipated")
            }
        }
    }

    @Test("closed form matches RK4 (dt = 0.01 ms) within 1e-6", arguments: [0.15, 0.68, 1.0, 1.7])
    func matchesIntegration(zeta: Double) {
        let p = SpringParameters(responseMs: 260, dampingRatio: zeta)
        let s = DampedSpring(p)
        // x'' = −k x − c x' with k = ω², c = 2ζω, computed from the parameters, not the spring.
        let w = 2 * Double.pi / p.responseMs
        let k = w * w
        let c = 2 * zeta * w
        func acc(_ x: Double, _ v: Double) -> Double { -k * x - c * v }
        for (x0, v0) in [(100.0, 0.0), (-40, 1.5), (0, -2)] {
            var x = x0
            var v = v0
            let dt = 0.01
            var worst = 0.0
            for step in 1...100_000 {  // 1000 ms
                let k1x = v
                let k1v = acc(x, v)
                let k2x = v + 0.5 * dt * k1v
                let k2v = acc(x + 0.5 * dt * k1x, v + 0.5 * dt * k1v)
                let k3x = v + 0.5 * dt * k2v
                let k3v = acc(x + 0.5 * dt * k2x, v + 0.5 * dt * k2v)
                let k4x = v + dt * k3v
                let k4v = acc(x + dt * k3x, v + dt * k3v)
                x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
                if step % 100 == 0 {
                    let st = s.state(at: Double(step) * dt, x0: x0, v0: v0)
                    worst = max(worst, abs(st.position - x), abs(st.velocity - v))
                }
            }
            #expect(worst < 1e-6, "ζ \(zeta) from (\(x0), \(v0)): worst difference \(worst)")
        }
    }

    @Test("settleTime: |x| ≤ ε from then on; the envelope was above ε just before")
    func settleTime() {
        for p in Self.springs {
            let s = DampedSpring(p)
            for (x0, v0) in Self.starts {
                for eps in [0.5, 0.01] {
                    let ts = s.settleTime(x0: x0, v0: v0, epsilon: eps)
                    #expect(ts > 0 && ts.isFinite)
                    // The envelope bounds the motion at every sampled time, and after ts so does ε.
                    var aboveEnvelope: Double?
                    var aboveEpsilon: Double?
                    for ms in stride(from: 0.0, through: ts + 3000, by: 1) {
                        let x = abs(s.state(at: ms, x0: x0, v0: v0).position)
                        if aboveEnvelope == nil && x > s.envelope(ms, x0: x0, v0: v0) * (1 + 1e-12) + 1e-12 {
                            aboveEnvelope = ms
                        }
                        if aboveEpsilon == nil && ms >= ts && x > eps { aboveEpsilon = ms }
                    }
                    // Also exactly at ts, and between the whole-ms samples right after it.
                    for f in [0.0, 0.25, 0.5, 0.75] where abs(s.state(at: ts + f, x0: x0, v0: v0).position) > eps {
                        aboveEpsilon = ts + f
                    }
                    let what = "ζ \(p.dampingRatio) from (\(x0), \(v0)) ε \(eps), settle \(ts) ms"
                    #expect(aboveEnvelope == nil, "\(what): |x| above the envelope at \(aboveEnvelope ?? 0) ms")
                    #expect(aboveEpsilon == nil, "\(what): |x| above ε at \(aboveEpsilon ?? 0) ms")
                    #expect(s.envelope(ts, x0: x0, v0: v0) <= eps)
                    #expect(s.envelope(ts * (1 - 1e-9), x0: x0, v0: v0) > eps, "just before \(ts)")
                }
            }
        }
        // Already settled: 0.
        let s = DampedSpring(SpringParameters(responseMs: 260, dampingRatio: 0.68))
        #expect(s.settleTime(x0: 0.1, v0: 0, epsilon: 0.5) == 0)
        #expect(s.settleTime(x0: 0, v0: 0) == 0)
    }

    @Test("settleTime grows with the start and shrinks with damping")
    func settleOrdering() {
        let under = DampedSpring(SpringParameters(responseMs: 260, dampingRatio: 0.3))
        let more = DampedSpring(SpringParameters(responseMs: 260, dampingRatio: 0.9))
        #expect(under.settleTime(x0: 200, v0: 0) > under.settleTime(x0: 20, v0: 0))
        #expect(under.settleTime(x0: 200, v0: 0) > more.settleTime(x0: 200, v0: 0))
    }
}
