import PostgresNIO

/// Reads a row's columns in order: queries name their columns, decoders read them by position
/// (no name lookups per row, and the same order as the SELECT list).
struct PostgresColumns {
    private let row: PostgresRandomAccessRow
    private var index = 0

    init(_ row: PostgresRow) {
        self.row = row.makeRandomAccess()
    }

    /// The next column as `T` (an optional `T` for a nullable column).
    mutating func next<T: PostgresDecodable>(_ type: T.Type = T.self) throws -> T {
        defer { index += 1 }
        return try row[index].decode(T.self)
    }
}
