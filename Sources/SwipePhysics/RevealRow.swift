/// The swipe-to-reveal list row of seed 004.
public enum RevealRow {
    /// Direction of a row swipe from the sum of the last `samples` horizontal moves of `xs`,
    /// each clamped to ±`clampPx`: > 0 is `right` (close), otherwise `left` (open) — the seed
    /// opens on a zero sum too. Fewer than two positions gives `none`.
    public static func direction(of xs: [Double], clampPx: Double, samples: Int) -> Decision {
        let n = xs.count
        if n < 2 { return .none }
        var first = n - max(samples, 0)
        if first < 1 { first = 1 }
        var sum = 0.0
        for i in first..<n {
            var m = xs[i] - xs[i - 1]
            if m > clampPx { m = clampPx }
            if m < -clampPx { m = -clampPx }
            sum += m
        }
        return sum > 0 ? .right : .left
    }

    /// Duration of the linear slide, ms: `maxSlideMs` × remaining distance / `travel`, clamped to
    /// [0, `maxSlideMs`]. `offset` is the row's current offset (≤ 0 when opening towards
    /// −`travel`); `opening` selects the target (−`travel` or 0). `travel` ≤ 0 gives 0.
    public static func slideDuration(offset: Double, travel: Double, opening: Bool, maxSlideMs: Double) -> Double {
        if !(travel > 0) { return 0 }
        let remaining = opening ? travel + offset : -offset
        var ms = maxSlideMs * remaining / travel
        if ms > maxSlideMs { ms = maxSlideMs }
        if !(ms > 0) { ms = 0 }
        return ms
    }
}
