import Foundation

/// One value in transit between engines, typed as its `CopyTable.Kind` says.
public enum CopyValue: Sendable, Hashable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)
    case blob(Data)
    case bool(Bool)

    /// A canonical text of the value for checksums: the same value gives the same text on both
    /// engines (doubles by their bits, so -0.0 and 0.0 differ as they do in storage).
    var canonical: String {
        switch self {
        case .null: return "-"
        case .int(let v): return "i\(v)"
        case .double(let v): return "d" + String(v.bitPattern, radix: 16)
        case .text(let v): return "t\(v.utf8.count):" + v
        case .blob(let v): return "b" + Hex.string(v)
        case .bool(let v): return v ? "T" : "F"
        }
    }
}
