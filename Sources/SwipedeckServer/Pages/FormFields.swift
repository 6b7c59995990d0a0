import Foundation

/// An `application/x-www-form-urlencoded` body as name → values (in order; checkbox groups and
/// repeated names keep every value). `+` is a space; bad percent escapes are kept as written.
struct FormFields: Sendable {
    private var values: [String: [String]] = [:]

    init(_ body: String) {
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            values[name, default: []].append(value)
        }
    }

    static func decode(_ s: Substring) -> String {
        let spaced = s.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The first value of `name`, nil when absent.
    subscript(name: String) -> String? { values[name]?.first }

    /// Every value of `name` (empty when absent).
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Whether a checkbox `name` was sent (checked).
    func checked(_ name: String) -> Bool { values[name] != nil }
}
