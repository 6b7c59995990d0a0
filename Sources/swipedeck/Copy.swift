import ArgumentParser
import Foundation
import SwipedeckServer

/// `swipedeck copy`: a whole database from one engine to the other (`StoreCopier`).
struct Copy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Copy a whole database to an empty one (SQLite ⇄ PostgreSQL), then verify row counts and a checksum of the swipes."
    )

    @Option(help: "The database to read: an SQLite file, sqlite:PATH or postgres://USER@HOST:PORT/DB.") var from: String
    @Option(help: "The empty database to write (created by the copy when it is an SQLite file).") var to: String

    func run() async throws {
        if case .sqlite(let path) = try Self.location(from), !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("There is no SQLite database at \(path) to copy from.")
        }
        _ = try Self.location(to)
        let source = try await Self.open(from)
        let target = try await Self.open(to)
        defer {
            Task {
                await source.close()
                await target.close()
            }
        }
        // Both opened above, so both parse; the text as given is only a fallback.
        let shownFrom = (try? StoreLocation(from))?.redacted ?? from
        let shownTo = (try? StoreLocation(to))?.redacted ?? to
        let started = Date()
        do {
            let report = try await StoreCopier(source: source, target: target).run { table, rows in
                if rows % 100_000 == 0 { FileHandle.standardError.write(Data("\(table): \(rows) rows so far\n".utf8)) }
            }
            let total = report.rows.reduce(0) { $0 + $1.count }
            print(
                "Copied \(total) rows from \(shownFrom) to \(shownTo) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s."
            )
            Self.printCounts(report)
            print(
                "Verified: every table has as many rows as the source; the swipes' SHA-256 is \(report.swipeChecksum) on both."
            )
        } catch let refusal as StoreCopier.Refusal {
            throw ValidationError(refusal.description)
        }
    }

    /// Rows per non-empty table, one line each.
    static func printCounts(_ report: StoreCopier.Report) {
        for row in report.rows where row.count > 0 { print("  \(row.table): \(row.count)") }
    }

    /// `backup`'s and `restore`'s summary: a heading, the counts and the checksum, as `copy` prints them.
    static func printReport(_ report: StoreCopier.Report, heading: String, closing: String) {
        print("\(heading): \(report.rows.reduce(0) { $0 + $1.count }) rows.")
        printCounts(report)
        print(closing)
    }

    /// A location for messages (no password).
    static func shown(_ text: String) -> String {
        // A location that does not parse is shown as given: opening it names what is wrong with it.
        (try? StoreLocation(text))?.redacted ?? text
    }

    static func location(_ text: String) throws -> StoreLocation {
        do {
            return try StoreLocation(text)
        } catch let error as StoreLocationError {
            throw ValidationError(error.description)
        }
    }

    static func open(_ text: String) async throws -> any Store & RawTables {
        let option = try DatabaseOption.parse(["--database", text])
        guard let store = try await option.open() as? any Store & RawTables else {
            throw ValidationError("The database \(option.shown) cannot be copied.")
        }
        return store
    }
}
