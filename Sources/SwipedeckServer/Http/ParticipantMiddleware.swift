import Foundation
import Hummingbird

/// Identifies anonymous browser participants by a random id in an HttpOnly, SameSite=Lax cookie,
/// assigning one on the first request that has none (or an invalid one). Installed outside
/// `ErrorMiddleware`, so every response to such a request sets the cookie: pages, API answers,
/// static files, and error responses (a 404 page, a 422 API error) alike.
struct ParticipantMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "sd_pid"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let v = request.cookies[Self.cookieName]?.value, Participant.isValidId(v) {
            context.participant = v
            return try await next(request, context)
        }
        let fresh = Self.newId()
        context.participant = fresh
        context.participantIsNew = true
        var response = try await next(request, context)
        response.setCookie(Cookie(name: Self.cookieName, value: fresh, maxAge: 60 * 60 * 24 * 365, path: "/", httpOnly: true, sameSite: .lax))
        return response
    }

    /// 128 random bits, hex.
    static func newId() -> String {
        var g = SystemRandomNumberGenerator()
        return "p" + String(format: "%016llx%016llx", g.next() as UInt64, g.next() as UInt64)
    }
}
