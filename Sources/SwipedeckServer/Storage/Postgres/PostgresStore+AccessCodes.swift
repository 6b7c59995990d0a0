import PostgresNIO

extension PostgresStore {
    /// See `AccessCodeStore.addAccessCodes`: one statement.
    public func addAccessCodes(deckId: Int64, _ codes: [String], now: Double) async throws {
        if codes.isEmpty { return }
        _ = try await fetch(
            """
            INSERT INTO accessCodes (deckId, code, createdAt)
            SELECT \(deckId), c, \(now) FROM unnest(\(codes)::text[]) AS c
            ON CONFLICT DO NOTHING RETURNING 1
            """
        ) { _ in 1 }
    }

    /// See `AccessCodeStore.accessCodes`.
    public func accessCodes(deckId: Int64) async throws -> [String] {
        try await fetch("SELECT code FROM accessCodes WHERE deckId = \(deckId) ORDER BY createdAt, code") {
            try $0.next(String.self)
        }
    }

    /// See `AccessCodeStore.hasAccessCode`: one primary-key lookup.
    public func hasAccessCode(deckId: Int64, code: String) async throws -> Bool {
        try await value("SELECT 1 FROM accessCodes WHERE deckId = \(deckId) AND code = \(code)", as: Int.self) != nil
    }
}
