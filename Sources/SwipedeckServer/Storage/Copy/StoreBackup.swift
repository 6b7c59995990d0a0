import Dispatch
import Foundation
import GRDB

/// `swipedeck backup`: a snapshot of a database, taken while the server runs, into a new SQLite
/// file; and `swipedeck restore`: that file into an empty database (`StoreCopier`).
public enum StoreBackup {
    /// Writes a snapshot of `source` into a new SQLite file at `path`, then counts it.
    ///
    /// The file is the database as of one instant, while the servers keep writing. SQLite:
    /// SQLite's online backup, every page in one step inside one read transaction (WAL readers do
    /// not block the writer). PostgreSQL: `StoreCopier` from one `REPEATABLE READ` snapshot
    /// (`PostgresStore.withSnapshot`) into the new file, verified against that snapshot.
    ///
    /// - Returns: the snapshot's row counts and swipe checksum, as `swipedeck copy` reports them.
    /// - Throws: `StoreCopier.Refusal` when a file is already at `path`.
    public static func snapshot(_ source: any Store & RawTables, to path: String) async throws -> StoreCopier.Report {
        if FileManager.default.fileExists(atPath: path) {
            throw StoreCopier.Refusal(description: "\(path) already exists: back up into a new file.")
        }
        if let sqlite = source as? AppDatabase {
            let writer = sqlite.writer
            // GRDB's backup is synchronous: run it on a thread of its own, not the concurrency pool.
            try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
                DispatchQueue.global().async {
                    done.resume(with: Result { try writer.backup(to: try DatabaseQueue(path: path)) })
                }
            }
            let copy = try await openStore(path)
            defer { Task { await copy.close() } }
            guard let tables = copy as? any RawTables else {
                throw StoreCopier.Refusal(description: "\(path) cannot be read back to count it.")
            }
            return try await StoreCopier.tally(tables)
        }
        let target = try await openStore(path)
        defer { Task { await target.close() } }
        guard let tables = target as? any Store & RawTables else {
            throw StoreCopier.Refusal(description: "\(path) cannot be written.")
        }
        if let postgres = source as? PostgresStore {
            return try await postgres.withSnapshot { snapshot in
                try await StoreCopier(source: snapshot, target: tables).run()
            }
        }
        return try await StoreCopier(source: source, target: tables).run()
    }

    /// Copies every file of the folder `from` into `to` (created), keeping names; files already
    /// in `to` with the same name are left as they are (image names are their content's SHA-256).
    /// - Returns: the number of files copied; 0 when `from` does not exist.
    public static func copyFiles(from: String, to: String) throws -> Int {
        let fm = FileManager.default
        guard fm.fileExists(atPath: from) else { return 0 }
        try fm.createDirectory(atPath: to, withIntermediateDirectories: true)
        var copied = 0
        for name in try fm.contentsOfDirectory(atPath: from) where !fm.fileExists(atPath: to + "/" + name) {
            try fm.copyItem(atPath: from + "/" + name, toPath: to + "/" + name)
            copied += 1
        }
        return copied
    }
}

extension StoreCopier {
    /// Row counts (copy order) and the swipe checksum of one database, as `run` reports them.
    public static func tally(_ store: any RawTables) async throws -> Report {
        var rows: [(table: String, count: Int)] = []
        for table in CopyTable.all { rows.append((table.name, try await store.rowCount(table))) }
        return Report(rows: rows, swipeChecksum: try await swipeChecksum(store))
    }
}
