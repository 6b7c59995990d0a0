/// The swipe-to-reveal list row of seed 004.
public struct RevealParameters: Sendable, Hashable, Codable {
    /// Each recorded horizontal move is clamped to ±this, CSS px. Default 5 (seed 004).
    public var moveClampPx: Double
    /// How many recent moves are summed to decide the direction. Default 5 (the seed's
    /// `kMIRevealTableViewCellPointsSize` is not printed in the article; 5 is ours).
    public var moveSamples: Int
    /// Longest slide, ms, for a full row width; shorter in proportion to the distance left.
    /// Default 100 (seed 004 "at most 0.1 s", linear). The seed's code says `MAX(duration, 0.1)`,
    /// which contradicts its text; we follow the text.
    public var maxSlideMs: Double
    /// A horizontal travel below this, CSS px, is a tap, not a swipe. Default 8 (ours).
    public var minTravelPx: Double
    /// Width of the revealed action area as a fraction of the row width. Default 0.5 (ours).
    public var actionFraction: Double

    public init(
        moveClampPx: Double = 5, moveSamples: Int = 5, maxSlideMs: Double = 100, minTravelPx: Double = 8,
        actionFraction: Double = 0.5
    ) {
        self.moveClampPx = moveClampPx
        self.moveSamples = moveSamples
        self.maxSlideMs = maxSlideMs
        self.minTravelPx = minTravelPx
        self.actionFraction = actionFraction
    }
}
