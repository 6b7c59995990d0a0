/// Bounds a submitted trace must respect before its decision is even computed.
/// Exceeding one is a typed `SwipeRejection` (HTTP 422 with the rule's code).
public struct ValidationLimits: Sendable, Hashable, Codable {
    /// Fewest samples, count. Default 3 (ours, measured): the pointerdown point and two moves, what
    /// every flick the deck page threw had in `scripts/measure_traces.py` (600 flicks through
    /// Chromium's input pipeline, touch at 390×844 and mouse at 1280×800, 60–1000 Hz, strokes of
    /// 25 ms and up peaking at 2–10 px/ms, half of them with bursts: fewest 3, at 60 Hz touch; mouse
    /// 5). The page records a move per event past its dead zone, and a stroke that lasts past one
    /// frame yields two; fewer means the whole drag fit in a single 60 Hz frame (16.7 ms).
    public var minSamples: Int
    /// Most samples, count. Default 1200 (ours): a drag of `maxDurationMs` at 120 Hz, or 5 s of
    /// continuous movement at 240 Hz (browsers send pointer moves once per display frame; the longest
    /// measured flick had 229 samples from a 1000 Hz mouse whose every move reached the page). A trace
    /// of 1200 samples stores at most 31,593 bytes (`TraceCodec`; 28,884 for one of incompressible
    /// numbers), half the 2048-sample cap before.
    public var maxSamples: Int
    /// Shortest gesture, ms from first to last sample. Default 16 (ours, measured): the shortest flicks
    /// the page threw in `scripts/measure_traces.py` (its fastest strokes, 25 ms) lasted 25.0 ms;
    /// 16 ms, about one 60 Hz frame, leaves a third of that as margin.
    public var minDurationMs: Double
    /// Longest gesture, ms since pointerdown. Default 10,000 (ours): a swipe takes well under a second
    /// (the longest measured flick 271 ms); 10 s leaves room for a long hesitation mid-drag.
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
    /// Distance a pointer may move beyond `maxSpeed` × the span the speed rule judges, CSS px
    /// (sub-pixel rounding and coalesced events). Default 2.
    public var pointerSlopPx: Double

    public init(
        minSamples: Int = 3, maxSamples: Int = 1200, minDurationMs: Double = 16, maxDurationMs: Double = 10_000,
        maxSpeed: Double = 20, speedWindowMs: Double = 24, minCardSize: Double = 16, maxCardSize: Double = 4096,
        minViewport: Double = 100, maxViewport: Double = 16384, suspectMinSamples: Int = 5,
        suspectIntervalTolerance: Double = 0.02, suspectSpeedTolerance: Double = 0.02,
        suspectLineTolerancePx: Double = 0.5,
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
