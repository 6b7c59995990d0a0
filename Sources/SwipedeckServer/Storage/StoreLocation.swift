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
            throw StoreLocationError(
                "The database URL \(text) names an unknown engine: use a file path, sqlite:PATH or postgres://USER@HOST:PORT/DB."
            )
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
