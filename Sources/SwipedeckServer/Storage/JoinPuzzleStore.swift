/// The replay guard of join puzzles (`JoinPuzzle`), shared by every server on a database (files
/// `+JoinPuzzles`): a solved puzzle earns one credential, once.
public protocol JoinPuzzleStore: Sendable {
    /// Records the puzzle `salt` as used until `expiresAt` (when the puzzle itself expires);
    /// true when this call recorded it, false when it was recorded before (by this server or
    /// another: a primary key decides). Rows of puzzles expired are swept now and then: past its
    /// expiry a puzzle is refused anyway, so they are no record of anything.
    func claimPuzzle(salt: String, expiresAt: Double, now: Double) async throws -> Bool
}
