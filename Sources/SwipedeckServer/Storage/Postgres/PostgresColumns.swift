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

    /// The next column, a text naming a case of `T` (the domain's enums are stored as their raw values).
    /// - Throws: `UnknownValue` when the text names no case: a row this server did not write,
    ///   which must not be read as some default.
    mutating func next<T: RawRepresentable>(_ type: T.Type = T.self) throws -> T where T.RawValue == String {
        let column = index
        let text = try next(String.self)
        guard let value = T(rawValue: text) else { throw UnknownValue(column: column, text: text, type: "\(T.self)") }
        return value
    }

    /// The next column, NULL or a text naming a case of `T` (as `next(_:)` for a nullable column).
    /// - Throws: `UnknownValue` when the text names no case.
    mutating func next<T: RawRepresentable>(_ type: T?.Type) throws -> T? where T.RawValue == String {
        let column = index
        guard let text = try next(String?.self) else { return nil }
        guard let value = T(rawValue: text) else { throw UnknownValue(column: column, text: text, type: "\(T.self)") }
        return value
    }

    /// The next column, a deck's counted inputs (`CountedInput.stored`'s text).
    /// - Throws: `UnknownValue` for an empty text or one naming an unknown kind.
    mutating func next(_ type: Set<CountedInput>.Type) throws -> Set<CountedInput> {
        let column = index
        let text = try next(String.self)
        guard let set = CountedInput.set(stored: text) else {
            throw UnknownValue(column: column, text: text, type: "\(type)")
        }
        return set
    }

    /// The next column, a deck's stop rule (`StopRule.stored`'s JSON).
    /// - Throws: `UnknownValue` for a text that is no stop rule.
    mutating func next(_ type: StopRule.Type) throws -> StopRule {
        let column = index
        let text = try next(String.self)
        guard let rule = StopRule(stored: text) else {
            throw UnknownValue(column: column, text: text, type: "StopRule")
        }
        return rule
    }

    /// A stored text that names no case of the type its column holds.
    struct UnknownValue: Error, CustomStringConvertible {
        /// Position of the column in the SELECT list, from 0.
        let column: Int
        let text: String
        let type: String

        var description: String { "Column \(column) holds \"\(text)\", which is no \(type)." }
    }
}
