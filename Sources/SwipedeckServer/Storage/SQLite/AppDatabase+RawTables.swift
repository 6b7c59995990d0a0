import Foundation
import GRDB

extension AppDatabase: RawTables {
    public func rowCount(_ table: CopyTable) async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.name)") ?? 0 }
    }

    public func readRows(_ table: CopyTable, after: [CopyValue]?, limit: Int) async throws -> [(
        key: [CopyValue], values: [CopyValue]
    )] {
        let key = table.key.isEmpty ? ["rowid"] : table.key
        let kinds: [CopyTable.Kind] = table.key.isEmpty ? [.int] : table.keyKinds
        let keyList = key.joined(separator: ", ")
        let filter = after == nil ? "" : "WHERE (\(keyList)) > (\(key.map { _ in "?" }.joined(separator: ", ")))"
        let sql =
            "SELECT \(keyList), \(table.columnList) FROM \(table.name) \(filter) ORDER BY \(keyList) LIMIT \(limit)"
        let arguments = StatementArguments((after ?? []).map(Self.databaseValue))
        return try await writer.read { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let keyValues = kinds.enumerated().map { Self.copyValue(row[$0.offset] as DatabaseValue, $0.element) }
                let values = table.columns.enumerated().map {
                    Self.copyValue(row[key.count + $0.offset] as DatabaseValue, $0.element.kind)
                }
                return (key: keyValues, values: values)
            }
        }
    }

    public func writeRows(_ table: CopyTable, _ rows: [[CopyValue]]) async throws {
        let sql =
            "INSERT INTO \(table.name) (\(table.columnList)) VALUES (\(table.columns.map { _ in "?" }.joined(separator: ", ")))"
        try await writer.write { db in
            let statement = try db.makeStatement(sql: sql)
            for row in rows { try statement.execute(arguments: StatementArguments(row.map(Self.databaseValue))) }
        }
    }

    /// Nothing to do: AUTOINCREMENT follows the largest id inserted.
    public func finishCopy() async throws {}

    static func copyValue(_ value: DatabaseValue, _ kind: CopyTable.Kind) -> CopyValue {
        if value.isNull { return .null }
        switch kind {
        case .int: return Int64.fromDatabaseValue(value).map(CopyValue.int) ?? .null
        case .double: return Double.fromDatabaseValue(value).map(CopyValue.double) ?? .null
        case .text: return String.fromDatabaseValue(value).map(CopyValue.text) ?? .null
        case .blob: return Data.fromDatabaseValue(value).map(CopyValue.blob) ?? .null
        case .bool: return Bool.fromDatabaseValue(value).map(CopyValue.bool) ?? .null
        }
    }

    static func databaseValue(_ value: CopyValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .int(let v): return v.databaseValue
        case .double(let v): return v.databaseValue
        case .text(let v): return v.databaseValue
        case .blob(let v): return v.databaseValue
        case .bool(let v): return v.databaseValue
        }
    }
}
