import GRDB

extension AppDatabase {
    /// See `AccessCodeStore.addAccessCodes`: one transaction.
    public func addAccessCodes(deckId: Int64, _ codes: [String], now: Double) async throws {
        try await writer.write { db in
            let insert = try db.cachedStatement(
                sql: "INSERT OR IGNORE INTO accessCodes (deckId, code, createdAt) VALUES (?, ?, ?)")
            for code in codes { try insert.execute(arguments: [deckId, code, now]) }
        }
    }

    /// See `AccessCodeStore.accessCodes`.
    public func accessCodes(deckId: Int64) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT code FROM accessCodes WHERE deckId = ? ORDER BY createdAt, code", arguments: [deckId])
        }
    }

    /// See `AccessCodeStore.hasAccessCode`: one primary-key lookup.
    public func hasAccessCode(deckId: Int64, code: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM accessCodes WHERE deckId = ? AND code = ?"),
                arguments: [deckId, code]) ?? false
        }
    }
}
