import PostgresNIO

extension PostgresStore {
    /// Token buckets in the `tokenBuckets` table, shared by every server on the database.
    public func sharedBuckets(ratePerSecond: Double, burst: Double) -> any TokenBuckets {
        PostgresTokenBuckets(store: self, ratePerSecond: ratePerSecond, burst: burst)
    }
}

/// `RateLimiter`'s arithmetic in one statement: the row of a key is locked by the upsert, so
/// two servers taking from one bucket take one after the other. A server whose clock is behind
/// the row's refills nothing (time never runs backwards for a bucket). Rows of buckets unused
/// for an hour are full again and are deleted now and then (they are no record of anything).
struct PostgresTokenBuckets: TokenBuckets {
    let store: PostgresStore
    let ratePerSecond: Double
    let burst: Double

    func take(_ key: String, cost: Double, burst: Double?, now: Double) async throws -> Int? {
        if ratePerSecond <= 0 { return nil }
        let burst = burst ?? self.burst
        let rate = ratePerSecond
        let taken = try await store.value(
            """
            INSERT INTO tokenBuckets AS b (key, tokens, updatedAt) VALUES (\(key), \(burst - cost), \(now))
            ON CONFLICT (key) DO UPDATE
                SET tokens = LEAST(\(burst), b.tokens + GREATEST(0, \(now) - b.updatedAt) * \(rate)) - \(cost),
                    updatedAt = GREATEST(b.updatedAt, \(now))
                WHERE LEAST(\(burst), b.tokens + GREATEST(0, \(now) - b.updatedAt) * \(rate)) >= \(cost)
            RETURNING tokens
            """, as: Double.self)
        if taken != nil {
            // One take in about a thousand sweeps the rows of buckets idle for an hour.
            if Int.random(in: 0..<1000) == 0 {
                _ = try await store.client.query(
                    "DELETE FROM tokenBuckets WHERE updatedAt < \(now - 3600)", logger: store.logger)
            }
            return nil
        }
        let tokens =
            try await store.value(
                """
                SELECT LEAST(\(burst), tokens + GREATEST(0, \(now) - updatedAt) * \(rate)) FROM tokenBuckets WHERE key = \(key)
                """, as: Double.self) ?? 0
        return max(1, Int(((min(cost, burst) - tokens) / rate).rounded(.up)))
    }

    func refund(_ key: String, burst: Double?, now: Double) async throws {
        if ratePerSecond <= 0 { return }
        _ = try await store.client.query(
            """
            UPDATE tokenBuckets SET tokens = LEAST(\(burst ?? self.burst), tokens + 1) WHERE key = \(key)
            """, logger: store.logger)
    }
}
