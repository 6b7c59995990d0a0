import Logging

/// Opens the store `location` names (`StoreLocation`) and brings its schema up to date.
///
/// - Parameter synchronous: SQLite's durability setting (PostgreSQL follows its server's
///   `synchronous_commit`).
/// - Throws: `StoreLocationError` for a malformed location; the engine's error when it cannot be
///   opened or reached.
public func openStore(
    _ location: String, synchronous: AppDatabase.SynchronousMode = .normal, logger: Logger = Logger(label: "swipedeck")
) async throws -> any Store {
    switch try StoreLocation(location) {
    case .sqlite(let path):
        return try AppDatabase(path: path, synchronous: synchronous)
    case .postgres(let place):
        return try await PostgresStore.open(place, logger: logger)
    }
}
