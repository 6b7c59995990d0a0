import GRDB

extension AppDatabase {
    /// See `JoinPuzzleStore.claimPuzzle`: one insert; one claim in about a thousand sweeps the
    /// expired rows in the same transaction.
    public func claimPuzzle(salt: String, expiresAt: Double, now: Double) async throws -> Bool {
        let sweep = Int.random(in: 0..<1000) == 0
        return try await writer.write { db in
            if sweep { try db.execute(sql: "DELETE FROM solvedPuzzles WHERE expiresAt < ?", arguments: [now]) }
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO solvedPuzzles (salt, expiresAt) VALUES (?, ?)")
                .execute(arguments: [salt, expiresAt])
            return db.changesCount == 1
        }
    }
}
