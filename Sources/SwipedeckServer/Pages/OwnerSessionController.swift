import Foundation
import Hummingbird

/// Owner sign-in, sign-out and password change. Sessions live in an HttpOnly, SameSite=Strict
/// cookie holding a random token (the database keeps its SHA-256); sign-in attempts pass
/// `SignInGuard` (limits per address and per address and name, taken before bcrypt, refunded on
/// success; a few bcrypt checks at once); an unknown name is checked against `dummyHash`, so it
/// takes as long as a known one; every owner form carries a token derived from the session
/// (`OwnerForms.csrfToken`).
struct OwnerSessionController: Sendable {
    let store: any Store
    let renderer: PageRenderer
    let passwords: PasswordHasher
    /// Sign-in limits and the bound on concurrent password checks.
    let signInGuard: SignInGuard
    /// A bcrypt hash (at `passwords.cost`) of a random password nobody knows, verified for
    /// unknown names so that they cost what a known name costs.
    let dummyHash: String
    let clock: @Sendable () -> Double

    /// How long a session lasts, seconds (30 days).
    static let sessionLifetime: Double = 30 * 24 * 3600

    /// Registers signing in and out on `router` (open to anybody), the password pages on `pages`
    /// (`SessionOwnerMiddleware`: signed-in owners only).
    func register(on router: Router<AppRequestContext>, pages: RouterGroup<AppRequestContext>) {
        router.get("/owner/sign-in", use: signInPage)
        router.post("/owner/sign-in", use: signIn)
        router.post("/owner/sign-out", use: signOut)
        pages.get("/owner/password", use: passwordPage)
        pages.post("/owner/password", use: changePassword)
    }

    struct SignInView {
        let kind = "owner"
        let pageTitle = "Sign in"
        let next: String
        let name: String
        let error: String?
        /// Whether the page follows a sign-out (`?signed-out`): it says so.
        var signedOut = false
    }

    @Sendable func signInPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        if context.owner?.ownerId != nil {
            return .redirect(to: Self.safeNext(request.uri.queryParameters["next"].map(String.init)), type: .normal)
        }
        let next = Self.safeNext(request.uri.queryParameters["next"].map(String.init))
        let signedOut = request.uri.queryParameters["signed-out"] != nil
        return try renderer.page("owner-sign-in", SignInView(next: next, name: "", error: nil, signedOut: signedOut))
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
        let owner = Owner.isValidName(form.name) ? try await store.owner(named: form.name) : nil
        let passwords = passwords
        let hash = owner?.passwordHash ?? dummyHash
        let password = form.password
        let verdict = try await signInGuard.check(address: context.remoteAddress ?? "local", name: form.name, now: now)
        {
            // An unknown name is checked against the dummy hash (and fails): the same work as a known one.
            let matches = try await passwords.verify(password, hash: hash)
            return matches && owner != nil
        }
        switch verdict {
        case .refused(let wait):
            var response = try renderer.page(
                "owner-sign-in",
                SignInView(next: next, name: form.name, error: "Too many sign-ins to check. Try again in \(wait) s."),
                status: .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        case .checked(false):
            return try renderer.page(
                "owner-sign-in", SignInView(next: next, name: form.name, error: ApiError.invalidCredentials.message),
                status: .unauthorized)
        case .checked(true):
            break
        }
        guard let id = owner?.id else { throw ApiError.invalidCredentials }
        let token = Secret.token()
        try await store.startSession(
            ownerId: id, tokenHash: Secret.sha256(token), now: now, lifetime: Self.sessionLifetime)
        var response = Response.redirect(to: next, type: .normal)
        response.setCookie(
            Cookie(
                name: OwnerMiddleware.cookieName, value: token, maxAge: Int(Self.sessionLifetime), path: "/",
                httpOnly: true, sameSite: .strict))
        return response
    }

    @Sendable func signOut(_ request: Request, context: AppRequestContext) async throws -> Response {
        if case .owner(_, _, let session?) = context.owner {
            _ = try await OwnerForms.checked(OwnerForms.Empty.self, request, context)
            try await store.endSession(tokenHash: session, now: clock())
        }
        var response = Response.redirect(to: "/owner/sign-in?signed-out", type: .normal)
        response.setCookie(
            Cookie(name: OwnerMiddleware.cookieName, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict)
        )
        return response
    }

    struct PasswordView {
        let kind = "owner"
        let pageTitle = "Change password"
        let owner: String
        let csrf: String
        /// Sentences shown next to their field.
        let currentError: String?
        let newError: String?
        let changed: Bool
    }

    /// The change-password form of the signed-in owner.
    @Sendable func passwordPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.signedInOwner()
        let changed = request.uri.queryParameters["changed"] != nil
        return try renderer.page(
            "owner-password",
            PasswordView(
                owner: owner.name, csrf: OwnerForms.csrfToken(context), currentError: nil, newError: nil,
                changed: changed))
    }

    struct PasswordForm: Decodable {
        var current: String
        var new: String
    }

    /// Checks the current password (through `SignInGuard`, like a sign-in: a stolen session cannot
    /// guess it faster), applies `PasswordPolicy` to the new one, stores its hash and ends the
    /// owner's other sessions. 400 with the sentence next to the field for a refused new password,
    /// 401 for a wrong current one, 429 when the limits are spent; 303 to the page on success.
    @Sendable func changePassword(_ request: Request, context: AppRequestContext) async throws -> Response {
        let signedIn = try context.signedInOwner()
        let session = signedIn.sessionHash
        let form = try await OwnerForms.checked(PasswordForm.self, request, context)
        func page(current: String?, new: String?, status: HTTPResponse.Status) throws -> Response {
            try renderer.page(
                "owner-password",
                PasswordView(
                    owner: signedIn.name, csrf: OwnerForms.csrfToken(context), currentError: current, newError: new,
                    changed: false),
                status: status)
        }
        if let problem = PasswordPolicy.problem(form.new, name: signedIn.name) {
            return try page(current: nil, new: problem, status: .badRequest)
        }
        if form.new == form.current {
            return try page(current: nil, new: "Choose a password other than the current one.", status: .badRequest)
        }
        let now = clock()
        guard let owner = try await store.owner(named: signedIn.name), owner.id == signedIn.id else {
            throw ApiError.unauthorized
        }
        let passwords = passwords
        let current = form.current
        let verdict = try await signInGuard.check(address: context.remoteAddress ?? "local", name: owner.name, now: now)
        {
            try await passwords.verify(current, hash: owner.passwordHash)
        }
        switch verdict {
        case .refused(let wait):
            var response = try page(
                current: "Too many password checks. Try again in \(wait) s.", new: nil, status: .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        case .checked(false):
            return try page(current: "That is not your current password.", new: nil, status: .unauthorized)
        case .checked(true):
            break
        }
        let hash = try await passwords.hash(form.new)
        try await store.setPassword(ownerId: signedIn.id, passwordHash: hash, keeping: session, now: now)
        return .redirect(to: "/owner/password?changed=1", type: .normal)
    }

    /// A local path to go to after signing in, or `/owner`: never another site (`LocalPath`
    /// refuses `//host`, `/\host`, `/%09/host` and their percent-encoded forms).
    static func safeNext(_ next: String?) -> String {
        guard let next, LocalPath.isSafe(next, maxLength: 500) else { return "/owner" }
        return next
    }
}
