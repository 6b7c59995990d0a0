extension AppDatabase: SwipeStore {
    public var engineDescription: String { "SQLite (synchronous=\(synchronousName), WAL)" }

    /// Nothing to do: GRDB closes the pool when the last reference goes.
    public func close() async {}

    /// In memory: one process serves an SQLite file.
    public func sharedBuckets(ratePerSecond: Double, burst: Double) -> any TokenBuckets {
        RateLimiter(ratePerSecond: ratePerSecond, burst: burst)
    }
}
