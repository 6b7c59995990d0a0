extension AppDatabase: SwipeStore {
    /// One: SQLite has one writer per file; a second transaction would wait for the first.
    public var writeLanes: Int { 1 }

    public var engineDescription: String { "SQLite (synchronous=\(synchronousName), WAL)" }

    /// Nothing to do: GRDB closes the pool when the last reference goes.
    public func close() async {}
}
