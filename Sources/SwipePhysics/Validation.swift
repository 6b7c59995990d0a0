/// Checks a trace against the profile's limits, recomputes the decision, and compares it
/// with the claim. This is the function the server runs on every drag swipe, and
/// `Classification.of` in `physics.js` performs the same steps in the same order.
///
/// - Parameters:
///   - claimed: the direction the client says the card went; `nil` skips the comparison
///     (used by `swipedeck classify` lines without a claim). `.none` claims a spring-back.
/// - Throws: the first broken rule, in `SwipeRejection` declaration order.
/// - Returns: the verdict of a valid trace.
public func validate(_ trace: Trace, claimed: Decision?, profile: SwipeProfile) throws(SwipeRejection) -> Verdict {
    try checkTrace(trace, limits: profile.limits)
    let verdict = judge(trace, profile: profile)
    if let claimed {
        if claimed != verdict.decision {
            throw verdict.decision == .none ? .notAThrow : .decisionMismatch
        }
    }
    return verdict
}

/// The trace-shape rules of `validate`, without any decision.
public func checkTrace(_ tr: Trace, limits: ValidationLimits) throws(SwipeRejection) {
    let n = tr.t.count
    if tr.x.count != n || tr.y.count != n { throw .malformed }
    // The eight scalars (`ox`, `oy` count as 0 when absent), checked without building an array.
    if !(tr.w.isFinite && tr.h.isFinite && tr.vw.isFinite && tr.vh.isFinite && tr.gx.isFinite && tr.gy.isFinite
        && (tr.ox ?? 0).isFinite && (tr.oy ?? 0).isFinite)
    {
        throw .malformed
    }
    // One branch-free pass over the samples tells whether they are finite and their times increase;
    // the rules are still applied one after another in their fixed order.
    let pass = SamplePass(tr)
    if !pass.finite { throw .malformed }

    if !(tr.w >= limits.minCardSize && tr.w <= limits.maxCardSize && tr.h >= limits.minCardSize
        && tr.h <= limits.maxCardSize)
    {
        throw .sizeOutOfRange
    }
    if !(tr.vw >= limits.minViewport && tr.vw <= limits.maxViewport && tr.vh >= limits.minViewport
        && tr.vh <= limits.maxViewport)
    {
        throw .sizeOutOfRange
    }
    if !(tr.gx >= 0 && tr.gx <= tr.w && tr.gy >= 0 && tr.gy <= tr.h) { throw .sizeOutOfRange }

    if n < limits.minSamples || n == 0 { throw .tooFewSamples }
    if n > limits.maxSamples { throw .tooLong }
    if tr.t[0] < 0 { throw .nonMonotonicTime }
    if !pass.increasing { throw .nonMonotonicTime }
    if tr.t[n - 1] - tr.t[0] < limits.minDurationMs { throw .tooShort }
    if tr.t[n - 1] > limits.maxDurationMs { throw .tooLong }
    if hasImpossibleSpeed(tr, limits: limits) { throw .impossibleSpeed }
}

/// The per-sample facts `checkTrace` needs before the speed rule, from a single pass over `t`,
/// `x`, `y` (which the caller has checked are the same length).
struct SamplePass {
    /// Every `t[i]`, `x[i]`, `y[i]` is finite. When false, `increasing` is meaningless.
    var finite: Bool
    /// `t[i] > t[i − 1]` for every i ≥ 1.
    var increasing: Bool

    @inline(__always)
    init(_ tr: Trace) {
        // Flags are OR-ed as integers with no early exit, so the loop has no branches and the
        // compiler can vectorise it.
        var nonFinite = 0
        var notIncreasing = 0
        tr.t.withUnsafeBufferPointer { t in
            tr.x.withUnsafeBufferPointer { x in
                tr.y.withUnsafeBufferPointer { y in
                    let n = t.count
                    precondition(x.count == n && y.count == n)
                    if n == 0 { return }
                    // Not finite (NaN or ±infinity) ⇔ all exponent bits set.
                    let e: UInt64 = 0x7FF0_0000_0000_0000
                    nonFinite =
                        (t[0].bitPattern & e == e ? 1 : 0) | (x[0].bitPattern & e == e ? 1 : 0)
                        | (y[0].bitPattern & e == e ? 1 : 0)
                    for i in 1..<n {
                        let ti = t[i]
                        let xi = x[i]
                        let yi = y[i]
                        nonFinite |=
                            (ti.bitPattern & e == e ? 1 : 0) | (xi.bitPattern & e == e ? 1 : 0)
                            | (yi.bitPattern & e == e ? 1 : 0)
                        notIncreasing |= ti > t[i - 1] ? 0 : 1
                    }
                }
            }
        }
        finite = nonFinite == 0
        increasing = notIncreasing == 0
    }
}

/// The speed rule, judged over a window so that timestamp jitter and bursts pass: a sample may be
/// no further from its anchor than `maxSpeed` × max(the time between them, `speedWindowMs`) +
/// `pointerSlopPx`. A sample's anchor is the latest earlier sample at least `speedWindowMs`
/// before it, else the pointerdown point (0, 0) at t = 0.
///
/// Browsers under load stamp a burst of pointer moves as they arrive, 0.1–0.8 ms apart though the
/// hand moved for a frame between them (8–37 px apart in Chromium's own pipeline under CPU load; up
/// to 149 px at 10 px/ms in `scripts/measure_traces.py`): judged pair by pair, that is tens to
/// hundreds of px/ms. Over the window a stamping lag L at hand speed v is tolerated while
/// v × (span + L) ≤ `maxSpeed` × span, span ≥ `speedWindowMs`: a whole 60 Hz frame of lag at the
/// fastest flicks (10 px/ms), more at ordinary speeds. A teleport still shows: no more than
/// `maxSpeed` × `speedWindowMs` + `pointerSlopPx` in any window, `maxSpeed` on average over longer
/// spans. Squared distances against squared reach: no square root, no rounding to mirror.
///
/// Expects finite, strictly increasing times (`checkTrace` applies it last); mirrored by
/// `hasImpossibleSpeed` in `physics.js`, same operations in the same order.
func hasImpossibleSpeed(_ tr: Trace, limits: ValidationLimits) -> Bool {
    let n = tr.t.count
    let windowMs = limits.speedWindowMs
    var anchor = -1
    var anchorT = 0.0
    var anchorX = 0.0
    var anchorY = 0.0
    for i in 0..<n {
        let ti = tr.t[i]
        while anchor + 1 < i && tr.t[anchor + 1] <= ti - windowMs {
            anchor += 1
            anchorT = tr.t[anchor]
            anchorX = tr.x[anchor]
            anchorY = tr.y[anchor]
        }
        let span = ti - anchorT
        let reach = limits.maxSpeed * (span > windowMs ? span : windowMs) + limits.pointerSlopPx
        let dx = tr.x[i] - anchorX
        let dy = tr.y[i] - anchorY
        if dx * dx + dy * dy > reach * reach { return true }
    }
    return false
}
