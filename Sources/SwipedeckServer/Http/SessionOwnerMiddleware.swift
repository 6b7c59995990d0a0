import Foundation
import Hummingbird

/// The owner signed in by session (the `sd_owner` cookie) on an owner page.
public struct SessionOwner: Sendable, Equatable {
    public let id: Int64
    public let name: String
    /// SHA-256 (hex) of the session token: the session to end on sign-out or password change.
    public let sessionHash: String
}

/// In front of every owner page (`/owner/…` but signing in and out): lets a request with an
/// owner session through, with the owner in `context.sessionOwner`, and sends any other
/// (nobody, the admin token, an API token: pages are for people) to the sign-in page, which
/// returns to the page asked for. Runs after `OwnerMiddleware`, which reads the session.
struct SessionOwnerMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard case .owner(let id, let name, let sessionHash?) = context.owner else {
            return Self.signInRedirect(request)
        }
        var context = context
        context.sessionOwner = SessionOwner(id: id, name: name, sessionHash: sessionHash)
        return try await next(request, context)
    }

    /// 303 to the sign-in page, with the path asked for as `next`.
    static func signInRedirect(_ request: Request) -> Response {
        let next = request.uri.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "/owner"
        return .redirect(to: "/owner/sign-in?next=\(next)", type: .normal)
    }
}

extension AppRequestContext {
    /// The session owner `SessionOwnerMiddleware` let through.
    /// - Throws: `unauthorized` on a route registered outside the owner pages' group (a
    ///   programming error, answered as a refusal rather than trusted).
    func signedInOwner() throws -> SessionOwner {
        guard let sessionOwner else { throw ApiError.unauthorized }
        return sessionOwner
    }
}
