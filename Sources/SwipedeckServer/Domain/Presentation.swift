/// A deck on a big screen (`/d/{deck}/present`): the short code people type at `/j` to reach it,
/// and whether the screen shows the results or the counts only. A deck has one, made the first
/// time its owner opens the presenter page, and keeps its code from then on (a code on a printed
/// slide must keep working).
public struct Presentation: Sendable, Hashable {
    public var deckId: Int64
    /// The join code: `RoomCode`'s alphabet and length, in a namespace of its own (`/j/{code}`).
    public var joinCode: String
    /// The screen shows the results (the chart per card), not only how many joined and decided.
    /// Hidden by default: early votes shown to a room sway the rest.
    public var revealed: Bool
    /// When a reveal timer the presenter set runs out (the results show from then on, as if
    /// revealed); nil without a timer. Revealing or hiding clears it.
    public var revealAt: Double?
    public var createdAt: Double
    /// When the presenter last revealed or hid the results (or the presentation was made).
    public var updatedAt: Double

    public init(
        deckId: Int64, joinCode: String, revealed: Bool, revealAt: Double? = nil, createdAt: Double, updatedAt: Double
    ) {
        self.deckId = deckId
        self.joinCode = joinCode
        self.revealed = revealed
        self.revealAt = revealAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether the results show at `now`: revealed, or a reveal timer that has run out.
    public func isRevealed(at now: Double) -> Bool {
        revealed || (revealAt.map { now >= $0 } ?? false)
    }

    /// The reveal timers a presenter picks from, in seconds (the presenter page offers these).
    public static let revealTimers = [15, 30, 60, 120, 300]
}

/// The state a presented deck is in, as every screen and phone shows it: whether it takes votes,
/// whether its results show, and how long until a reveal timer shows them. The one rule both the
/// big screen (`/d/{deck}/present/state`) and the phones' stream (`/d/{deck}/stage`) answer with.
public struct DeckStage: Sendable, Equatable, Codable {
    /// The deck takes decisions (not locked or closed).
    public var open: Bool
    /// The results show: on the big screen, and to every phone as "you and the room".
    public var revealed: Bool
    /// Whole seconds (rounded up) until a reveal timer shows the results; nil without a running timer.
    public var revealIn: Int?

    public init(open: Bool, revealed: Bool, revealIn: Int?) {
        self.open = open
        self.revealed = revealed
        self.revealIn = revealIn
    }

    /// The stage of a deck that is `open` or not, with `presentation` (nil: never presented, so
    /// hidden), at `now`.
    public static func of(open: Bool, presentation: Presentation?, now: Double) -> DeckStage {
        let revealed = presentation?.isRevealed(at: now) ?? false
        var revealIn: Int?
        if !revealed, let at = presentation?.revealAt {
            revealIn = Int((at - now).rounded(.up))
        }
        return DeckStage(open: open, revealed: revealed, revealIn: revealIn)
    }
}
