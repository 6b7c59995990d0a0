import ArgumentParser
import Foundation
import Logging
import SwipedeckServer

/// `--database` (alias `--db`) for every command that opens the data: an SQLite path (default
/// `swipedeck.sqlite`), `sqlite:PATH`, or `postgres://USER@HOST:PORT/DB`; else the environment's
/// `SWIPEDECK_DATABASE_URL` (or the file named by `SWIPEDECK_DATABASE_URL_FILE`), else `SWIPEDECK_DB`.
struct DatabaseOption: ParsableArguments {
    @Option(
        name: [.customLong("database"), .customLong("db")],
        help:
            "SQLite file, sqlite:PATH or postgres://USER@HOST:PORT/DB (env SWIPEDECK_DATABASE_URL, SWIPEDECK_DATABASE_URL_FILE or SWIPEDECK_DB)."
    )
    var database: String?

    /// The location as given (option, then environment, then the default file).
    /// - Throws: a sentence when `SWIPEDECK_DATABASE_URL_FILE` names an unreadable or empty file.
    var location: String {
        get throws {
            if let database { return database }
            let env = EnvironmentSettings()
            return try env.secret("SWIPEDECK_DATABASE_URL") ?? env.string("SWIPEDECK_DB") ?? "swipedeck.sqlite"
        }
    }

    /// The location for messages (no password). A location that cannot be read is shown as a
    /// placeholder: `open` reports why in its own sentence.
    var shown: String {
        guard let location = try? location else { return "(unreadable SWIPEDECK_DATABASE_URL_FILE)" }
        // A location that does not parse is shown as given: `open` names what is wrong with it.
        return (try? StoreLocation(location))?.redacted ?? location
    }

    /// Whether the location names PostgreSQL (false when it cannot be read or parsed: nothing to explain then).
    var isPostgres: Bool {
        if case .postgres? = try? StoreLocation(try location) { return true }
        return false
    }

    /// Opens the store; every failure becomes a sentence naming the location.
    func open(logger: Logger = Self.quietLogger) async throws -> any Store {
        let location = try self.location
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
        } catch let error as SecretKeyProblem {
            throw ValidationError("Cannot start: \(error.description)")
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
