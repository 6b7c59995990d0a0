import Foundation
import GRDB
import Logging
import PostgresNIO
import TestSupport
import Testing

@testable import SwipedeckServer

/// The engine the server tests run on: SQLite in a temporary file by default; PostgreSQL when
/// `SWIPEDECK_TEST_DATABASE_URL` names a cluster (`make test` runs the suite once per engine),
/// with a database of its own for every test.
enum TestDatabase {
    /// The cluster's URL (any database on it: tests create their own beside it).
    static let postgresURL = ProcessInfo.processInfo.environment["SWIPEDECK_TEST_DATABASE_URL"]
        .flatMap { $0.isEmpty ? nil : $0 }

    /// Whether this run targets PostgreSQL.
    static var onPostgres: Bool { postgresURL != nil }

    /// A new, empty database: a temporary SQLite path, or the URL of a new PostgreSQL database.
    static func fresh() async throws -> String {
        // Nearly every server test starts here: the run's pool watchdog starts with the first.
        PoolWatchdog.startIfConfigured()
        guard let postgresURL else { return temporaryDatabasePath() }
        return try await freshPostgres(cluster: postgresURL)
    }

    /// At most two databases made or dropped at once. Every test of a parallel run starts by
    /// making one: 330 `CREATE DATABASE`s at once on a busy 2-core machine kept the cluster from
    /// accepting the running tests' connections for two minutes (their pools' circuit breakers
    /// tripped and a request timed out), so they take turns, each waiting without a thread.
    static let turns = AsyncGate(width: 2)

    /// A new, empty PostgreSQL database on the cluster `cluster` names; its URL.
    static func freshPostgres(cluster: String) async throws -> String {
        var place = try PostgresLocation(url: cluster)
        let name = "sd_t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await turns.run { [place] in
            try await admin(place) { connection in
                _ = try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
            }
        }
        place.database = name
        return "postgres://\(place.user)@\(place.host):\(place.port)/\(name)?sslmode=disable&pool=4"
    }

    /// Removes a database `fresh()` made (files, or the PostgreSQL database with its connections).
    static func drop(_ location: String) async {
        switch try? StoreLocation(location) {
        case .sqlite(let path)?:
            removeDatabase(at: path)
        case .postgres(let place)?:
            // A database left behind goes with the throwaway cluster at the run's end.
            try? await turns.run {
                try await admin(place) { connection in
                    _ = try await connection.query(
                        PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(place.database) WITH (FORCE)"),
                        logger: logger)
                }
            }
        case nil:
            break
        }
    }

    /// `drop` from a `defer`: SQLite files at once, a PostgreSQL database in the background.
    static func dropLater(_ location: String, closing store: (any Store)? = nil) {
        if case .sqlite(let path)? = try? StoreLocation(location) {
            removeDatabase(at: path)
        } else {
            Task {
                await store?.close()
                await drop(location)
            }
        }
    }

    static let logger = Logger(label: "swipedeck-test-db")

    /// One connection to the cluster's `postgres` database (to create and drop test databases).
    static func admin<T>(_ place: PostgresLocation, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await connect(place, database: "postgres", body)
    }

    /// One connection to `database` (default: the location's own), closed after `body`.
    static func connect<T>(
        _ place: PostgresLocation, database: String? = nil, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let config = PostgresConnection.Configuration(
            host: place.host, port: place.port, username: place.user, password: place.password,
            database: database ?? place.database, tls: .disable)
        let connection = try await PostgresConnection.connect(configuration: config, id: 1, logger: logger)
        do {
            let value = try await body(connection)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}

extension Trait where Self == ConditionTrait {
    /// For tests of SQLite itself: its files, migrations from its older schemas, query plans,
    /// GRDB. The PostgreSQL run skips them (the SQLite run has them).
    static var sqliteOnly: Self { .enabled(if: !TestDatabase.onPostgres, "checks SQLite itself") }
}

/// A value a test binds into its checking SQL on either engine.
typealias TestValue = DatabaseValueConvertible & PostgresDynamicTypeEncodable & Sendable

/// One row read back by a test, from either engine; columns by name (case-insensitive, as
/// PostgreSQL folds unquoted names to lower case).
struct TestRow: Sendable {
    private let sqlite: [(name: String, value: DatabaseValue)]?
    private let postgres: [PostgresCell]

    init(sqlite row: Row) {
        sqlite = row.columnNames.enumerated().map { (name: $0.element, value: row[$0.offset] as DatabaseValue) }
        postgres = []
    }

    init(postgres row: PostgresRow) {
        sqlite = nil
        postgres = Array(row)
    }

    subscript<T: DatabaseValueConvertible & PostgresDecodable>(_ column: String) -> T? {
        if let sqlite {
            return sqlite.first { $0.name.lowercased() == column.lowercased() }.flatMap {
                T.fromDatabaseValue($0.value)
            }
        }
        return Self.decode(postgres.first { $0.columnName.lowercased() == column.lowercased() })
    }

    /// The value of the column at `index` (0 = first).
    func value<T: DatabaseValueConvertible & PostgresDecodable>(at index: Int) -> T? {
        if let sqlite { return index < sqlite.count ? T.fromDatabaseValue(sqlite[index].value) : nil }
        return Self.decode(index < postgres.count ? postgres[index] : nil)
    }

    private static func decode<T: PostgresDecodable>(_ cell: PostgresCell?) -> T? {
        guard let cell, cell.bytes != nil else { return nil }
        return try? cell.decode(T.self)
    }
}

/// Runs at most `width` bodies at once; the others wait their turn, suspended (no thread held).
actor AsyncGate {
    private let width: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) {
        self.width = width
    }

    /// `body`'s result, once a turn is free.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if running < width {
            running += 1
        } else {
            // `leave` hands its turn straight to the first waiter, so `running` stays counted.
            await withCheckedContinuation { waiting.append($0) }
        }
        defer { leave() }
        return try await body()
    }

    private func leave() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
