/// How a thrown card leaves the screen.
public enum ThrowStyle: String, Sendable, Hashable, Codable, CaseIterable {
    /// Along the release velocity (or the decided direction when the velocity points elsewhere),
    /// `exitDistanceFactor` × viewport width away, duration from release speed clamped to
    /// [`throwMinMs`, `throwMaxMs`].
    case alongRelease
    /// Seed 000 pan: x to ±`exitDistanceFactor` × viewport width, y taken from the release
    /// velocity expressed in px/s (the seed's `endCenterPosY = velocity.y`), fixed `throwMaxMs`.
    case horizontalVelocityY
    /// Seed 000 long press: x to ±`exitDistanceFactor` × viewport width, y unchanged,
    /// fixed `throwMaxMs`.
    case horizontalKeepY
}
