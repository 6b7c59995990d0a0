/// Checks a trace against the profile's limits, recomputes the decision, and compares it
/// with the claim. This is the function the server runs on every drag swipe, and
/// `classify` in `physics.js` performs the same steps in the same order.
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
    let scalars = [tr.w, tr.h, tr.vw, tr.vh, tr.gx, tr.gy, tr.ox ?? 0, tr.oy ?? 0]
    for v in scalars where !v.isFinite { throw .malformed }
    for i in 0..<n where !(tr.t[i].isFinite && tr.x[i].isFinite && tr.y[i].isFinite) { throw .malformed }

    if !(tr.w >= limits.minCardSize && tr.w <= limits.maxCardSize && tr.h >= limits.minCardSize && tr.h <= limits.maxCardSize) {
        throw .sizeOutOfRange
    }
    if !(tr.vw >= limits.minViewport && tr.vw <= limits.maxViewport && tr.vh >= limits.minViewport && tr.vh <= limits.maxViewport) {
        throw .sizeOutOfRange
    }
    if !(tr.gx >= 0 && tr.gx <= tr.w && tr.gy >= 0 && tr.gy <= tr.h) { throw .sizeOutOfRange }

    if n < limits.minSamples || n == 0 { throw .tooFewSamples }
    if n > limits.maxSamples { throw .tooLong }
    if tr.t[0] < 0 { throw .nonMonotonicTime }
    for i in 1..<n where !(tr.t[i] > tr.t[i - 1]) { throw .nonMonotonicTime }
    if tr.t[n - 1] - tr.t[0] < limits.minDurationMs { throw .tooShort }
    if tr.t[n - 1] > limits.maxDurationMs { throw .tooLong }

    // Squared distances against squared reach: no square root needed, and no rounding to mirror.
    let s = limits.maxSpeed
    var pt = 0.0, px = 0.0, py = 0.0
    for i in 0..<n {
        let dx = tr.x[i] - px, dy = tr.y[i] - py
        let reach = s * (tr.t[i] - pt) + limits.pointerSlopPx
        if dx * dx + dy * dy > reach * reach { throw .impossibleSpeed }
        pt = tr.t[i]
        px = tr.x[i]
        py = tr.y[i]
    }
}

/// The model's decision on a trace that passed `checkTrace` (release velocity, the profile's
/// throw rule, progress and the suspect flag). Arithmetic only: + − × ÷, `sqrt`, comparisons.
public func judge(_ tr: Trace, profile p: SwipeProfile) -> Verdict {
    let n = tr.t.count
    let v = Velocity.release(of: tr, windowMs: p.velocityWindowMs)
    let dx = n > 0 ? tr.x[n - 1] : 0
    let dy = n > 0 ? tr.y[n - 1] : 0
    let ox = tr.ox ?? ((tr.vw - tr.w) / 2 + tr.gx)
    let state = DragState.of(dx: dx, dy: dy, w: tr.w, h: tr.h, vw: tr.vw, vh: tr.vh, ox: ox, profile: p)
    var decision = Decision.none

    switch p.rule {
    case .distanceOrFling:
        if state.candidate != .none {
            let u = state.candidate.unit
            let proj = dx / tr.w * u.x + dy / tr.h * u.y
            let vproj = v.x * u.x + v.y * u.y
            if proj >= p.distanceThreshold || (vproj >= p.flingVelocity && proj >= p.minFlingDistance) {
                decision = state.candidate
            }
        }
    case .classic:
        let rx = DragState.capAtOne(dx / tr.vw)
        let ry = DragState.capAtOne(dy / tr.vh)
        let ary = ry < 0 ? -ry : ry
        if rx < -p.classicXRatio && ary > p.classicYRatio {
            decision = .left
        } else if rx > p.classicXRatio && ary > p.classicYRatio {
            decision = .right
        }
    case .zone:
        if longPressBegan(tr, delayMs: p.pressDelayMs, slopPx: p.pressSlopPx) {
            let px = ox + dx
            if px < p.zoneInsetX {
                decision = .left
            } else if px > tr.vw - p.zoneInsetX {
                decision = .right
            }
        }
    case .koloda:
        if state.candidate != .none {
            let g = state.candidate.target
            var k = (2 * dx / tr.w * g.x + 2 * dy / tr.h * g.y) / (g.x * g.x + g.y * g.y)
            if k < 0 { k = 0 }
            if k > 1 { k = 1 }
            if k >= p.kolodaThreshold { decision = state.candidate }
        }
    case .reveal:
        let travel = dx < 0 ? -dx : dx
        if travel >= p.reveal.minTravelPx {
            decision = RevealRow.direction(of: tr.x, clampPx: p.reveal.moveClampPx, samples: p.reveal.moveSamples)
        }
    case .springList:
        break
    }
    if decision != .none && !p.directions.contains(decision) { decision = .none }
    return Verdict(
        decision: decision, candidate: state.candidate, velocity: v, progress: state.progress,
        suspect: isSuspect(tr, limits: p.limits)
    )
}

/// `zone`: true when the trace outlasted the press delay without moving more than the slop
/// before it (the long press recognised, so the drag began).
func longPressBegan(_ tr: Trace, delayMs: Double, slopPx: Double) -> Bool {
    let n = tr.t.count
    if n == 0 || tr.t[n - 1] < delayMs { return false }
    let slop2 = slopPx * slopPx
    var i = 0
    while i < n && tr.t[i] < delayMs {
        if tr.x[i] * tr.x[i] + tr.y[i] * tr.y[i] > slop2 { return false }
        i += 1
    }
    return true
}
