import ArgumentParser
import Foundation
import Logging
import SwipedeckServer

/// `--database` (alias `--db`) for every command that opens the data: an SQLite path (default
/// `swipedeck.sqlite`), `sqlite:PATH`, or `postgres://USER@HOST:PORT/DB`; else the environment's
/// `SWIPEDECK_DATABASE_URL`, else `SWIPEDECK_DB`.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: [.customLong("database"), .customLong("db")],
        help: "SQLite file, sqlite:PATH or postgres://USER@HOST:PORT/DB (env SWIPEDECK_DATABASE_URL or SWIPEDECK_DB).")
    var database: String?

    /// The location as given (option, then environment, then the default file).
    var location: String {
        let env = ProcessInfo.processInfo.environment
        return database ?? env["SWIPEDECK_DATABASE_URL"] ?? env["SWIPEDECK_DB"] ?? "swipedeck.sqlite"
    }

    /// The location for messages (no password).
    var shown: String {
        (try? StoreLocation(location))?.redacted ?? location
    }

    /// Whether the location names PostgreSQL.
    var isPostgres: Bool {
        if case .postgres? = try? StoreLocation(location) { return true }
        return false
    }

    /// Opens the store; every failure becomes a sentence naming the location.
    func open(logger: Logger = Self.quietLogger) async throws -> any SwipeStore {
        do {
            return try await openStore(location, logger: logger)
        } catch let error as StoreLocationError {
            throw ValidationError(error.description)
        } catch let error as StorageError {
            throw ValidationError("Cannot open the database: \(error.description).")
        } catch {
            throw ValidationError("Cannot open the database \(shown): \(String(reflecting: error)).")
        }
    }

    /// Runs `body`, turning a PostgreSQL failure into a sentence: postgres-nio describes its
    /// errors generically (nothing sensitive in logs), so the CLI says what failed.
    func explainingFailures<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as StorageError {
            throw ValidationError("Cannot start: \(error.description).")
        } catch let error where isPostgres && !(error is ApiError) && !(error is ValidationError) {
            throw ValidationError("Cannot start on the database \(shown): \(String(reflecting: error)).")
        }
    }

    /// Commands print their own sentences; the storage logs only problems.
    static var quietLogger: Logger {
        var logger = Logger(label: "swipedeck")
        logger.logLevel = .warning
        return logger
    }
}
