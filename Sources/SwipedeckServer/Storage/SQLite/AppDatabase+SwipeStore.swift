extension AppDatabase: SwipeStore {
    public var engineDescription: String { "SQLite (synchronous=\(synchronousName), WAL)" }

    /// Nothing to do: GRDB closes the pool when the last reference goes.
    public func close() async {}
}
