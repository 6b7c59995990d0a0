import Foundation
import Hummingbird

/// Sharing a deck: its absolute link as a QR code drawn on the server (`/d/{deck}/qr.svg`, for
/// anybody: the link is public), and the owner's share panel with the link, a copy button and
/// the code — for a deck that takes invited people only, the secret link and its QR code
/// (`/owner/decks/{deck}/invite.svg`), the one-time codes and their printable sheet
/// (`/owner/decks/{deck}/codes`), or how to sign an allow list's links.
struct ShareController: Sendable {
    let store: any Store
    let catalog: Catalog
    let access: DeckAccess
    let clock: @Sendable () -> Double
    let renderer: PageRenderer
    /// `AppConfiguration.publicBaseURL`: the origin people reach the server at, if configured.
    let publicBaseURL: String?
    /// `AppConfiguration.basePath`: the sub-path the app is served under.
    let basePath: String
    /// Reveals the deck's access secret from what the database stores.
    let secretKey: SecretKey

    /// Registers the public QR code on `router`, the owner's share panel and codes on `pages`
    /// (`SessionOwnerMiddleware`: signed-in owners only).
    func register(on router: Router<AppRequestContext>, pages: RouterGroup<AppRequestContext>) {
        router.get("/d/:deck/qr.svg", use: qrCode)
        pages.get("/owner/decks/:deck/share", use: sharePanel)
        pages.get("/owner/decks/:deck/invite.svg", use: invitationCode)
        pages.get("/owner/decks/:deck/codes", use: codeSheet)
        pages.post("/owner/decks/:deck/codes", use: makeCodes)
        pages.post("/owner/decks/:deck/expected", use: saveExpected)
    }

    /// `path` (a path on this server) as an absolute link, as `deckLink` makes one.
    func absolute(_ path: String, _ context: AppRequestContext) -> String {
        String(deckLink("", context).dropLast(3)) + path
    }

    /// The working presenter link of `deck` to `page` (`present` or `present/remote`), absolute;
    /// nil when it has none.
    func presenterURL(_ deck: Deck, _ presentation: Presentation?, page: String, _ context: AppRequestContext)
        -> String?
    {
        guard let key = presentation?.presenterLink.key(deckId: deck.id, secretKey: secretKey) else { return nil }
        return absolute("/d/\(deck.slug)/\(page)?key=\(key)", context)
    }

    /// An SVG QR code of `link`.
    func qrResponse(_ link: String) throws -> Response {
        let code: QRCode
        do {
            code = try QRCode(encoding: link)
        } catch {
            // A Host header long enough to overflow a QR code is the client's doing.
            throw ApiError.invalidField(
                code: "link_too_long", message: "The deck's link is too long for a QR code: \(error)")
        }
        return Response(
            status: .ok,
            // The link depends on the Host header, so caches must not share it across hosts.
            headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-cache", .vary: "Host"],
            body: .init(byteBuffer: ByteBuffer(string: code.svg(title: "QR code for \(link)"))))
    }

    /// The secret link of an `unlisted` deck as a QR code (its owner's only).
    @Sendable func invitationCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        var response = try qrResponse(absolute(try AccessController.invitation(deck, secretKey: secretKey), context))
        response.headers[.cacheControl] = "no-store"
        return response
    }

    struct CodeView {
        let code: String
        let link: String
        let svg: String
    }

    /// Every code of the deck with its link and QR code, to print and cut out.
    @Sendable func codeSheet(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let codes = try await store.accessCodes(deckId: deck.id).map { code -> CodeView in
            let link = absolute("/d/\(deck.slug)?code=\(AccessCode.shown(code))", context)
            // Too long a host: the code is printed without QR.
            let svg = (try? QRCode(encoding: link))?.svg(title: "QR code for \(link)") ?? ""
            return CodeView(code: AccessCode.shown(code), link: link, svg: svg)
        }
        let view: [String: Any] = [
            "kind": "owner", "pageTitle": "Codes · \(deck.title)", "slug": deck.slug, "title": deck.title,
            "codes": codes,
            "hasCodes": !codes.isEmpty, "active": deck.access == .codes, "csrf": OwnerForms.csrfToken(context),
        ]
        var response = try renderer.page("owner-codes", view)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    struct MakeCodesForm: Decodable { var count: String }

    @Sendable func makeCodes(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.checked(MakeCodesForm.self, request, context)
        guard let count = Int(form.count.trimmingCharacters(in: .whitespaces)) else {
            throw ApiError.invalidField(
                code: "invalid_count",
                message: "How many codes must be a whole number from 1 to \(AccessCode.maxPerRequest).")
        }
        _ = try await AccessController.make(count, for: deck, store, now: clock())
        return .redirect(to: "/owner/decks/\(deck.slug)/codes", type: .normal)
    }

    /// The deck's absolute link: the configured public base URL, else the scheme and host the
    /// client used (a trusted proxy's forwarded ones: `ClientOrigin`).
    func deckLink(_ slug: String, _ context: AppRequestContext) -> String {
        if let base = publicBaseURL { return base + basePath + "/d/" + slug }
        return "\(context.isHTTPS ? "https" : "http")://\(context.host ?? "localhost")\(basePath)/d/\(slug)"
    }

    @Sendable func qrCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        return try qrResponse(deckLink(deck.slug, context))
    }

    struct ShareView {
        let kind = "owner"
        let pageTitle: String
        let owner: String
        let csrf: String
        let slug: String
        let title: String
        let link: String
        let open: Bool
        /// The deck's access mode in words, and what to share in it.
        let accessWords: String
        let unlisted: Bool
        let codes: Bool
        let codeCount: Int
        let allowList: Bool
        let signatureKey: String
        let exampleLink: String
        /// The host of `link` when phones elsewhere cannot reach it (`LinkReach`), else nil.
        let thisComputer: String?
        let sameNetwork: String?
        /// The deck's expected people (`joinLimit`) as typed, or empty for the server's budget.
        let expected: String
        /// Why the expected people were not saved, if so.
        let expectedError: String?
        /// Just saved.
        let expectedSaved: Bool
        /// The presenter link to the big screen and to its remote (nil without a working one), and
        /// whether one was made before (a revoked link is gone, not forgotten).
        let presenterScreen: String?
        let presenterRemote: String?
        let presenterRevoked: Bool
    }

    @Sendable func sharePanel(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        return try await panel(
            deck, context, expected: deck.joinLimit.map(String.init) ?? "", error: nil,
            saved: request.uri.queryParameters["saved"] != nil, status: .ok)
    }

    /// The share panel of `deck`, its expected people field showing `expected` (and `error`).
    func panel(
        _ deck: Deck, _ context: AppRequestContext, expected: String, error: String?, saved: Bool,
        status: HTTPResponse.Status
    ) async throws -> Response {
        let owner = try context.signedInOwner()
        let codeCount = try await store.accessCodes(deckId: deck.id).count
        let example = "alice@example.org"
        let link = absolute(try AccessController.invitation(deck, secretKey: secretKey), context)
        let secret = try secretKey.accessSecret(of: deck) ?? ""
        let host = URL(string: link)?.host ?? ""
        let reach = LinkReach(link: link)
        let presentation = try await store.presentation(deckId: deck.id)
        let presenterScreen = presenterURL(deck, presentation, page: "present", context)
        let view = ShareView(
            pageTitle: "Share · \(deck.title)", owner: owner.name, csrf: OwnerForms.csrfToken(context), slug: deck.slug,
            title: deck.title,
            link: link, open: deck.isOpen, accessWords: deck.access.words,
            unlisted: deck.access == .unlisted, codes: deck.access == .codes, codeCount: codeCount,
            allowList: deck.access == .allowList,
            signatureKey: deck.access == .allowList ? secret : "",
            exampleLink: absolute(
                "/d/\(deck.slug)?pid=\(example)&sig=\(ParticipantSigner.externalSignature(pid: example, accessSecret: secret))",
                context),
            thisComputer: reach == .thisComputer ? host : nil, sameNetwork: reach == .sameNetwork ? host : nil,
            expected: expected, expectedError: error, expectedSaved: saved, presenterScreen: presenterScreen,
            presenterRemote: presenterURL(deck, presentation, page: "present/remote", context),
            presenterRevoked: presenterScreen == nil && (presentation?.presenterLink.generation ?? 0) > 0)
        return try renderer.page("owner-share", view, status: status)
    }

    /// Saves the deck's expected people (`joinLimit`: empty for the server's budget) from the share
    /// panel's form, as the settings form would (an event in the deck's log), and shows the panel again.
    @Sendable func saveExpected(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context)
        do {
            var patch = DeckPatch()
            patch.joinLimit = .some(
                try DeckFormView.wholeNumber(
                    form["joinLimit"], code: "invalid_join_limit",
                    "People expected must be a whole number from 1 to \(DeckPatch.maxJoinLimit), or empty for the server's budget."
                ))
            _ = try await store.updateDeck(
                id: deck.id, patch, by: context.owner?.ownerId, detail: OwnerDecksController.describe, now: clock())
        } catch {
            guard let error = ApiError.of(error) else { throw error }
            return try await panel(
                deck, context, expected: form["joinLimit"] ?? "", error: error.message, saved: false,
                status: error.status)
        }
        return .redirect(to: "/owner/decks/\(deck.slug)/share?saved=1", type: .normal)
    }
}
