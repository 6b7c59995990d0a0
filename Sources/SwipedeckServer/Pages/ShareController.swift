import Foundation
import Hummingbird

/// Sharing a deck: its absolute link as a QR code drawn on the server (`/d/{deck}/qr.svg`, for
/// anybody: the link is public), and the owner's share panel with the link, a copy button and
/// the code.
struct ShareController: Sendable {
    let catalog: Catalog
    let access: DeckAccess
    let renderer: PageRenderer
    /// `AppConfiguration.publicBaseURL`: the origin people reach the server at, if configured.
    let publicBaseURL: String?

    func register(on router: Router<AppRequestContext>) {
        router.get("/d/:deck/qr.svg", use: qrCode)
        router.get("/owner/decks/:deck/share", use: sharePanel)
    }

    /// The deck's absolute link: the configured public base URL, else this request's host
    /// (`X-Forwarded-Proto: https` from a reverse proxy makes it https).
    func deckLink(_ slug: String, _ request: Request) -> String {
        if let base = publicBaseURL { return base + "/d/" + slug }
        let scheme = request.headers[.init("X-Forwarded-Proto")!] == "https" ? "https" : "http"
        // HTTP/1.1 carries the host as a `Host` field; HTTP/2 and the NIO HTTP/1 codec as `:authority`.
        let host = request.headers[.init("Host")!] ?? request.head.authority ?? "localhost"
        return "\(scheme)://\(host)/d/\(slug)"
    }

    @Sendable func qrCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try await context.parameters.require("deck"))
        let link = deckLink(deck.slug, request)
        let code: QRCode
        do {
            code = try QRCode(encoding: link)
        } catch {
            // A Host header long enough to overflow a QR code is the client's doing.
            throw ApiError.invalidField(code: "link_too_long", message: "The deck's link is too long for a QR code: \(error)")
        }
        return Response(
            status: .ok,
            // The link depends on the Host header, so caches must not share it across hosts.
            headers: [.contentType: "image/svg+xml; charset=utf-8", .cacheControl: "no-cache", .vary: "Host"],
            body: .init(byteBuffer: ByteBuffer(string: code.svg(title: "QR code for \(link)"))))
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
    }

    @Sendable func sharePanel(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let owner = OwnerDashboardController.signedIn(context) else { return OwnerDashboardController.signInRedirect(request) }
        let deck = try await access.managed(try await context.parameters.require("deck"), context)
        let view = ShareView(
            pageTitle: "Share · \(deck.title)", owner: owner.name, csrf: OwnerForms.csrfToken(context), slug: deck.slug, title: deck.title,
            link: deckLink(deck.slug, request), open: deck.isOpen)
        return renderer.page("owner-share", view)
    }
}
