/// Why a stored swipe is suspect (`Swipe.suspectReason`, the `suspectReason` column): the swipe
/// stays stored and is left out of the results. One name per rule that flags it.
public enum SuspectReason: String, Sendable, CaseIterable {
    /// The drag's trace passed the physics but looks generated (`Suspect`, in SwipePhysics).
    case machineLikeTrace = "machine_like_trace"
    /// A button or key decision: three within `HumanPace.burstWindowSeconds`.
    case buttonBurst = "button_burst"
    /// A drag (or API) decision: three within `HumanPace.burstWindowSeconds`.
    case dragBurst = "drag_burst"
    /// A button or key decision sooner than `HumanPace.readingSeconds` after minting.
    case buttonBeforeRead = "button_before_read"
    /// A drag (or API) decision sooner than `HumanPace.readingSeconds` after minting.
    case dragBeforeRead = "drag_before_read"
}
