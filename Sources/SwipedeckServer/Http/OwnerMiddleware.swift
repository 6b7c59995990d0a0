import Foundation
import Hummingbird

/// Sets `context.owner` from `Authorization: Bearer` (the admin token, known by its SHA-256
/// only, or an owner's API token)
/// or from the owner session cookie. A wrong token leaves the request anonymous; routes that
/// need an owner then answer 401. Reads the database only when a token or cookie is present.
struct OwnerMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "sd_owner"
    let store: any Store
    /// SHA-256 (hex) of the admin token.
    let adminTokenHash: String
    let clock: @Sendable () -> Double

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        if let auth = request.headers[.authorization], auth.hasPrefix("Bearer ") {
            let token = String(auth.dropFirst(7))
            if Secret.constantTimeEqual(Secret.sha256(token), adminTokenHash) {
                context.owner = .admin
            } else if token.hasPrefix(ApiTokenFormat.prefix),
                let owner = try await store.tokenOwner(tokenHash: Secret.sha256(token))
            {
                context.owner = .owner(id: owner.id, name: owner.name, sessionHash: nil)
            }
        } else if let value = request.cookies[Self.cookieName]?.value, value.utf8.count == 64 {
            let hash = Secret.sha256(value)
            if let owner = try await store.sessionOwner(tokenHash: hash, now: clock()) {
                context.owner = .owner(id: owner.id, name: owner.name, sessionHash: hash)
            }
        }
        return try await next(request, context)
    }
}

/// The admin token's stored form.
public enum AdminToken {
    /// The `settings` key of the admin token's SHA-256 (hex). The plaintext key `adminToken`
    /// of older versions is turned into this one by a migration (SQLite v6, PostgreSQL v2).
    public static let settingKey = "adminTokenHash"
    /// The key older versions kept the plaintext token under; gone after the migration.
    public static let legacySettingKey = "adminToken"
}

/// API tokens look like `sdt_` + 64 hex digits; the prefix tells them from the admin token.
enum ApiTokenFormat {
    static let prefix = "sdt_"
}
