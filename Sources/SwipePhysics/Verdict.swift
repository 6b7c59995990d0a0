/// The model's judgement of a valid trace.
public struct Verdict: Sendable, Hashable {
    /// What the release does: a direction (thrown) or `none` (springs back).
    public var decision: Decision
    /// The direction the drag leaned towards at release, thrown or not.
    public var candidate: Decision
    /// Release velocity, px/ms.
    public var velocity: Velocity
    /// Fraction of the throw threshold reached at release (see `DragState.progress`).
    public var progress: Double
    /// Physically possible but machine-like: near-constant intervals AND near-constant speed
    /// on a near-perfect line. Stored, not rejected; left out of results by default.
    public var suspect: Bool

    public init(decision: Decision, candidate: Decision, velocity: Velocity, progress: Double, suspect: Bool) {
        self.decision = decision
        self.candidate = candidate
        self.velocity = velocity
        self.progress = progress
        self.suspect = suspect
    }
}
