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
    public var createdAt: Double
    /// When the presenter last revealed or hid the results (or the presentation was made).
    public var updatedAt: Double

    public init(deckId: Int64, joinCode: String, revealed: Bool, createdAt: Double, updatedAt: Double) {
        self.deckId = deckId
        self.joinCode = joinCode
        self.revealed = revealed
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
