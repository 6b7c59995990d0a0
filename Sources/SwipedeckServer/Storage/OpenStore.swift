import Logging
import NIOPosix

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
        // Opening and migrating an SQLite file is synchronous disk work (a fresh file: tens of
        // milliseconds of fsyncs and schema writes): NIO's blocking pool, not a concurrency thread.
        return try await NIOThreadPool.singleton.runIfActive { try AppDatabase(path: path, synchronous: synchronous) }
    case .postgres(let place):
        return try await PostgresStore.open(place, logger: logger)
    }
}
