import Foundation

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
            throw StoreLocationError(
                "The database URL \(PostgresLocation.redact(text)) names no database: end it with /DATABASE.")
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
