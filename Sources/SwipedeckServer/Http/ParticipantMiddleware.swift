import Foundation
import Hummingbird

/// Identifies anonymous browser participants by a random id in an HttpOnly, SameSite=Lax cookie,
/// assigning one on the first request that has none (or an invalid one). Installed outside
/// `ErrorMiddleware`, so every response to such a request sets the cookie: pages, API answers and
/// error responses (a 404 page, a 422 API error) alike. Static assets (`isAsset`) never mint one:
/// they are the same for everybody, and a `Set-Cookie` would keep shared caches from storing them.
struct ParticipantMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "sd_pid"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let v = request.cookies[Self.cookieName]?.value, Participant.isValidId(v) {
            context.participant = v
            return try await next(request, context)
        }
        if Self.isAsset(request.uri.path) { return try await next(request, context) }
        let fresh = Self.newId()
        context.participant = fresh
        context.participantIsNew = true
        var response = try await next(request, context)
        response.setCookie(Cookie(name: Self.cookieName, value: fresh, maxAge: 60 * 60 * 24 * 365, path: "/", httpOnly: true, sameSite: .lax))
        return response
    }

    /// Scripts, stylesheets (the per-profile stack CSS too), images and the OpenAPI document.
    static func isAsset(_ path: String) -> Bool {
        path.hasPrefix("/js/") || path.hasPrefix("/css/") || path.hasPrefix("/img/") || path == "/openapi.json"
    }

    /// 128 random bits, hex.
    static func newId() -> String {
        var g = SystemRandomNumberGenerator()
        return "p" + String(format: "%016llx%016llx", g.next() as UInt64, g.next() as UInt64)
    }
}
