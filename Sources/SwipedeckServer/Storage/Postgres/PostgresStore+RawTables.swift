import Foundation
import NIOCore
import NIOFoundationCompat
import PostgresNIO

extension PostgresStore: RawTables {
    public func rowCount(_ table: CopyTable) async throws -> Int {
        try await rowCount(table, on: nil)
    }

    public func readRows(_ table: CopyTable, after: [CopyValue]?, limit: Int) async throws -> [(
        key: [CopyValue], values: [CopyValue]
    )] {
        try await readRows(table, after: after, limit: limit, on: nil)
    }

    /// `rowCount` on `connection` (a snapshot's), or a pooled one.
    func rowCount(_ table: CopyTable, on connection: PostgresConnection?) async throws -> Int {
        try await value(PostgresQuery(unsafeSQL: "SELECT COUNT(*) FROM \(table.name)"), on: connection, as: Int.self)
            ?? 0
    }

    /// `readRows` on `connection` (a snapshot's), or a pooled one.
    func readRows(
        _ table: CopyTable, after: [CopyValue]?, limit: Int, on connection: PostgresConnection?
    ) async throws -> [(key: [CopyValue], values: [CopyValue])] {
        let key = table.key.isEmpty ? ["seq"] : table.key
        let kinds: [CopyTable.Kind] = table.key.isEmpty ? [.int] : table.keyKinds
        let keyList = key.joined(separator: ", ")
        var bindings = PostgresBindings()
        for value in after ?? [] { Self.bind(value, to: &bindings) }
        let filter =
            after == nil ? "" : "WHERE (\(keyList)) > (\((1...key.count).map { "$\($0)" }.joined(separator: ", ")))"
        let query = PostgresQuery(
            unsafeSQL:
                "SELECT \(keyList), \(table.columnList) FROM \(table.name) \(filter) ORDER BY \(keyList) LIMIT \(limit)",
            binds: bindings)
        return try await fetch(query, on: connection) { c in
            let keyValues = try kinds.map { try Self.read($0, &c) }
            let values = try table.columns.map { try Self.read($0.kind, &c) }
            return (key: keyValues, values: values)
        }
    }

    /// Multi-row INSERTs of at most 60,000 parameters each (PostgreSQL takes 65,535).
    public func writeRows(_ table: CopyTable, _ rows: [[CopyValue]]) async throws {
        let width = table.columns.count
        let perStatement = max(1, 60_000 / width)
        try await transaction { connection in
            var start = 0
            while start < rows.count {
                let chunk = rows[start..<min(rows.count, start + perStatement)]
                var bindings = PostgresBindings()
                var tuples: [String] = []
                for (r, row) in chunk.enumerated() {
                    for value in row { Self.bind(value, to: &bindings) }
                    tuples.append("(" + (1...width).map { "$\(r * width + $0)" }.joined(separator: ", ") + ")")
                }
                try await execute(
                    PostgresQuery(
                        unsafeSQL:
                            "INSERT INTO \(table.name) (\(table.columnList)) VALUES \(tuples.joined(separator: ", "))",
                        binds: bindings),
                    on: connection)
                start += perStatement
            }
        }
    }

    /// Moves each id sequence past the largest copied id, so new rows do not collide.
    public func finishCopy() async throws {
        try await transaction { connection in
            for table in CopyTable.all where table.serialId {
                try await execute(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT setval(pg_get_serial_sequence('\(table.name.lowercased())', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM \(table.name)
                            """), on: connection)
            }
        }
    }

    static func read(_ kind: CopyTable.Kind, _ c: inout PostgresColumns) throws -> CopyValue {
        switch kind {
        case .int: return try c.next(Int64?.self).map(CopyValue.int) ?? .null
        case .double: return try c.next(Double?.self).map(CopyValue.double) ?? .null
        case .text: return try c.next(String?.self).map(CopyValue.text) ?? .null
        case .blob: return try c.next(Data?.self).map(CopyValue.blob) ?? .null
        case .bool: return try c.next(Bool?.self).map(CopyValue.bool) ?? .null
        }
    }

    /// Binds a value; NULL as text, which PostgreSQL casts to any column type.
    static func bind(_ value: CopyValue, to bindings: inout PostgresBindings) {
        switch value {
        case .null: bindings.appendNull()
        case .int(let v): bindings.append(v)
        case .double(let v): bindings.append(v)
        case .text(let v): bindings.append(v)
        case .blob(let v): bindings.append(ByteBuffer(data: v))
        case .bool(let v): bindings.append(v)
        }
    }
}

extension PostgresStore {
    /// Runs `body` with the tables as one snapshot sees them: every read inside is on one
    /// connection in one `REPEATABLE READ READ ONLY` transaction, so it sees the database as of
    /// its first read while other servers keep writing (`swipedeck backup`).
    public func withSnapshot<T: Sendable>(_ body: (any RawTables) async throws -> T) async throws -> T {
        try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            try await body(Snapshot(store: self, connection: connection))
        }
    }

    /// The reads of `RawTables` on a snapshot's connection; it takes no writes.
    struct Snapshot: RawTables {
        let store: PostgresStore
        let connection: PostgresConnection

        func rowCount(_ table: CopyTable) async throws -> Int {
            try await store.rowCount(table, on: connection)
        }

        func readRows(_ table: CopyTable, after: [CopyValue]?, limit: Int) async throws -> [(
            key: [CopyValue], values: [CopyValue]
        )] {
            try await store.readRows(table, after: after, limit: limit, on: connection)
        }

        func writeRows(_ table: CopyTable, _ rows: [[CopyValue]]) async throws {
            throw StoreCopier.Refusal(description: "A snapshot is read-only: copy into another database.")
        }

        func finishCopy() async throws {}
    }
}
