import Crypto
import Foundation

/// Copies a whole database from one engine to another (`swipedeck copy`), table by table in
/// pages, then verifies it: the same number of rows in every table, and the same SHA-256 over
/// every swipe (all columns, in id order) on both sides.
public struct StoreCopier: Sendable {
    /// What a copy moved and what it checked.
    public struct Report: Sendable {
        /// Rows per table, in copy order.
        public var rows: [(table: String, count: Int)]
        /// SHA-256 (hex) over the swipes, equal on both sides.
        public var swipeChecksum: String
    }

    /// Why a copy did not happen or did not verify, as a sentence.
    public struct Refusal: Error, CustomStringConvertible {
        public var description: String
    }

    /// Only read (a store, or a snapshot of one).
    public let source: any RawTables
    public let target: any Store & RawTables
    /// Rows per page (each page is one read and one write transaction).
    public var pageSize = 2_000

    public init(source: any RawTables, target: any Store & RawTables) {
        self.source = source
        self.target = target
    }

    /// Copies and verifies. `progress` gets (table, rows copied so far) after every page.
    /// - Throws: `Refusal` when the target has any row, or when the verification fails.
    public func run(progress: (@Sendable (String, Int) -> Void)? = nil) async throws -> Report {
        for table in CopyTable.all where try await target.rowCount(table) > 0 {
            throw Refusal(
                description:
                    "The target is not empty: its \(table.name) table has rows. Copy into a new, empty database.")
        }
        for table in CopyTable.all {
            var after: [CopyValue]?
            var copied = 0
            while true {
                let page = try await source.readRows(table, after: after, limit: pageSize)
                if page.isEmpty { break }
                try await target.writeRows(table, page.map(\.values))
                copied += page.count
                after = page.last?.key
                progress?(table.name, copied)
            }
        }
        try await target.finishCopy()
        var rows: [(table: String, count: Int)] = []
        for table in CopyTable.all {
            let (from, to) = (try await source.rowCount(table), try await target.rowCount(table))
            guard from == to else {
                throw Refusal(
                    description:
                        "Verification failed: \(table.name) has \(from) rows in the source and \(to) in the target.")
            }
            rows.append((table.name, to))
        }
        let (from, to) = (
            try await Self.swipeChecksum(source, pageSize: pageSize),
            try await Self.swipeChecksum(target, pageSize: pageSize)
        )
        guard from == to else {
            throw Refusal(
                description: "Verification failed: the swipes' checksums differ (source \(from), target \(to)).")
        }
        return Report(rows: rows, swipeChecksum: to)
    }

    /// SHA-256 over every swipe's canonical values, in id order (the same on both engines).
    public static func swipeChecksum(_ store: any RawTables, pageSize: Int = 2_000) async throws -> String {
        guard var table = CopyTable.all.first(where: { $0.name == "swipes" }) else { return "" }
        table.key = ["id"]
        var hash = SHA256()
        var after: [CopyValue]?
        while true {
            let page = try await store.readRows(table, after: after, limit: pageSize)
            if page.isEmpty { break }
            for row in page {
                hash.update(data: Data((row.values.map(\.canonical).joined(separator: "\u{1F}") + "\u{1E}").utf8))
            }
            after = page.last?.key
        }
        return Hex.string(hash.finalize())
    }
}
