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
    /// - Throws: `StoreCopier.Refusal` when anything is already at `path`, a symbolic link
    ///   included (`checkTarget`).
    public static func snapshot(_ source: any Store & RawTables, to path: String) async throws -> StoreCopier.Report {
        try checkTarget(path)
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

    /// What `copyFiles` did.
    public struct FilesCopied: Sendable, Equatable {
        /// Image files copied.
        public var copied = 0
        /// Names left out: links (never followed nor recreated), folders, devices, and names that
        /// are no stored image's (`ImageName`).
        public var skipped: [String] = []
    }

    /// Copies the images of the folder `from` into `to` (created): regular files named as stored
    /// images are (`ImageName`), each read without following a link and written as a new file
    /// (`RegularFiles.copy`); names already in `to` are left as they are (an image's name is its
    /// content's SHA-256). Anything else — a symbolic link above all, which a restore must never
    /// follow or recreate — is skipped and named.
    /// - Returns: what was copied and skipped; nothing when `from` does not exist.
    /// - Throws: `StoreCopier.Refusal` when `to` (or `from`) is a link or not a folder.
    public static func copyFiles(from: String, to: String) throws -> FilesCopied {
        var result = FilesCopied()
        switch RegularFiles.kind(from) {
        case .missing: return result
        case .directory: break
        default: throw StoreCopier.Refusal(description: "\(from) is not a folder (a link is not followed).")
        }
        switch RegularFiles.kind(to) {
        case .missing: try FileManager.default.createDirectory(atPath: to, withIntermediateDirectories: true)
        case .directory: break
        default: throw StoreCopier.Refusal(description: "\(to) is not a folder (a link is not followed).")
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: from).sorted() {
            guard ImageName(fileName: name) != nil, RegularFiles.kind(from + "/" + name) == .regular else {
                result.skipped.append(name)
                continue
            }
            // A name already at the target, even as a link, is left alone (and never written through).
            guard RegularFiles.kind(to + "/" + name) == .missing else { continue }
            do {
                if try RegularFiles.copy(from: from + "/" + name, to: to + "/" + name) {
                    result.copied += 1
                } else {
                    result.skipped.append(name)
                }
            } catch let failure as RegularFiles.Failure {
                throw StoreCopier.Refusal(description: failure.description)
            }
        }
        return result
    }

    /// Refuses a backup target that exists in any form — a file, a folder, or a symbolic link,
    /// dangling or not, which SQLite would write through — and a data folder beside it that is a
    /// link; the journal files SQLite makes beside the file (`-journal`, `-wal`, `-shm`) too.
    /// - Throws: `StoreCopier.Refusal` naming the path.
    public static func checkTarget(_ path: String) throws {
        for candidate in [path, path + "-journal", path + "-wal", path + "-shm"] {
            switch RegularFiles.kind(candidate) {
            case .missing: continue
            case .symbolicLink:
                throw StoreCopier.Refusal(
                    description: "\(candidate) is a symbolic link: back up into a new file, not through a link.")
            default:
                throw StoreCopier.Refusal(description: "\(candidate) already exists: back up into a new file.")
            }
        }
        for folder in [path + "-data", path + "-data/images"] {
            let kind = RegularFiles.kind(folder)
            guard kind == .missing || kind == .directory else {
                throw StoreCopier.Refusal(
                    description: "\(folder) is not a folder (a link is not followed): back up beside a new file.")
            }
        }
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
