/// A 2-D velocity in px/ms (CSS pixels per millisecond; y grows downwards).
public struct Velocity: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Velocity(x: 0, y: 0)

    /// Speed, px/ms.
    public var speed: Double { (x * x + y * y).squareRoot() }

    /// Release velocity of a trace: the least-squares slope of x(t) and y(t) over the samples
    /// whose time is within `windowMs` of the last sample (inclusive). With fewer than two
    /// samples in the window, the last two samples are used. Fewer than two samples in the
    /// trace, or no time spread, gives `.zero`.
    ///
    /// Computed with centred sums (mean first) for stability; `physics.js` performs the same
    /// operations in the same order, so the result is bit-identical.
    public static func release(of trace: Trace, windowMs: Double) -> Velocity {
        trace.t.withUnsafeBufferPointer { t in
            trace.x.withUnsafeBufferPointer { xs in
                trace.y.withUnsafeBufferPointer { ys in
                    release(t, xs, ys, windowMs: windowMs)
                }
            }
        }
    }

    @inline(__always)
    static func release(
        _ t: UnsafeBufferPointer<Double>, _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>,
        windowMs: Double
    ) -> Velocity {
        let n = t.count
        if n < 2 { return .zero }
        // Reads below stay in bounds (as the array subscripts they replace would have trapped).
        precondition(xs.count >= n && ys.count >= n)
        let end = t[n - 1]
        var start = n - 1
        while start > 0 && end - t[start - 1] <= windowMs { start -= 1 }
        if n - start < 2 { start = n - 2 }
        let m = Double(n - start)
        var st = 0.0
        var sx = 0.0
        var sy = 0.0
        for i in start..<n {
            st += t[i]
            sx += xs[i]
            sy += ys[i]
        }
        let mt = st / m
        let mx = sx / m
        let my = sy / m
        var stt = 0.0
        var stx = 0.0
        var sty = 0.0
        for i in start..<n {
            let dt = t[i] - mt
            stt += dt * dt
            stx += dt * (xs[i] - mx)
            sty += dt * (ys[i] - my)
        }
        if !(stt > 0) { return .zero }
        return Velocity(x: stx / stt, y: sty / stt)
    }
}
