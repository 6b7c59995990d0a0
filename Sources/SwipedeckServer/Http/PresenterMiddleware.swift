import Hummingbird
import Logging

/// Who runs a deck's big screen on a request (set by `PresenterMiddleware`): its owner signed
/// in, or whoever holds the deck's presenter link (`PresenterLink`).
public struct Presenter: Sendable, Equatable {
    /// The deck presented, as stored now.
    public let deck: Deck
    /// The presenter link's key the request came with; nil for the deck's owner, signed in.
    public let linkKey: String?

    /// The token the controls' form carries (`OwnerForms.checked(_:_:token:)`): the owner
    /// session's, or, on a presenter link, one derived from its key — a page on another site
    /// knows neither.
    public func csrf(_ context: AppRequestContext) -> String {
        linkKey.map { Secret.sha256("presenter-csrf:" + $0) } ?? OwnerForms.csrfToken(context)
    }
}

/// In front of the big screen's routes (`/d/{deck}/present…`): lets through the deck's owner
/// signed in by session, and whoever holds the deck's working presenter link — as `?key=` on a
/// GET, answered 303 to the same address without it and the key kept in the `sd_presenter`
/// cookie (HttpOnly, SameSite=Lax, scoped to the deck's presenter pages), then by that cookie —
/// with `context.presenter` set. Anybody else without an owner session is sent to sign in (as
/// `SessionOwnerMiddleware` does); another owner is refused 403 `not_your_deck`; a key that does
/// not open the deck's screen (revoked, replaced, another deck's, invented), 403
/// `presenter_link_revoked`. The check is made on every request against the stored link, so a
/// revoked link stops working at once on every server.
struct PresenterMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let cookieName = "sd_presenter"
    let access: DeckAccess
    let store: any Store
    let secretKey: SecretKey

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let offered = request.method == .get ? request.uri.queryParameters["key"].map(String.init) : nil
        let held = request.cookies[Self.cookieName]?.value
        let signedIn: Bool
        if case .owner(_, _, _?)? = context.owner { signedIn = true } else { signedIn = false }
        // Nobody who could present: to sign in, before the deck is looked up (its existence is not told).
        guard signedIn || offered != nil || held != nil else { return SessionOwnerMiddleware.signInRedirect(request) }
        let deck = try await access.current(try context.parameters.require("deck"))
        var context = context
        if signedIn, context.owner?.manages(deck) == true {
            context.presenter = Presenter(deck: deck, linkKey: nil)
            return try await next(request, context)
        }
        if let key = offered {
            guard try await opens(key, deck) else { throw ApiError.presenterLinkRevoked }
            // One leading slash: `//host/…` would send the browser to another host.
            var response = Response.redirect(to: "/" + request.uri.path.drop { $0 == "/" }, type: .normal)
            response.setCookie(Self.cookie(key, slug: deck.slug, secure: context.isHTTPS))
            response.headers[.cacheControl] = "no-store"
            return response
        }
        if let key = held {
            guard try await opens(key, deck) else { throw ApiError.presenterLinkRevoked }
            context.presenter = Presenter(deck: deck, linkKey: key)
            return try await next(request, context)
        }
        throw ApiError.notYourDeck
    }

    /// Whether `key` opens the big screen of `deck` now (its presentation's working link).
    func opens(_ key: String, _ deck: Deck) async throws -> Bool {
        guard let presentation = try await store.presentation(deckId: deck.id) else { return false }
        return presentation.presenterLink.opens(with: key, deckId: deck.id, secretKey: secretKey)
    }

    /// Whether `key` still opens deck `deck`'s screen, for a stream that checks before every
    /// event. A failure to read is logged and answers false: the stream closes, and the screen's
    /// page reconnects and is checked afresh.
    func stillOpens(_ key: String, _ deck: Deck, logger: Logger) async -> Bool {
        do {
            return try await opens(key, deck)
        } catch {
            logger.error(
                "big screen stream closed: link not checked", metadata: ["deck": "\(deck.slug)", "error": "\(error)"])
            return false
        }
    }

    /// The cookie that keeps a presenter link's key for the deck's presenter pages (12 hours:
    /// a day's session; the link itself opens them again).
    static func cookie(_ key: String, slug: String, secure: Bool) -> Cookie {
        Cookie(
            name: cookieName, value: key, maxAge: 12 * 3600, path: "/d/\(slug)/present", secure: secure,
            httpOnly: true, sameSite: .lax)
    }
}

extension AppRequestContext {
    /// The presenter `PresenterMiddleware` let through.
    /// - Throws: `unauthorized` on a route registered outside the presenter's group (a
    ///   programming error, answered as a refusal rather than trusted).
    func presenting() throws -> Presenter {
        guard let presenter else { throw ApiError.unauthorized }
        return presenter
    }
}
