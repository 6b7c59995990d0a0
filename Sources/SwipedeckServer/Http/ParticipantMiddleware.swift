import Foundation
import Hummingbird

/// Identifies anonymous browser participants by a server-signed id in an HttpOnly, SameSite=Lax
/// cookie. Installed outside `ErrorMiddleware`, so an error response also sets a new cookie.
///
/// - A cookie the server issued (signed, or a legacy id stored before signing) is used as is.
/// - A cookie it did not issue is ignored and flagged (`participantRejected`): a swipe relying
///   on it gets 403 `unknown_participant`; a page view replaces it with a fresh one.
/// - A fresh id is minted only for page views (GET or HEAD of a non-asset path), within the
///   per-IP mint limit (the one `POST …/participants` uses); past it the page is served without
///   one. Static assets never mint: a `Set-Cookie` would keep shared caches from storing them.
struct ParticipantMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "sd_pid"
    let verifier: ParticipantVerifier
    let mintLimiter: RateLimiter
    let clock: @Sendable () -> Double

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let value = request.cookies[Self.cookieName]?.value {
            if (try? await verifier.isKnown(value)) == true {
                context.participant = value
                return try await next(request, context)
            }
            context.participantRejected = true
        }
        guard request.method == .get || request.method == .head, !Self.isAsset(request.uri.path) else {
            return try await next(request, context)
        }
        let now = clock()
        if let ip = context.remoteAddress, mintLimiter.take("mint:" + ip, now: now) != nil {
            return try await next(request, context)
        }
        let fresh = verifier.signer.mint(now: now)
        context.participant = fresh
        context.participantIsNew = true
        context.participantRejected = false
        var response = try await next(request, context)
        response.setCookie(Cookie(name: Self.cookieName, value: fresh, maxAge: 60 * 60 * 24 * 365, path: "/", httpOnly: true, sameSite: .lax))
        return response
    }

    /// Scripts, stylesheets (the per-profile stack CSS too), images (QR codes too), the OpenAPI
    /// document and the health check.
    static func isAsset(_ path: String) -> Bool {
        path.hasPrefix("/js/") || path.hasPrefix("/css/") || path.hasPrefix("/img/") || path.hasPrefix("/images/")
            || path.hasSuffix("/qr.svg") || path == "/openapi.json" || path == "/healthz"
    }
}
