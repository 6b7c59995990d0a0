/// When a decision came faster than a person can make one. Such swipes are stored with
/// `suspect = 1` and a reason, and left out of the results like machine-like traces. The rules
/// hold for every input kind — a drag is paced like a button — and are named by the kind.
///
/// Two rules, on the server's clock (a client's own timings can be forged, arrival times cannot):
/// - `button_burst` / `drag_burst`: this decision and the participant's two before it in the deck
///   (any input) fall within `burstWindowSeconds`. Three cards in 0.6 s leaves 0.3 s per card:
///   less than a choice reaction (≈ 0.25 s) plus the stack's own advance animation for a button,
///   and less than a reaction plus the shortest human drag (`ValidationLimits.minDurationMs`) plus
///   the throw for a drag. One accidental double tap (two swipes) is not enough to flag anybody.
/// - `button_before_read` / `drag_before_read`: the decision came less than `readingSeconds`
///   after the participant's credential was minted (the page that showed the first card had
///   just been served): nobody reads a card and acts on it in 0.3 s.
public enum HumanPace {
    /// Window for three decisions of one participant, seconds. Default 0.6.
    public static let burstWindowSeconds = 0.6
    /// Shortest time from minting (first page view) to a first decision, seconds. Default 0.3.
    public static let readingSeconds = 0.3

    /// The suspect reason for a swipe at `now`, or nil when the pace is human.
    ///
    /// - Parameters:
    ///   - input: the swipe's input; `button` and `key` name the
    ///     reasons `button_…`, any other input `drag_…`.
    ///   - now: the swipe's arrival, seconds since 1970.
    ///   - mintedAt: when the participant's credential was minted, if it says so.
    ///   - previous: the participant's latest decisions in this deck, newest first (at most two read).
    public static func suspectReason(input: SwipeInput, now: Double, mintedAt: Double?, previous: [Double])
        -> SuspectReason?
    {
        let button = input == .button || input == .key
        if previous.count >= 2 && now - previous[1] < burstWindowSeconds { return button ? .buttonBurst : .dragBurst }
        if let mintedAt, now - mintedAt < readingSeconds { return button ? .buttonBeforeRead : .dragBeforeRead }
        return nil
    }
}
