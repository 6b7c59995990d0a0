/// Where a drag stands at one instant: the direction it leans towards and how far along the
/// profile's threshold it is. Used live for overlays and at release for the decision.
public struct DragState: Sendable, Hashable {
    /// Direction with the largest projection (or the rule's candidate); `none` for rules that
    /// never throw.
    public var candidate: Decision
    /// Fraction of the throw threshold reached along `candidate`, ≥ 0 (1 = at the threshold).
    public var progress: Double

    public init(candidate: Decision, progress: Double) {
        self.candidate = candidate
        self.progress = progress
    }

    /// The drag state of a pointer offset (`dx`, `dy`) for a card `w`×`h` in a viewport `vw`×`vh`.
    /// Pure arithmetic (+ − × ÷ and comparisons), mirrored by `DragState.of` in `physics.js`.
    public static func of(
        dx: Double, dy: Double, w: Double, h: Double, vw: Double, vh: Double, ox: Double, profile p: SwipeProfile
    ) -> DragState {
        switch p.rule {
        case .distanceOrFling:
            let nx = dx / w
            let ny = dy / h
            var best = Decision.none
            var bestProj = -Double.infinity
            for d in p.directions {
                let u = d.unit
                let proj = nx * u.x + ny * u.y
                if proj > bestProj {
                    best = d
                    bestProj = proj
                }
            }
            if best == .none { return DragState(candidate: .none, progress: 0) }
            let prog = bestProj / p.distanceThreshold
            return DragState(candidate: best, progress: prog > 0 ? prog : 0)
        case .classic:
            let rx = Self.capAtOne(dx / vw)
            let prog = (rx < 0 ? -rx : rx) / p.classicXRatio
            return DragState(candidate: rx < 0 ? .left : .right, progress: prog)
        case .zone:
            let px = ox + dx
            if dx < 0 {
                let room = ox - p.zoneInsetX
                return DragState(candidate: .left, progress: room > 0 ? (ox - px) / room : 1)
            }
            let room = vw - p.zoneInsetX - ox
            return DragState(candidate: .right, progress: room > 0 ? (px - ox) / room : 1)
        case .koloda:
            let px = 2 * dx / w
            let py = 2 * dy / h
            var best = Decision.none
            var bestDist = Double.infinity
            for d in p.directions {
                let g = d.target
                let ex = px - g.x
                let ey = py - g.y
                let dist = ex * ex + ey * ey
                if dist < bestDist {
                    best = d
                    bestDist = dist
                }
            }
            if best == .none { return DragState(candidate: .none, progress: 0) }
            let g = best.target
            var k = (px * g.x + py * g.y) / (g.x * g.x + g.y * g.y)
            if k < 0 { k = 0 }
            if k > 1 { k = 1 }
            return DragState(candidate: best, progress: k / p.kolodaThreshold)
        case .reveal:
            let prog = (dx < 0 ? -dx : dx) / (w * p.reveal.actionFraction)
            return DragState(candidate: dx < 0 ? .left : .right, progress: prog)
        case .springList:
            return DragState(candidate: .none, progress: 0)
        }
    }

    /// The seed's `min(value, 1)`: capped above only, as in seed 000.
    static func capAtOne(_ v: Double) -> Double { v < 1 ? v : 1 }
}
