extension AppDatabase {
    /// In memory: one process serves an SQLite file.
    public func sharedBuckets(ratePerSecond: Double, burst: Double) -> any TokenBuckets {
        RateLimiter(ratePerSecond: ratePerSecond, burst: burst)
    }
}
