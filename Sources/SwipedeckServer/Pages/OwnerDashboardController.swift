import Foundation
import Hummingbird

/// `/owner`: the signed-in owner's decks with their activity, and their API tokens.
/// Every page here needs a session; without one it sends the browser to the sign-in page.
struct OwnerDashboardController: Sendable {
    let store: any Store
    let renderer: PageRenderer
    let clock: @Sendable () -> Double
    /// Tokens just created, held for the page the browser is redirected to.
    let flash = TokenFlash()

    /// Registers the pages on `pages`, the owner pages' group (`SessionOwnerMiddleware`: signed-in owners only).
    func register(on pages: RouterGroup<AppRequestContext>) {
        pages.get("/owner", use: dashboard)
        pages.get("/owner/tokens", use: tokens)
        pages.post("/owner/tokens", use: createToken)
        pages.post("/owner/tokens/:id/revoke", use: revokeToken)
    }

    struct DeckRow {
        let slug: String
        let title: String
        let cards: Int
        let swipes: Int
        let participants: Int
        let lastHour: Int
        let open: Bool
        let resultsPublic: Bool
        /// Under a stop rule: whether the deck is decided, and its cards decided out of its active
        /// ones ("3/5"); nil without a rule.
        let decided: Bool
        let deciding: String?
    }

    struct DashboardView {
        let kind = "owner"
        let pageTitle = "Your decks"
        let owner: String
        let csrf: String
        let decks: [DeckRow]
        let hasDecks: Bool
    }

    @Sendable func dashboard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.signedInOwner()
        var rows: [DeckRow] = []
        for a in try await store.activity(ownerId: owner.id, since: clock() - 3600) {
            // Only a deck with a stop rule has a state to show (its results are read for it).
            let decision = a.deck.stopRule.kind == .none ? nil : try await store.results(for: a.deck).decision
            rows.append(
                DeckRow(
                    slug: a.deck.slug, title: a.deck.title, cards: a.cards, swipes: a.swipes,
                    participants: a.participants, lastHour: a.lastHour, open: a.deck.isOpen,
                    resultsPublic: a.deck.resultsPublic, decided: decision?.deckDecided == true,
                    deciding: decision.flatMap { $0.deckDecided ? nil : "\($0.decidedCards)/\($0.activeCards)" }))
        }
        return try renderer.page(
            "owner-dashboard",
            DashboardView(owner: owner.name, csrf: OwnerForms.csrfToken(context), decks: rows, hasDecks: !rows.isEmpty))
    }

    struct TokenRow {
        let id: Int64
        let name: String
        let prefix: String
        let created: String
        let revoked: Bool
    }

    struct TokensView {
        let kind = "owner"
        let pageTitle = "API tokens"
        let owner: String
        let csrf: String
        let tokens: [TokenRow]
        /// The token just created: shown once.
        let created: String?
        let error: String?
        let hasTokens: Bool
    }

    @Sendable func tokens(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.signedInOwner()
        guard let key = request.cookies[TokenFlash.cookieName]?.value else {
            return try await tokensPage(owner, context, created: nil, error: nil)
        }
        // Taken, not read: a reload of this page shows the token no more, and creates none.
        let created = flash.take(key, ownerId: owner.id, now: clock())
        var response = try await tokensPage(owner, context, created: created, error: nil)
        response.setCookie(TokenFlash.cookie(""))
        return response
    }

    func tokensPage(
        _ owner: SessionOwner, _ context: AppRequestContext, created: String?, error: String?,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let rows = try await store.apiTokens(ownerId: owner.id).map { t in
            TokenRow(
                id: t.id, name: t.name, prefix: t.prefix, created: OwnerDashboardController.date(t.createdAt),
                revoked: t.revokedAt != nil)
        }
        return try renderer.page(
            "owner-tokens",
            TokensView(
                owner: owner.name, csrf: OwnerForms.csrfToken(context), tokens: rows, created: created, error: error,
                hasTokens: !rows.isEmpty),
            status: status)
    }

    struct NewToken: Decodable { var name: String }

    /// Creates the token, then redirects (POST-redirect-GET) to the tokens page, which shows it
    /// once from `flash`: reloading that page never posts the form again.
    @Sendable func createToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.signedInOwner()
        let form = try await OwnerForms.checked(NewToken.self, request, context)
        let name = form.name.trimmingCharacters(in: .whitespaces)
        guard DeckInput.isText(name, max: 100, required: true) else {
            return try await tokensPage(
                owner, context, created: nil, error: "Give the token a name of 1–100 characters.", status: .badRequest)
        }
        let token = Secret.token(prefix: ApiTokenFormat.prefix)
        let now = clock()
        try await store.createApiToken(
            ownerId: owner.id, name: name, tokenHash: Secret.sha256(token), prefix: String(token.prefix(10)), now: now)
        var response = Response.redirect(to: "/owner/tokens", type: .normal)
        response.setCookie(TokenFlash.cookie(flash.put(token, ownerId: owner.id, now: now)))
        return response
    }

    @Sendable func revokeToken(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.signedInOwner()
        _ = try await OwnerForms.checked(OwnerForms.Empty.self, request, context)
        guard let id = Int64(try context.parameters.require("id")) else { throw ApiError.notFound("token") }
        try await store.revokeApiToken(id: id, ownerId: owner.id, now: clock())
        return .redirect(to: "/owner/tokens", type: .normal)
    }

    /// A UTC date and time, e.g. "2026-11-24 10:15 UTC".
    static func date(_ seconds: Double) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return f.string(from: Date(timeIntervalSince1970: seconds))
    }
}
