extension AppDatabase {
    /// In memory: one process serves an SQLite file.
    public func sharedLevels(drainPerSecond: Double) -> any DrainingLevels {
        MemoryLevels(drainPerSecond: drainPerSecond)
    }
}
