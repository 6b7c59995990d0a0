import ArgumentParser
import Foundation
import SwipedeckServer

/// `swipedeck backup`: a consistent snapshot of the database (while the server runs) into a new
/// SQLite file, with the uploaded images beside it (`StoreBackup`).
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Snapshot the database (SQLite or PostgreSQL) into a new SQLite file while the server runs; images go to PATH-data/images."
    )

    @Option(help: "The new SQLite file to write; its images go to PATH-data/images.") var to: String
    @OptionGroup var db: DatabaseOption
    @Option(help: "The server's data folder (its --data-dir), whose images/ is copied; default <database>-data.")
    var dataDir: String?

    func run() async throws {
        var config = AppConfiguration()
        config.database = try db.location
        config.dataDirectory = dataDir ?? EnvironmentSettings().string("SWIPEDECK_DATA_DIR")
        if case .sqlite(let path) = try Copy.location(config.database), !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("There is no SQLite database at \(path) to back up.")
        }
        let source = try await Copy.open(config.database)
        defer { Task { await source.close() } }
        let started = Date()
        do {
            let report = try await StoreBackup.snapshot(source, to: to)
            let images = try StoreBackup.copyFiles(from: config.imagesDirectory, to: to + "-data/images")
            Copy.printReport(
                report,
                heading:
                    "Backed up \(db.shown) into \(to) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s",
                closing:
                    "The backup's swipes have the SHA-256 \(report.swipeChecksum) (restore prints it again once verified)."
            )
            print("  images: \(images.copied) files copied to \(to)-data/images")
            StoreBackup.printSkipped(images)
        } catch let refusal as StoreCopier.Refusal {
            throw ValidationError(refusal.description)
        }
    }
}

/// `swipedeck restore`: a backup into an empty database, verified like `copy`, with its images.
struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Restore a backup (an SQLite file from `swipedeck backup`) into an empty database, with its images.")

    @Option(help: "The backup file (its images are read from PATH-data/images).") var from: String
    @Option(help: "The empty database to fill: an SQLite file (created) or postgres://USER@HOST:PORT/DB.") var to:
        String
    @Option(help: "The data folder the restored server will use (its --data-dir); default <database>-data.")
    var dataDir: String?

    func run() async throws {
        guard FileManager.default.fileExists(atPath: from) else {
            throw ValidationError("There is no backup at \(from).")
        }
        var config = AppConfiguration()
        config.database = to
        config.dataDirectory = dataDir
        _ = try Copy.location(to)
        let source = try await Copy.open(from)
        let target = try await Copy.open(to)
        defer {
            Task {
                await source.close()
                await target.close()
            }
        }
        let started = Date()
        do {
            let report = try await StoreCopier(source: source, target: target).run()
            let images = try StoreBackup.copyFiles(from: from + "-data/images", to: config.imagesDirectory)
            Copy.printReport(
                report,
                heading:
                    "Restored \(from) into \(Copy.shown(to)) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s",
                closing:
                    "Verified: every table has as many rows as the backup; the swipes' SHA-256 is \(report.swipeChecksum) on both."
            )
            print("  images: \(images.copied) files copied to \(config.imagesDirectory)")
            StoreBackup.printSkipped(images)
        } catch let refusal as StoreCopier.Refusal {
            throw ValidationError(
                refusal.description.replacingOccurrences(
                    of: "Copy into a new, empty database.", with: "Restore into a new, empty database."))
        }
    }
}

extension StoreBackup {
    /// Names the entries of an images folder a backup or restore left out, on standard error.
    static func printSkipped(_ files: StoreBackup.FilesCopied) {
        guard !files.skipped.isEmpty else { return }
        let names = files.skipped.prefix(10).joined(separator: ", ") + (files.skipped.count > 10 ? ", …" : "")
        FileHandle.standardError.write(
            Data(
                "  skipped \(files.skipped.count) entries that are no regular image files (links are never followed): \(names)\n"
                    .utf8))
    }
}
