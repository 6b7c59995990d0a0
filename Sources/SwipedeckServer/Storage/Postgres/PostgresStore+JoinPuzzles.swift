import PostgresNIO

extension PostgresStore {
    /// See `JoinPuzzleStore.claimPuzzle`: one insert (two servers claiming one salt at once: the
    /// primary key lets one in); one claim in about a thousand sweeps the expired rows.
    public func claimPuzzle(salt: String, expiresAt: Double, now: Double) async throws -> Bool {
        let claimed = try await value(
            """
            INSERT INTO solvedPuzzles (salt, expiresAt) VALUES (\(salt), \(expiresAt))
            ON CONFLICT (salt) DO NOTHING RETURNING 1
            """, as: Int32.self)
        if Int.random(in: 0..<1000) == 0 {
            _ = try await client.query("DELETE FROM solvedPuzzles WHERE expiresAt < \(now)", logger: logger)
        }
        return claimed != nil
    }
}
