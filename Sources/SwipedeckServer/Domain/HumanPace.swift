/// When a button or key swipe came faster than a person can act. Such swipes are stored with
/// `suspect = 1` and a reason, and left out of the results like machine-like traces.
///
/// Two rules, on the server's clock (a client's own timings can be forged, arrival times cannot):
/// - `button_burst`: this decision and the participant's two before it in the deck (any input)
///   fall within `burstWindowSeconds`. Three cards in 0.6 s leaves 0.3 s per card, less than a
///   choice reaction plus the stack's own advance animation; one accidental double tap (two
///   swipes) is not enough to flag anybody.
/// - `button_before_read`: the decision came less than `readingSeconds` after the participant
///   was minted (the page that showed the first card had just been served): nobody reads a
///   card, reaches for a button and presses it in 0.3 s.
public enum HumanPace {
    /// Window for three decisions of one participant, seconds. Default 0.6.
    public static let burstWindowSeconds = 0.6
    /// Shortest time from minting (first page view) to a first button decision, seconds. Default 0.3.
    public static let readingSeconds = 0.3

    /// The suspect reason for a button/key swipe at `now`, or nil when the pace is human.
    ///
    /// - Parameters:
    ///   - now: the swipe's arrival, seconds since 1970.
    ///   - mintedAt: when the participant id was minted, if the id says so.
    ///   - previous: the participant's latest decisions in this deck, newest first (at most two read).
    public static func suspectReason(now: Double, mintedAt: Double?, previous: [Double]) -> String? {
        if previous.count >= 2 && now - previous[1] < burstWindowSeconds { return "button_burst" }
        if let mintedAt, now - mintedAt < readingSeconds { return "button_before_read" }
        return nil
    }
}
