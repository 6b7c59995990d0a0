/// Card motion during and after a drag: rotation, overlay opacity and throw-out.
/// Pure functions of their inputs; `physics.js` mirrors each one.
public enum Motion {
    /// Rotation of a dragged card, radians (positive = clockwise on screen).
    ///
    /// `maxRotation` × clamp(dx / basis, −1, 1), where basis is the card width, or the viewport
    /// width when `rotationByViewport`. With `rotateAboutGrabPoint`, the sign flips when the card
    /// was grabbed in its lower half (`gy > h / 2`), so the card pivots under the finger.
    public static func rotation(dx: Double, w: Double, h: Double, vw: Double, gy: Double, profile p: SwipeProfile)
        -> Double
    {
        var r = dx / (p.rotationByViewport ? vw : w)
        if r > 1 { r = 1 }
        if r < -1 { r = -1 }
        let sign: Double = (p.rotateAboutGrabPoint && gy > h / 2) ? -1 : 1
        return p.maxRotation * r * sign
    }

    /// Overlay (LIKE / NOPE …) opacity for a drag progress: 0 at `overlayStart`, 1 at
    /// `overlayFull`, linear between, clamped to [0, 1].
    public static func overlayOpacity(progress: Double, profile p: SwipeProfile) -> Double {
        let o = (progress - p.overlayStart) / (p.overlayFull - p.overlayStart)
        if !(o > 0) { return 0 }
        return o < 1 ? o : 1
    }

    /// Where a thrown card goes and how long it takes.
    ///
    /// - Parameters: `dx`, `dy` the card offset at release (px); `velocity` the release velocity
    ///   (px/ms); `decision` the thrown direction (not `none`); `vw` the viewport width (px).
    /// - Returns: the end offset (px, relative to the card's rest position) and the duration (ms).
    public static func throwOut(
        dx: Double, dy: Double, velocity v: Velocity, decision: Decision, vw: Double, profile p: SwipeProfile
    ) -> ThrowOut {
        let distance = p.exitDistanceFactor * vw
        let u = decision.unit
        switch p.throwStyle {
        case .alongRelease:
            let speed = (v.x * v.x + v.y * v.y).squareRoot()
            var ux = u.x
            var uy = u.y
            if speed > 0 && v.x * u.x + v.y * u.y > 0 {
                ux = v.x / speed
                uy = v.y / speed
            }
            var ms = p.throwMaxMs
            if speed > 0 { ms = distance / speed }
            if ms > p.throwMaxMs { ms = p.throwMaxMs }
            if ms < p.throwMinMs { ms = p.throwMinMs }
            return ThrowOut(x: dx + ux * distance, y: dy + uy * distance, durationMs: ms)
        case .horizontalVelocityY:
            return ThrowOut(x: u.x < 0 ? -distance : distance, y: v.y * 1000, durationMs: p.throwMaxMs)
        case .horizontalKeepY:
            return ThrowOut(x: u.x < 0 ? -distance : distance, y: dy, durationMs: p.throwMaxMs)
        }
    }

    /// Start of a card's entrance when `enterMs > 0` (seed 000): an off-screen offset with
    /// x in [−300, 300] px, y in [−600, −300] px, rotation in [−90°, 90°], from three uniform
    /// numbers in [0, 1) that the caller draws (time and randomness are passed in).
    public static func entrance(_ r1: Double, _ r2: Double, _ r3: Double) -> (x: Double, y: Double, rotation: Double) {
        (x: -300 + 600 * r1, y: -300 - 300 * r2, rotation: (-90 + 180 * r3) * Double.pi / 180)
    }
}
