/// The model's decision on a trace that passed `checkTrace` (release velocity, the profile's
/// throw rule, progress and the suspect flag). Arithmetic only: + − × ÷, `sqrt`, comparisons.
/// Mirrored by `judge` in `physics.js`, the same operations in the same order.
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
        // Vertical movement does not matter: seed 000 also asked |y| / height > 0.02, so a clean
        // horizontal drag sprang back and swipers thought the app broken (issue 26).
        let rx = DragState.capAtOne(dx / tr.vw)
        if rx < -p.classicXRatio {
            decision = .left
        } else if rx > p.classicXRatio {
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
