import Foundation

/// A damped harmonic oscillator of mass 1 pulling towards 0, solved in closed form.
///
/// Time in ms, position in any unit (px, radians or a 0…1 fraction), velocity in units/ms.
/// ω₀ = 2π / response; ζ = damping ratio. Under-damped (ζ < 1) overshoots, critically damped
/// (ζ = 1) and over-damped (ζ > 1) never cross 0 more than once. Energy ½v² + ½ω₀²x² never grows.
public struct DampedSpring: Sendable, Hashable {
    /// Natural angular frequency, rad/ms.
    public let omega: Double
    /// Damping ratio ζ, > 0.
    public let zeta: Double

    public init(_ parameters: SpringParameters) {
        omega = 2 * Double.pi / parameters.responseMs
        zeta = parameters.dampingRatio
    }

    /// Position and velocity at time `t` (ms) for a start at `x0` with velocity `v0`.
    public func state(at t: Double, x0: Double, v0: Double) -> (position: Double, velocity: Double) {
        let w = omega
        let z = zeta
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            let a = x0
            let b = (v0 + z * w * x0) / wd
            let e = exp(-z * w * t)
            let c = cos(wd * t)
            let s = sin(wd * t)
            let pos = e * (a * c + b * s)
            let vel = e * ((b * wd - z * w * a) * c - (a * wd + z * w * b) * s)
            return (pos, vel)
        } else if z == 1 {
            let b = v0 + w * x0
            let e = exp(-w * t)
            return ((x0 + b * t) * e, (b - w * (x0 + b * t)) * e)
        } else {
            let root = (z * z - 1).squareRoot()
            let r1 = -w * (z - root)
            let r2 = -w * (z + root)
            let c1 = (v0 - r2 * x0) / (r1 - r2)
            let c2 = x0 - c1
            let e1 = exp(r1 * t)
            let e2 = exp(r2 * t)
            return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
        }
    }

    /// Time (ms) after which |position| stays below `epsilon`, from an upper envelope of the
    /// motion that only decreases (so "stays" holds). 0 when the envelope starts below `epsilon`.
    public func settleTime(x0: Double, v0: Double, epsilon: Double = 0.5) -> Double {
        // `!(… > ε)`: an envelope that is NaN (no finite motion) settles at once, as in physics.js.
        if !(envelope(0, x0: x0, v0: v0) > epsilon) { return 0 }
        var hi = 1.0
        while envelope(hi, x0: x0, v0: v0) > epsilon && hi < 1e9 { hi *= 2 }
        var lo = 0.0
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if envelope(mid, x0: x0, v0: v0) > epsilon { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// A non-increasing bound on |position| for t ≥ 0 (past its peak for the critical and
    /// over-damped cases, which is why it is taken as the maximum over [t, ∞) in closed form).
    func envelope(_ t: Double, x0: Double, v0: Double) -> Double {
        let w = omega
        let z = zeta
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            let b = (v0 + z * w * x0) / wd
            return exp(-z * w * t) * (x0 * x0 + b * b).squareRoot()
        } else if z == 1 {
            // (|a| + |b|s) e^{-ws} peaks at s = 1/w − |a|/|b|; take the peak when t is before it.
            let a = abs(x0)
            let b = abs(v0 + w * x0)
            let peak = b > 0 ? max(t, 1 / w - a / b) : t
            return (a + b * peak) * exp(-w * peak)
        } else {
            let root = (z * z - 1).squareRoot()
            let r1 = -w * (z - root)
            let r2 = -w * (z + root)
            let c1 = (v0 - r2 * x0) / (r1 - r2)
            let c2 = x0 - c1
            return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }
}
