/// Why a trace was refused. The raw value is the API error code (HTTP 422) and the
/// `rejection` field of `swipedeck classify`; `physics.js` returns the same strings.
///
/// The first broken rule wins, on both sides, checked in this order: malformed, size_out_of_range,
/// too_few_samples, too_long (sample count), non_monotonic_time, too_short, too_long (duration),
/// impossible_speed, then the claim (decision_mismatch / not_a_throw).
public enum SwipeRejection: String, Error, Sendable, Hashable, Codable, CaseIterable {
    /// A number is NaN or infinite, or `t`, `x`, `y` differ in length.
    case malformed
    /// Card or viewport size outside the profile's limits, or the grab point outside the card.
    case sizeOutOfRange = "size_out_of_range"
    /// Fewer samples than `limits.minSamples`.
    case tooFewSamples = "too_few_samples"
    /// More samples than `limits.maxSamples`, or the last sample later than `limits.maxDurationMs`.
    case tooLong = "too_long"
    /// `t[0] < 0`, or a time that does not strictly increase.
    case nonMonotonicTime = "non_monotonic_time"
    /// First to last sample shorter than `limits.minDurationMs`.
    case tooShort = "too_short"
    /// A sample further from its anchor than `limits.maxSpeed` allows over at least
    /// `limits.speedWindowMs` (a teleport; see `hasImpossibleSpeed`).
    case impossibleSpeed = "impossible_speed"
    /// The trace throws, but not in the claimed direction (or the claim was `none`).
    case decisionMismatch = "decision_mismatch"
    /// A direction was claimed but the trace springs back.
    case notAThrow = "not_a_throw"

    /// One sentence for people, naming the rule.
    public var message: String {
        switch self {
        case .malformed: return "The trace has a NaN or infinite number, or arrays of different lengths."
        case .sizeOutOfRange: return "Card or viewport size is out of range, or the grab point is outside the card."
        case .tooFewSamples: return "The trace has too few samples to judge."
        case .tooLong: return "The trace has too many samples or lasts too long."
        case .nonMonotonicTime: return "Sample times must start at or after 0 and strictly increase."
        case .tooShort: return "The gesture is too short to be a swipe."
        case .impossibleSpeed: return "The pointer moves faster than a hand can."
        case .decisionMismatch: return "The trace does not throw the card in the claimed direction."
        case .notAThrow: return "The trace springs back; it does not throw the card."
        }
    }
}
