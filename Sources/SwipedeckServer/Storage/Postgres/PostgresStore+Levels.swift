import PostgresNIO

extension PostgresStore {
    /// Draining levels in the `tokenBuckets` table (keys `level:…`), shared by every server.
    public func sharedLevels(drainPerSecond: Double) -> any DrainingLevels {
        PostgresLevels(store: self, drainPerSecond: drainPerSecond)
    }
}

/// `MemoryLevels`' arithmetic in one statement per call, in the token buckets' table: a row's
/// `tokens` is the level at `updatedAt`. The upsert locks the row, so two servers raising one
/// level add up; a server whose clock is behind the row's drains nothing (time never runs
/// backwards for a level). Rows idle for an hour are swept with the token buckets'.
struct PostgresLevels: DrainingLevels {
    let store: PostgresStore
    let drainPerSecond: Double

    func levels(_ keys: [String], now: Double) async throws -> [Double] {
        let stored = try await store.fetch(
            """
            SELECT key, GREATEST(0, tokens - GREATEST(0, \(now) - updatedAt) * \(drainPerSecond))
            FROM tokenBuckets WHERE key = ANY(\(keys.map { "level:" + $0 })::text[])
            """
        ) { c in (try c.next(String.self), try c.next(Double.self)) }
        let byKey = Dictionary(stored, uniquingKeysWith: { a, _ in a })
        return keys.map { byKey["level:" + $0] ?? 0 }
    }

    func raise(_ keys: [String], by amount: Double, now: Double) async throws {
        // Sorted, so two servers raising the same keys lock their rows in one order.
        let rows = Array(Set(keys)).sorted().map { "level:" + $0 }
        _ = try await store.client.query(
            """
            INSERT INTO tokenBuckets AS b (key, tokens, updatedAt)
            SELECT k, \(amount), \(now) FROM unnest(\(rows)::text[]) AS k
            ON CONFLICT (key) DO UPDATE
                SET tokens = GREATEST(0, b.tokens - GREATEST(0, \(now) - b.updatedAt) * \(drainPerSecond)) + \(amount),
                    updatedAt = GREATEST(b.updatedAt, \(now))
            """, logger: store.logger)
    }
}
