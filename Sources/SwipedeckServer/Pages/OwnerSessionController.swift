import Foundation
import Hummingbird

/// Owner sign-in and sign-out. Sessions live in an HttpOnly, SameSite=Strict cookie holding a
/// random token (the database keeps its SHA-256); failed sign-ins are rate-limited per IP and per
/// name; every owner form carries a token derived from the session (`OwnerForms.csrfToken`).
struct OwnerSessionController: Sendable {
    let database: any SwipeStore
    let renderer: PageRenderer
    let passwords: PasswordHasher
    /// Failed sign-ins per IP and per owner name.
    let signInLimiter: RateLimiter
    let clock: @Sendable () -> Double

    /// How long a session lasts, seconds (30 days).
    static let sessionLifetime: Double = 30 * 24 * 3600

    func register(on router: Router<AppRequestContext>) {
        router.get("/owner/sign-in", use: signInPage)
        router.post("/owner/sign-in", use: signIn)
        router.post("/owner/sign-out", use: signOut)
    }

    struct SignInView {
        let kind = "owner"
        let pageTitle = "Sign in"
        let next: String
        let name: String
        let error: String?
    }

    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if context.owner?.ownerId != nil { return .redirect(to: Self.safeNext(request.uri.queryParameters["next"].map(String.init)), type: .normal) }
        let next = Self.safeNext(request.uri.queryParameters["next"].map(String.init))
        return renderer.page("owner-sign-in", SignInView(next: next, name: "", error: nil))
    }

    struct SignInForm: Decodable {
        var name: String
        var password: String
        var next: String?
    }

    @Sendable func signIn(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await OwnerForms.decode(SignInForm.self, request)
        let next = Self.safeNext(form.next)
        let now = clock()
        let keys = ["ip:" + (context.remoteAddress ?? "local"), "name:" + form.name.lowercased()]
        if let wait = keys.compactMap({ signInLimiter.peek($0, now: now) }).max() {
            var response = renderer.page(
                "owner-sign-in", SignInView(next: next, name: form.name, error: "Too many failed sign-ins. Try again in \(wait) s."),
                status: .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        guard let owner = try await database.owner(named: form.name), let id = owner.id,
            try await passwords.verify(form.password, hash: owner.passwordHash)
        else {
            for key in keys { _ = signInLimiter.take(key, now: now) }
            return renderer.page(
                "owner-sign-in", SignInView(next: next, name: form.name, error: ApiError.invalidCredentials.message), status: .unauthorized)
        }
        let token = Secret.token()
        try await database.startSession(ownerId: id, tokenHash: Secret.sha256(token), now: now, lifetime: Self.sessionLifetime)
        var response = Response.redirect(to: next, type: .normal)
        response.setCookie(Cookie(
            name: OwnerMiddleware.cookieName, value: token, maxAge: Int(Self.sessionLifetime), path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        if case .owner(_, _, let session?) = context.owner {
            _ = try await OwnerForms.checked(OwnerForms.Empty.self, request, context)
            try await database.endSession(tokenHash: session, now: clock())
        }
        var response = Response.redirect(to: "/owner/sign-in", type: .normal)
        response.setCookie(Cookie(name: OwnerMiddleware.cookieName, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict))
        return response
    }

    /// A local path to go to after signing in, or `/owner`: never another site (`LocalPath`
    /// refuses `//host`, `/\host`, `/%09/host` and their percent-encoded forms).
    static func safeNext(_ next: String?) -> String {
        guard let next, LocalPath.isSafe(next, maxLength: 500) else { return "/owner" }
        return next
    }
}
