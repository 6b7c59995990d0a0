/// Every number the gesture model uses, as data. The page embeds a profile as JSON and
/// `physics.js` reads every constant from it; the server re-runs the same model on each trace.
///
/// Units: CSS px, ms, px/ms, radians. Defaults below are the `standard` profile's; the
/// seed profiles (`SwipeProfile+Presets.swift`) override what their seeds specify.
/// Fields a rule does not use are still present so the JSON shape is the same for every profile.
public struct SwipeProfile: Sendable, Hashable, Codable {
    /// Unique name, also the URL segment of `GET /api/v1/profiles/{name}`.
    public var name: String
    /// One-line description for people choosing a profile.
    public var summary: String
    /// Which throw-out rule applies on release.
    public var rule: DecisionRule
    /// Enabled directions, in tie-break order. Default `[left, right]`.
    public var directions: [Decision]

    // MARK: Decision

    /// Release-velocity window, ms before the last sample. Default 100 (DESIGN).
    public var velocityWindowMs: Double
    /// `distanceOrFling`: displacement / card size (per axis) that throws, unitless. Default 0.35 (DESIGN).
    public var distanceThreshold: Double
    /// `distanceOrFling`: release speed along the direction that throws, px/ms. Default 0.5 (DESIGN).
    public var flingVelocity: Double
    /// `distanceOrFling`: least displacement / card size for a fling, unitless. Default 0.08 (DESIGN).
    public var minFlingDistance: Double
    /// `classic`: |x| / viewport width beyond which a release throws, unitless. 0.4 (DESIGN; seed 000's
    /// `swipeXPosLimitRatio`, whose value the article does not print).
    public var classicXRatio: Double
    /// `zone`: press time before the drag starts, ms. 50 (seed 000 `minimumPressDuration = 0.05`).
    public var pressDelayMs: Double
    /// `zone`: movement allowed during the press, CSS px. 0.5 (seed 000 `allowableMovement`).
    public var pressSlopPx: Double
    /// `zone`: inner zone inset from left and right viewport edges, CSS px. 75 (seed 000 `minX`).
    public var zoneInsetX: Double
    /// `koloda`: fraction of the way to the target point that throws, unitless. 0.6 (seed 002).
    public var kolodaThreshold: Double

    /// Pointer travel before a press becomes a drag, CSS px; less is a tap (links and buttons on
    /// the card keep working). Default 6 (ours; about a finger's jitter on a phone).
    public var tapSlopPx: Double

    // MARK: Motion

    /// Largest rotation while dragging, radians. Default π/10 (seeds 000 and 002).
    public var maxRotation: Double
    /// Rotation is `maxRotation` × x / (card width when false, viewport width when true), clamped to ±1.
    /// Default false; `classic` uses the viewport (seed 000 `x / screen width`).
    public var rotationByViewport: Bool
    /// Rotate about the grab point and flip the sign when grabbed in the lower half.
    /// Default true (seed 002 anchor point); `classic` rotates about the centre.
    public var rotateAboutGrabPoint: Bool
    /// Overlay (LIKE/NOPE) opacity is 0 at this fraction of the threshold. Default 0.25 (DESIGN).
    public var overlayStart: Double
    /// Overlay opacity is 1 at this fraction of the threshold. Default 1.0 (DESIGN).
    public var overlayFull: Double
    /// Spring that brings a released card back. Default 260 ms response (DESIGN "0.26 s return"), ζ 0.68
    /// (seed 000 `usingSpringWithDamping: 0.68`).
    public var returnSpring: SpringParameters
    /// How a thrown card leaves.
    public var throwStyle: ThrowStyle
    /// Exit distance, multiples of viewport width. Default 1.6 (seed 000 `width * 1.6`).
    public var exitDistanceFactor: Double
    /// Shortest throw-out, ms. Default 180 (ours: below that the card seems to vanish).
    public var throwMinMs: Double
    /// Longest throw-out, ms. Default 480 (DESIGN; seed 000's `durationOfSwipeOut`, value not printed).
    public var throwMaxMs: Double
    /// New cards enter from a random off-screen point, ms; 0 = they appear in place.
    /// Default 0; `classic` 930 (DESIGN; seed 000's `durationOfInitialize`, value not printed).
    public var enterMs: Double
    /// How far a pressed control (like, pass, undo) shrinks, and the count pill when the count
    /// changes: scale at the bottom of the press, unitless. Default 0.88 (ours: seed 001's "UIButton
    /// and UILabel with a twist" is its own implementation and prints no value).
    public var pressScale: Double
    /// Spring that brings a pressed control or the changed count back to scale 1, driven in CSS px
    /// at the element's edge (so `settleTime`'s half-pixel rest applies). Default 300 ms response,
    /// ζ 0.45 (ours: one visible overshoot, settled in about half a second).
    public var pressSpring: SpringParameters
    /// Stack layout.
    public var stack: StackParameters
    /// List row reveal (seed 004).
    public var reveal: RevealParameters
    /// Spring list (seed 003).
    public var springList: SpringListParameters
    /// Bounds on submitted traces.
    public var limits: ValidationLimits

    public init(
        name: String,
        summary: String,
        rule: DecisionRule = .distanceOrFling,
        directions: [Decision] = [.left, .right],
        velocityWindowMs: Double = 100,
        distanceThreshold: Double = 0.35,
        flingVelocity: Double = 0.5,
        minFlingDistance: Double = 0.08,
        classicXRatio: Double = 0.4,
        pressDelayMs: Double = 50,
        pressSlopPx: Double = 0.5,
        zoneInsetX: Double = 75,
        kolodaThreshold: Double = 0.6,
        tapSlopPx: Double = 6,
        maxRotation: Double = Double.pi / 10,
        rotationByViewport: Bool = false,
        rotateAboutGrabPoint: Bool = true,
        overlayStart: Double = 0.25,
        overlayFull: Double = 1.0,
        returnSpring: SpringParameters = SpringParameters(responseMs: 260, dampingRatio: 0.68),
        throwStyle: ThrowStyle = .alongRelease,
        exitDistanceFactor: Double = 1.6,
        throwMinMs: Double = 180,
        throwMaxMs: Double = 480,
        enterMs: Double = 0,
        pressScale: Double = 0.88,
        pressSpring: SpringParameters = SpringParameters(responseMs: 300, dampingRatio: 0.45),
        stack: StackParameters = StackParameters(),
        reveal: RevealParameters = RevealParameters(),
        springList: SpringListParameters = SpringListParameters(),
        limits: ValidationLimits = ValidationLimits()
    ) {
        self.name = name
        self.summary = summary
        self.rule = rule
        self.directions = directions
        self.velocityWindowMs = velocityWindowMs
        self.distanceThreshold = distanceThreshold
        self.flingVelocity = flingVelocity
        self.minFlingDistance = minFlingDistance
        self.classicXRatio = classicXRatio
        self.pressDelayMs = pressDelayMs
        self.pressSlopPx = pressSlopPx
        self.zoneInsetX = zoneInsetX
        self.kolodaThreshold = kolodaThreshold
        self.tapSlopPx = tapSlopPx
        self.maxRotation = maxRotation
        self.rotationByViewport = rotationByViewport
        self.rotateAboutGrabPoint = rotateAboutGrabPoint
        self.overlayStart = overlayStart
        self.overlayFull = overlayFull
        self.returnSpring = returnSpring
        self.throwStyle = throwStyle
        self.exitDistanceFactor = exitDistanceFactor
        self.throwMinMs = throwMinMs
        self.throwMaxMs = throwMaxMs
        self.enterMs = enterMs
        self.pressScale = pressScale
        self.pressSpring = pressSpring
        self.stack = stack
        self.reveal = reveal
        self.springList = springList
        self.limits = limits
    }
}
