/// Storage failures that are not the client's fault.
public enum StorageError: Error, CustomStringConvertible {
    case pragmaNotApplied(String)
    /// The PostgreSQL database could not be reached or refused us: the location and the reason.
    case unreachable(String)
    /// A stored value this version does not know (a column, the value): a read error, never a default.
    case unknownStoredValue(String, String)

    public var description: String {
        switch self {
        case .pragmaNotApplied(let s): return "SQLite setting not applied: \(s)"
        case .unreachable(let s): return "PostgreSQL database not reachable: \(s)"
        case .unknownStoredValue(let column, let value): return "Unknown stored \(column): \(value)"
        }
    }
}
