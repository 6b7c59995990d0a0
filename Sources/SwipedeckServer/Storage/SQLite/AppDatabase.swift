import Foundation
import GRDB
import Logging

/// The SQLite engine of `Store`: the app's migrations applied to a GRDB `DatabaseWriter` — a WAL
/// `DatabasePool` on a file in production (`init(path:synchronous:)`), any writer (an in-memory
/// `DatabaseQueue` in tests) through `init(writer:)`.
///
/// Writes are methods named for their intent (`importDeck`, `writeSwipes`, `undoSwipe` …);
/// nothing here deletes rows: an undo or a flip is recorded, never erased.
public struct AppDatabase: Store {
    /// The database; with a pool, readers run concurrently with the single writer (WAL).
    let writer: any DatabaseWriter
    /// The effective `PRAGMA synchronous` after opening (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA).
    public let synchronous: Int
    /// Decks whose results may have changed; every write that can change a deck's results marks
    /// it after the commit (the live results stream reads it).
    public let changes = DeckChanges()
    public let edits = DeckEdits()

    /// Opens (creating if needed) the database at `path` and migrates it.
    ///
    /// - Parameter synchronous: `NORMAL` (GRDB's WAL default: a process crash loses nothing
    ///   committed; a power loss may lose the last transactions) or `FULL` (each commit is
    ///   fsynced: survives power loss). GRDB forces NORMAL after `prepareDatabase`, so a stronger
    ///   setting is applied to every connection after opening and read back.
    public init(path: String, synchronous: SynchronousMode = .normal) throws {
        var config = Self.configuration(synchronous: synchronous)
        config.maximumReaderCount = 4
        let pool = try DatabasePool(path: path, configuration: config)
        if synchronous == .full {
            try pool.barrierWriteWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        }
        // The writer walks the random-key indexes of `swipes` (idempotency key, participant) on
        // every insert: a page cache that holds their inner pages keeps inserts off the disk as
        // the table grows. A WAL that outgrows the limit is truncated after a checkpoint.
        try pool.barrierWriteWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)")
            try db.execute(sql: "PRAGMA journal_size_limit = \(64 << 20)")
        }
        try self.init(writer: pool)
        if synchronous == .full && self.synchronous != 2 {
            throw StorageError.pragmaNotApplied("synchronous=FULL read back as \(self.synchronous)")
        }
    }

    /// Migrates `writer` and serves it. Its connections must be set up by `configuration` (foreign
    /// keys, the `sd_shuffle_key` function): `AppDatabase(writer: DatabaseQueue(configuration:
    /// AppDatabase.configuration()))` is an empty database in memory.
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        // Read on the writer's connection: the one whose setting matters for commits.
        self.synchronous = try writer.write { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
        try Self.migrator.migrate(writer)
    }

    /// The set-up of every connection: foreign keys on, 8 MiB of page cache (the default is
    /// 2 MiB; the writer of a pool gets more), `sd_shuffle_key`, and `synchronous`.
    public static func configuration(synchronous: SynchronousMode = .normal) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA foreign_keys = ON")
            try db.execute(sql: "PRAGMA cache_size = -\(Self.readerCacheKiB)")
            db.add(function: Self.shuffleKeyFunction)
            if synchronous == .full {
                // Readers never write, but a pool reuses connection setup; harmless either way.
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
        }
        return config
    }

    /// A short description for logs and `/healthz`.
    public var engineDescription: String {
        writer is DatabasePool ? "SQLite (synchronous=\(synchronousName), WAL)" : "SQLite (in memory)"
    }

    /// Nothing to do: GRDB closes the database when the last reference goes.
    public func close() async {}

    /// Page cache of the writer connection, KiB. With the readers' this bounds SQLite's memory
    /// to about 32 + 4 × 8 = 64 MiB (the server's RSS target is 150 MB). No `mmap_size`: mapped
    /// pages count in the process's RSS and would grow with the file.
    static let writerCacheKiB = 32 * 1024
    /// Page cache of each reader connection, KiB.
    static let readerCacheKiB = 8 * 1024

    /// `sd_shuffle_key(participant, cardId)` for SQL (see `CardOrder.shuffleKey`).
    static let shuffleKeyFunction = DatabaseFunction("sd_shuffle_key", argumentCount: 2, pure: true) { values in
        let participant = String.fromDatabaseValue(values[0]) ?? ""
        let card = Int64.fromDatabaseValue(values[1]) ?? 0
        return CardOrder.shuffleKey(participant: participant, cardId: card)
    }

    /// `PRAGMA synchronous` levels offered in configuration.
    public enum SynchronousMode: String, Sendable, CaseIterable {
        case normal
        case full
    }

    /// A human name for `synchronous`.
    public var synchronousName: String {
        switch synchronous {
        case 0: return "OFF"
        case 1: return "NORMAL"
        case 2: return "FULL"
        case 3: return "EXTRA"
        default: return "unknown(\(synchronous))"
        }
    }
}
