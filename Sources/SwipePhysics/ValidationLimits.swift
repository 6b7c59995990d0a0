/// Bounds a submitted trace must respect before its decision is even computed.
/// Exceeding one is a typed `SwipeRejection` (HTTP 422 with the rule's code).
public struct ValidationLimits: Sendable, Hashable, Codable {
    /// Fewest samples, count. Default 2 (a velocity needs two points).
    public var minSamples: Int
    /// Most samples, count. Default 2048 (10 s at 200 Hz).
    public var maxSamples: Int
    /// Shortest gesture, ms from first to last sample. Default 8 (one frame at 120 Hz).
    public var minDurationMs: Double
    /// Longest gesture, ms since pointerdown. Default 30,000.
    public var maxDurationMs: Double
    /// Fastest movement, px/ms, judged over `speedWindowMs` (see `hasImpossibleSpeed`).
    /// Default 20 (20,000 px/s; fast human flicks peak near 10).
    public var maxSpeed: Double
    /// Shortest span the speed rule judges, ms: a sample is measured from the latest sample at least
    /// this much earlier (else from the pointerdown point), and a shorter span counts as this long.
    /// Default 24 (ours: one and a half 60 Hz frames; a burst stamped a whole frame late passes at
    /// the fastest flicks, see `hasImpossibleSpeed`).
    public var speedWindowMs: Double
    /// Smallest card side, CSS px. Default 16.
    public var minCardSize: Double
    /// Largest card side, CSS px. Default 4096.
    public var maxCardSize: Double
    /// Smallest viewport side, CSS px. Default 100.
    public var minViewport: Double
    /// Largest viewport side, CSS px. Default 16384.
    public var maxViewport: Double
    /// Fewest samples for the machine-likeness test, count. Default 5.
    public var suspectMinSamples: Int
    /// Sample intervals within this fraction of their mean count as constant. Default 0.02.
    public var suspectIntervalTolerance: Double
    /// Segment speeds within this fraction of their mean count as constant. Default 0.02.
    public var suspectSpeedTolerance: Double
    /// Points within this distance of the first-to-last line count as a perfect line, CSS px. Default 0.5.
    public var suspectLineTolerancePx: Double
    /// Distance a pointer may jump between samples regardless of elapsed time, CSS px
    /// (sub-pixel rounding and coalesced events). Default 2.
    public var pointerSlopPx: Double

    public init(
        minSamples: Int = 3, maxSamples: Int = 1200, minDurationMs: Double = 16, maxDurationMs: Double = 10_000,
        maxSpeed: Double = 20, speedWindowMs: Double = 24, minCardSize: Double = 16, maxCardSize: Double = 4096,
        minViewport: Double = 100, maxViewport: Double = 16384, suspectMinSamples: Int = 5,
        suspectIntervalTolerance: Double = 0.02, suspectSpeedTolerance: Double = 0.02, suspectLineTolerancePx: Double = 0.5,
        pointerSlopPx: Double = 2
    ) {
        self.minSamples = minSamples
        self.maxSamples = maxSamples
        self.minDurationMs = minDurationMs
        self.maxDurationMs = maxDurationMs
        self.maxSpeed = maxSpeed
        self.speedWindowMs = speedWindowMs
        self.minCardSize = minCardSize
        self.maxCardSize = maxCardSize
        self.minViewport = minViewport
        self.maxViewport = maxViewport
        self.suspectMinSamples = suspectMinSamples
        self.suspectIntervalTolerance = suspectIntervalTolerance
        self.suspectSpeedTolerance = suspectSpeedTolerance
        self.suspectLineTolerancePx = suspectLineTolerancePx
        self.pointerSlopPx = pointerSlopPx
    }
}
