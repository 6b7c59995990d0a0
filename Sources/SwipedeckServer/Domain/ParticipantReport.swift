/// What the owner sees about one participant of a deck: their live swipes by kind, why any of
/// them is suspect, and whether (and why) the owner excluded them.
public struct ParticipantReport: Sendable, Encodable {
    public var participant: String
    /// Live swipes by `SwipeKind` raw value.
    public var kinds: [String: Int]
    /// Suspect reason (`machine_like_trace`, `button_burst`, `button_before_read`, `drag_burst`, `drag_before_read`) → swipes.
    public var suspectReasons: [String: Int]
    /// Refused swipes by rejection code.
    public var rejections: [String: Int]
    public var excluded: Bool
    /// The owner's reason for the exclusion in force, if any.
    public var exclusionReason: String?
    /// Exclusions and lifts, oldest first (events, never erased).
    public var history: [Event]
    /// Their quality figures (`QualityReport`): filled in by the participant's own report only.
    public var quality: QualityReport.ParticipantQuality? = nil

    public struct Event: Sendable, Encodable {
        public var excludedAt: Double
        public var liftedAt: Double?
        public var reason: String
    }
}
