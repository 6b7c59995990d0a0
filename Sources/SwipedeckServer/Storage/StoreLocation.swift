import Foundation

/// Where the data lives, parsed from `--database` / `SWIPEDECK_DATABASE_URL`:
/// - a path, or `sqlite:PATH` / `sqlite://PATH`: SQLite in that file (created if missing);
/// - `postgres://USER[:PASSWORD]@HOST[:PORT]/DB` (or `postgresql://`): PostgreSQL. Query options:
///   `sslmode` = `disable`, `prefer` (default) or `require`; `pool` = most connections this
///   server opens (default 16); `host=/socket/dir` for a Unix socket instead of TCP (libpq's
///   convention; the socket is `DIR/.s.PGSQL.PORT`).
public enum StoreLocation: Sendable, Equatable {
    case sqlite(path: String)
    case postgres(PostgresLocation)

    /// Parses a location. - Throws: `StoreLocationError` naming what is wrong, as a sentence.
    public init(_ text: String) throws {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(url: text))
        } else if text.hasPrefix("sqlite://") {
            self = .sqlite(path: String(text.dropFirst("sqlite://".count)))
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else if text.contains("://") {
            throw StoreLocationError("The database URL \(text) names an unknown engine: use a file path, sqlite:PATH or postgres://USER@HOST:PORT/DB.")
        } else {
            self = .sqlite(path: text)
        }
        if case .sqlite(let path) = self, path.isEmpty {
            throw StoreLocationError("The SQLite database path is empty.")
        }
    }

    /// The location without its password, for logs.
    public var redacted: String {
        switch self {
        case .sqlite(let path): return "sqlite:" + path
        case .postgres(let p): return p.redacted
        }
    }
}

/// A PostgreSQL server and database, from a `postgres://` URL.
public struct PostgresLocation: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// Directory of the server's Unix socket; nil for TCP.
    public var socketDirectory: String?
    public var user: String
    public var password: String?
    public var database: String
    /// `disable`, `prefer` or `require`.
    public var sslMode: String
    /// Most connections this server opens at once.
    public var poolSize: Int

    public init(url text: String) throws {
        guard let url = URLComponents(string: text), url.scheme == "postgres" || url.scheme == "postgresql" else {
            throw StoreLocationError("The database URL \(text) is not a valid postgres:// URL.")
        }
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        socketDirectory = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        host = url.host.flatMap { $0.isEmpty ? nil : $0 } ?? (socketDirectory == nil ? "127.0.0.1" : "")
        port = url.port ?? 5432
        user = url.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        password = url.password.flatMap { $0.removingPercentEncoding }
        let path = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        guard !path.isEmpty, !path.contains("/") else {
            throw StoreLocationError("The database URL \(PostgresLocation.redact(text)) names no database: end it with /DATABASE.")
        }
        database = path.removingPercentEncoding ?? path
        sslMode = query["sslmode"] ?? "prefer"
        guard ["disable", "prefer", "require"].contains(sslMode) else {
            throw StoreLocationError("sslmode must be disable, prefer or require, not \(sslMode).")
        }
        if let pool = query["pool"] {
            guard let n = Int(pool), (1...500).contains(n) else {
                throw StoreLocationError("pool must be a number of connections from 1 to 500, not \(pool).")
            }
            poolSize = n
        } else {
            poolSize = 16
        }
    }

    /// The URL as given, without a password.
    public var redacted: String {
        let place = socketDirectory.map { "?host=\($0)" } ?? ""
        return "postgres://\(user)@\(host):\(port)/\(database)\(place)"
    }

    static func redact(_ text: String) -> String {
        guard var url = URLComponents(string: text) else { return "(unparsable URL)" }
        if url.password != nil { url.password = "***" }
        return url.string ?? "(unparsable URL)"
    }
}

/// A database location that cannot be used, described as a sentence.
public struct StoreLocationError: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}
