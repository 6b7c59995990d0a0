/// The spring list of seed 003 (a `UICollectionViewFlowLayout` with `UIAttachmentBehavior`s).
public struct SpringListParameters: Sendable, Hashable, Codable {
    /// Attachment spring damping ratio, unitless. Default 1.0 (seed 003 `springDamping`).
    public var damping: Double
    /// Attachment spring frequency, Hz. Default 1.0 (seed 003 `behavior.frequency`).
    public var frequencyHz: Double
    /// Items lag a drag by distance-from-touch / this, unitless. Default 1000 (seed 003
    /// `scrollResistanceFactor`, "500–2000 is reasonable").
    public var scrollResistance: Double
    /// Gaps spread by overscroll / this at the list's ends, unitless. Default 10 (seed 003
    /// `boundaryScrollResistanceFactor`, "about 10 is close to the original").
    public var boundaryResistance: Double

    public init(
        damping: Double = 1.0, frequencyHz: Double = 1.0, scrollResistance: Double = 1000,
        boundaryResistance: Double = 10
    ) {
        self.damping = damping
        self.frequencyHz = frequencyHz
        self.scrollResistance = scrollResistance
        self.boundaryResistance = boundaryResistance
    }

    /// The attachment spring as `SpringParameters`: response = 1000 / frequencyHz ms.
    public var spring: SpringParameters {
        SpringParameters(responseMs: 1000 / frequencyHz, dampingRatio: damping)
    }
}
