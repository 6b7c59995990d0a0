/// Token buckets by key: `ratePerSecond` tokens refill each second up to a burst. `RateLimiter`
/// keeps them in this process; `PostgresStore.sharedBuckets` keeps them in the database, so every
/// server on it draws from the same bucket (the join budget: a crowd spread over several servers
/// gets one budget, not one per server).
public protocol TokenBuckets: Sendable {
    /// Takes `cost` tokens for `key` at time `now` (seconds); `burst` overrides the buckets' own
    /// for this key.
    /// - Returns: nil when allowed, or the whole seconds to wait until they are there (nothing
    ///   is taken then).
    func take(_ key: String, cost: Double, burst: Double?, now: Double) async throws -> Int?
    /// Gives back a token taken from `key` (up to the burst).
    func refund(_ key: String, burst: Double?, now: Double) async throws
}

extension RateLimiter: TokenBuckets {}
