import Foundation
import Logging
import NIOSSL
import PostgresNIO
import Synchronization

/// The PostgreSQL engine: any number of `swipedeck serve` processes on one database.
///
/// Every server keeps its own connection pool (`PostgresLocation.poolSize`) and its own group
/// commit (`SwipeWriter`); the storage rules live in the database: the primary key of `swipes`
/// is the idempotency key, the partial unique index `swipes_live_once` allows one live swipe
/// per participant and card, and the aggregates are updated with row locks taken in a fixed
/// order (participant rows in the batch's sorted order, aggregate rows sorted at the end), so
/// transactions of two servers wait for each other instead of counting twice. A deadlock or
/// serialization failure all the same is retried (`transaction`).
///
/// Commits notify `swipedeck_changes` with the deck id (`e` and the id for an owner's edit);
/// every server listens on one dedicated connection and marks `changes` (and `edits` for an
/// edit), so each server's live results stream follows every swipe and no server keeps a
/// deck's old settings (`Catalog`).
public final class PostgresStore: Store {
    let client: PostgresClient
    let logger: Logger
    let location: PostgresLocation
    public let changes = DeckChanges()
    public let edits = DeckEdits()
    private let runner: Task<Void, Never>
    /// Yields once the pool's `run()` is being called (queries before it are only warned about).
    private let running: AsyncStream<Void>
    private let listener = Mutex<Task<Void, Never>?>(nil)

    /// The channel commits notify with the id of each deck they changed.
    static let changesChannel = "swipedeck_changes"
    /// How often a transaction that lost a deadlock or a serialization check is retried.
    static let maxAttempts = 8

    init(_ location: PostgresLocation, logger: Logger) {
        var config: PostgresClient.Configuration
        if let directory = location.socketDirectory {
            config = .init(
                unixSocketPath: "\(directory)/.s.PGSQL.\(location.port)", username: location.user,
                password: location.password,
                database: location.database)
        } else {
            config = .init(
                host: location.host, port: location.port, username: location.user, password: location.password,
                database: location.database, tls: .disable)
            switch location.sslMode {
            case "require": config.tls = .require(.makeClientConfiguration())
            case "prefer": config.tls = .prefer(.makeClientConfiguration())
            default: config.tls = .disable
            }
        }
        config.options.maximumConnections = location.poolSize
        let client = PostgresClient(configuration: config, backgroundLogger: logger)
        self.client = client
        self.logger = logger
        self.location = location
        let (running, started) = AsyncStream.makeStream(of: Void.self)
        self.running = running
        self.runner = Task {
            started.yield()
            started.finish()
            await client.run()
        }
    }

    /// Applies the migrations on a first connection (which fails at once, with the server's
    /// reason, when the database cannot be reached), then opens the pool and starts listening for
    /// other servers' changes.
    /// - Throws: `StorageError.unreachable` naming the location and the reason.
    public static func open(_ location: PostgresLocation, logger: Logger) async throws -> PostgresStore {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: try firstConnection(location), id: 0, logger: logger)
        } catch {
            throw StorageError.unreachable("\(location.redacted): \(String(reflecting: error))")
        }
        do {
            try await migrate(on: connection, logger: logger)
            try await connection.close()
        } catch {
            // The migration's error is the one to report; the connection is dropped either way.
            try? await connection.close()
            throw error
        }
        let store = PostgresStore(location, logger: logger)
        for await _ in store.running { break }
        store.startListening()
        return store
    }

    /// The configuration of the connection `open` migrates on (the pool's own settings otherwise).
    private static func firstConnection(_ location: PostgresLocation) throws -> PostgresConnection.Configuration {
        if let directory = location.socketDirectory {
            return .init(
                unixSocketPath: "\(directory)/.s.PGSQL.\(location.port)", username: location.user,
                password: location.password,
                database: location.database)
        }
        let tls: PostgresConnection.Configuration.TLS
        switch location.sslMode {
        case "require": tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case "prefer": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        default: tls = .disable
        }
        return .init(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
    }

    public var engineDescription: String { "PostgreSQL (\(location.redacted), pool \(location.poolSize))" }

    public func close() async {
        let task = listener.withLock { task in
            defer { task = nil }
            return task
        }
        task?.cancel()
        await task?.value
        runner.cancel()
        await runner.value
    }

    /// Marks `changes` (and `edits`, for an edit) for every deck another server (or this one)
    /// notifies, until closed. A lost connection is re-established after a second; every deck is
    /// marked on (re)connection, since notifications sent in between are lost.
    private func startListening() {
        let task = Task { [client, changes, edits, logger] in
            while !Task.isCancelled {
                do {
                    try await client.withConnection { connection in
                        try await connection.listen(on: Self.changesChannel) { notes in
                            changes.markAll()
                            edits.markAll()
                            for try await note in notes {
                                if note.payload.hasPrefix(Self.roomMark) {
                                    if let roomId = Int64(note.payload.dropFirst(Self.roomMark.count)) {
                                        changes.roomsChanged([roomId])
                                    }
                                    continue
                                }
                                let edit = note.payload.hasPrefix(Self.editMark)
                                guard let deckId = Int64(note.payload.dropFirst(edit ? Self.editMark.count : 0)) else {
                                    continue
                                }
                                changes.mark(deckId)
                                if edit { edits.mark(deckId) }
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                    logger.warning(
                        "change listener lost its connection; retrying",
                        metadata: ["error": "\(String(reflecting: error))"])
                }
                // Cancelled while waiting: the loop's condition ends the task.
                try? await Task.sleep(for: .seconds(1))
            }
        }
        listener.withLock { $0 = task }
    }

    // MARK: - Queries

    /// Rows of `query` (on `connection`, or a pooled one), each decoded by `decode`.
    func fetch<T>(
        _ query: PostgresQuery, on connection: PostgresConnection? = nil, _ decode: (inout PostgresColumns) throws -> T
    ) async throws -> [T] {
        let rows: [PostgresRow]
        if let connection {
            rows = try await connection.query(query, logger: logger).collect()
        } else {
            rows = try await client.query(query, logger: logger).collect()
        }
        return try rows.map { row in
            var columns = PostgresColumns(row)
            return try decode(&columns)
        }
    }

    /// The first row of `query`, decoded; nil when there is none.
    func fetchOne<T>(
        _ query: PostgresQuery, on connection: PostgresConnection? = nil, _ decode: (inout PostgresColumns) throws -> T
    ) async throws -> T? {
        try await fetch(query, on: connection, decode).first
    }

    /// The single value of the first row (nil without a row).
    func value<T: PostgresDecodable>(
        _ query: PostgresQuery, on connection: PostgresConnection? = nil, as type: T.Type = T.self
    ) async throws -> T? {
        try await fetchOne(query, on: connection) { try $0.next(T.self) }
    }

    /// Runs a statement whose rows, if any, are not needed.
    func execute(_ query: PostgresQuery, on connection: PostgresConnection) async throws {
        _ = try await connection.query(query, logger: logger).collect()
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled
    /// back when it throws. Retried from the start after a deadlock or serialization failure
    /// (SQLSTATE 40P01, 40001) or a `RetryBatch`, so `body` must not have effects outside the
    /// database. `begin` may set the isolation level.
    func transaction<T: Sendable>(
        _ begin: PostgresQuery = "BEGIN", _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await client.withConnection { connection in
                    try await connection.query(begin, logger: logger)
                    do {
                        let value = try await body(connection)
                        try await connection.query("COMMIT", logger: logger)
                        return value
                    } catch {
                        // The body's error is the one to report (and decides a retry); ROLLBACK fails only
                        // on a broken connection, which the pool does not hand out again.
                        _ = try? await connection.query("ROLLBACK", logger: logger)
                        throw error
                    }
                }
            } catch let error where Self.isRetryable(error) && attempt < Self.maxAttempts {
                attempt += 1
                // Both losers of a deadlock would otherwise meet again at once.
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            }
        }
    }

    /// A transaction that also marks `deckId` changed here after the commit and, through the
    /// commit's notification, on every other server.
    func changing<T: Sendable>(_ deckId: Int64?, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let value = try await transaction { connection in
            let value = try await body(connection)
            if let deckId { try await notify(deckId, on: connection) }
            return value
        }
        if let deckId { changes.mark(deckId) }
        return value
    }

    /// An owner's edit of deck `deckId`: a transaction that marks the deck changed and edited,
    /// here after the commit and on every other server through the commit's notification. `body`
    /// answers the deck it edited when `deckId` is not known beforehand (nil: nothing changed).
    func editing<T: Sendable>(_ deckId: Int64?, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await editing { connection in (try await body(connection), deckId) }
    }

    /// `editing` for a body that finds the deck itself.
    func editing<T: Sendable>(_ body: (PostgresConnection) async throws -> (T, Int64?)) async throws -> T {
        let (value, deckId) = try await transaction { connection in
            let (value, deckId) = try await body(connection)
            if let deckId { try await notify(deckId, edit: true, on: connection) }
            return (value, deckId)
        }
        if let deckId {
            changes.mark(deckId)
            edits.mark(deckId)
        }
        return value
    }

    /// What a notification for an owner's edit starts with (then the deck id).
    static let editMark = "e"
    /// The prefix of a room's notification (`r` and the room id): its events changed (`RoomHub`).
    static let roomMark = "r"

    /// Queues a change notification for `deckId` (`edit`: an owner's edit), delivered at commit
    /// (not at all on rollback).
    func notify(_ deckId: Int64, edit: Bool = false, on connection: PostgresConnection) async throws {
        try await execute(
            "SELECT pg_notify(\(Self.changesChannel), \((edit ? Self.editMark : "") + String(deckId)))", on: connection)
    }

    /// A deadlock, a serialization failure, or a batch that met another server's row (`RetryBatch`).
    static func isRetryable(_ error: any Error) -> Bool {
        if error is RetryBatch { return true }
        let state = (error as? PSQLError)?.serverInfo?[.sqlState]
        return state == "40P01" || state == "40001"
    }

    /// Whether `error` is a unique-constraint violation (SQLSTATE 23505).
    static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
