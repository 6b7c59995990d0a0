import Foundation
import Hummingbird

/// `/owner/decks/{deck}/webhooks`: the deck's webhooks for its owner — add one (URL and
/// events; a problem is said next to its field), its secret shown once after adding (held like
/// a new API token, `TokenFlash`), each hook's recent deliveries, and disabling.
struct OwnerWebhooksController: Sendable {
    let store: any Store
    let access: DeckAccess
    let renderer: PageRenderer
    let targets: WebhookTargetCheck
    let swipeNotices: SwipeNotices
    /// Reveals a new hook's signing secret from what the database stores.
    let secretKey: SecretKey
    let clock: @Sendable () -> Double
    /// Secrets of hooks just added, held for the page the browser is redirected to.
    let flash = TokenFlash()

    /// The cookie naming a held secret (scoped to the deck's webhooks page).
    static let cookieName = "sd_webhook_secret"
    /// Deliveries listed under each hook, newest first. Default 10: enough to see whether a
    /// receiver is failing now; the API's log (`GET …/deliveries`) has the rest.
    static let logRows = 10

    func register(on pages: RouterGroup<AppRequestContext>) {
        pages.get("/owner/decks/:deck/webhooks", use: page)
        pages.post("/owner/decks/:deck/webhooks", use: add)
        pages.post("/owner/decks/:deck/webhooks/:id/disable", use: disable)
    }

    static func path(_ slug: String) -> String { "/owner/decks/\(slug)/webhooks" }

    struct EventBox {
        let name: String
        let words: String
        let checked: Bool
    }

    struct DeliveryRow {
        let id: String
        let event: String
        let status: String
        let attempts: Int
        let created: String
        let next: String?
        let lastStatus: Int?
        let lastError: String?
    }

    struct HookRow {
        let id: Int64
        let url: String
        let events: String
        let created: String
        let enabled: Bool
        let disabled: String?
        let deliveries: [DeliveryRow]
        let hasDeliveries: Bool
    }

    struct View {
        let kind = "owner"
        let pageTitle: String
        let owner: String
        let csrf: String
        let slug: String
        let deckTitle: String
        let hooks: [HookRow]
        let hasHooks: Bool
        let eventBoxes: [EventBox]
        let url: String
        let urlError: String?
        let eventsError: String?
        let formError: String?
        /// The secret of the hook just added: shown once.
        let secret: String?
    }

    /// What an event means, for its checkbox.
    static func words(_ kind: DeckNoticeKind) -> String {
        switch kind {
        case .cardDecided: return "a card is decided (its stop rule reached yes, no or settled)"
        case .cardUndecided: return "a card told decided is deciding again (votes undone, voters left out)"
        case .deckDecided: return "the deck is decided"
        case .deckUndecided: return "a deck told decided is no longer"
        case .participantFlagged: return "a participant is flagged on known-answer cards"
        case .roomMatched: return "a room found a match"
        case .swipeCreated: return "swipes were made (batched: at most one delivery a second)"
        }
    }

    func render(
        _ deck: Deck, _ context: AppRequestContext, url: String = "", checked: Set<String> = [],
        urlError: String? = nil, eventsError: String? = nil, formError: String? = nil, secret: String? = nil,
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let owner = try context.signedInOwner()
        var rows: [HookRow] = []
        for hook in try await store.webhooks(deckId: deck.id).reversed() {
            let log = try await store.deliveries(hookId: hook.id, limit: Self.logRows).map { d in
                DeliveryRow(
                    id: d.id, event: d.event.rawValue, status: d.status.rawValue, attempts: d.attempts,
                    created: OwnerDashboardController.date(d.createdAt),
                    next: d.status == .pending ? OwnerDashboardController.date(d.nextAttemptAt) : nil,
                    lastStatus: d.lastStatus, lastError: d.lastError)
            }
            rows.append(
                HookRow(
                    id: hook.id, url: hook.url, events: hook.sortedEvents.map(\.rawValue).joined(separator: ", "),
                    created: OwnerDashboardController.date(hook.createdAt), enabled: hook.isEnabled,
                    disabled: hook.disabledAt.map(OwnerDashboardController.date), deliveries: log,
                    hasDeliveries: !log.isEmpty))
        }
        let view = View(
            pageTitle: "Webhooks · \(deck.title)", owner: owner.name, csrf: OwnerForms.csrfToken(context),
            slug: deck.slug, deckTitle: deck.title, hooks: rows, hasHooks: !rows.isEmpty,
            eventBoxes: DeckNoticeKind.allCases.map {
                EventBox(name: $0.rawValue, words: Self.words($0), checked: checked.contains($0.rawValue))
            }, url: url, urlError: urlError, eventsError: eventsError, formError: formError, secret: secret)
        var response = try renderer.page("owner-webhooks", view, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.signedInOwner()
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        guard let key = request.cookies[Self.cookieName]?.value else { return try await render(deck, context) }
        // Taken, not read: a reload shows the secret no more.
        let secret = flash.take(key, ownerId: owner.id, now: clock())
        var response = try await render(deck, context, secret: secret)
        response.setCookie(TokenFlash.cookie("", name: Self.cookieName, path: Self.path(deck.slug)))
        return response
    }

    @Sendable func add(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.signedInOwner()
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context)
        let url = form["url"] ?? ""
        let events = form.all("events")
        let now = clock()
        let hook: Webhook
        do {
            hook = try await WebhooksController.add(
                url: url, eventNames: events, deck: deck, ownerId: owner.id, store: store, targets: targets, now: now)
        } catch let error as ApiError {
            guard case .invalidField(let code, let message) = error else { throw error }
            let checked = Set(events)
            switch code {
            case "invalid_events":
                return try await render(
                    deck, context, url: url, checked: checked, eventsError: message, status: .badRequest)
            case "too_many_webhooks":
                return try await render(
                    deck, context, url: url, checked: checked, formError: message, status: .badRequest)
            default:
                return try await render(
                    deck, context, url: url, checked: checked, urlError: message, status: .badRequest)
            }
        }
        await swipeNotices.refresh()
        var response = Response.redirect(to: Self.path(deck.slug), type: .normal)
        response.setCookie(
            TokenFlash.cookie(
                flash.put(try secretKey.reveal(hook.secret, for: .webhook), ownerId: owner.id, now: now),
                name: Self.cookieName, path: Self.path(deck.slug)))
        return response
    }

    @Sendable func disable(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        _ = try await OwnerForms.checked(OwnerForms.Empty.self, request, context)
        guard let id = Int64(try context.parameters.require("id")) else { throw ApiError.notFound("webhook") }
        _ = try await store.disableWebhook(id: id, deckId: deck.id, now: clock())
        await swipeNotices.refresh()
        return .redirect(to: Self.path(deck.slug), type: .normal)
    }
}
