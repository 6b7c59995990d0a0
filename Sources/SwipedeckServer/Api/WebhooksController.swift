import Foundation
import Hummingbird

/// A deck's webhooks, for its owner (`DeckAccess.managed`, like the results):
/// `POST /api/v1/decks/{deck}/webhooks` registers a URL for some events and answers its secret,
/// once; `GET …/webhooks` lists them; `DELETE …/webhooks/{id}` disables one (its log stays);
/// `GET …/webhooks/{id}/deliveries` is its delivery log.
struct WebhooksController: Sendable {
    let store: any Store
    let access: DeckAccess
    let decoding: RequestDecoding
    let targets: WebhookTargetCheck
    let swipeNotices: SwipeNotices
    /// Reveals a new hook's signing secret from what the database stores.
    let secretKey: SecretKey
    let clock: @Sendable () -> Double

    /// Most enabled hooks one deck may have. Default 10: a few receivers per deck, and a bound on
    /// the deliveries one event makes.
    static let maxPerDeck = 10
    /// Deliveries a log answer lists by default (100: a day of hourly retries of a few events)
    /// and at most (500: one answer stays under about 200 KB).
    static let defaultLogLimit = 100
    static let maxLogLimit = 500

    func register(on router: Router<AppRequestContext>) {
        router.post("/api/v1/decks/:deck/webhooks", use: create)
        router.get("/api/v1/decks/:deck/webhooks", use: list)
        router.delete("/api/v1/decks/:deck/webhooks/:id", use: disable)
        router.get("/api/v1/decks/:deck/webhooks/:id/deliveries", use: deliveries)
    }

    struct WebhookJSON: ResponseEncodable {
        let id: Int64
        let url: String
        let events: [String]
        let createdAt: Double
        let disabledAt: Double?
        /// The signing secret: in the answer that created the hook only.
        let secret: String?

        /// - Parameter secret: the hook's revealed secret, for the answer that created it; nil otherwise.
        init(_ hook: Webhook, secret: String? = nil) {
            id = hook.id
            url = hook.url
            events = hook.sortedEvents.map(\.rawValue)
            createdAt = hook.createdAt
            disabledAt = hook.disabledAt
            self.secret = secret
        }
    }

    struct DeliveryJSON: Encodable {
        let id: String
        let event: String
        let status: String
        let attempts: Int
        let createdAt: Double
        /// When the next attempt is due; null once delivered, failed or cancelled.
        let nextAttemptAt: Double?
        let lastAttemptAt: Double?
        let lastStatus: Int?
        let lastError: String?
        let deliveredAt: Double?

        init(_ d: WebhookDelivery) {
            id = d.id
            event = d.event.rawValue
            status = d.status.rawValue
            attempts = d.attempts
            createdAt = d.createdAt
            nextAttemptAt = d.status == .pending ? d.nextAttemptAt : nil
            lastAttemptAt = d.lastAttemptAt
            lastStatus = d.lastStatus
            lastError = d.lastError
            deliveredAt = d.deliveredAt
        }
    }

    struct NewWebhook: Decodable {
        var url: String
        var events: [String]
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<WebhookJSON> {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let body = try await decoding.decodeJSON(NewWebhook.self, from: request)
        let hook = try await Self.add(
            url: body.url, eventNames: body.events, deck: deck, ownerId: context.owner?.ownerId, store: store,
            targets: targets, now: clock())
        await swipeNotices.refresh()
        return EditedResponse(
            status: .created, response: WebhookJSON(hook, secret: try secretKey.reveal(hook.secret, for: .webhook)))
    }

    /// The events `names` name. - Throws: `invalid_events` for none or an unknown one.
    static func events(_ names: [String]) throws -> Set<DeckNoticeKind> {
        var events: Set<DeckNoticeKind> = []
        for name in names {
            guard let kind = DeckNoticeKind(rawValue: name) else {
                throw ApiError.invalidField(
                    code: "invalid_events",
                    message:
                        "\"\(name.prefix(100))\" is no event; choose from \(DeckNoticeKind.allCases.map(\.rawValue).joined(separator: ", "))."
                )
            }
            events.insert(kind)
        }
        guard !events.isEmpty else {
            throw ApiError.invalidField(code: "invalid_events", message: "Choose at least one event.")
        }
        return events
    }

    /// Registers a hook after every check (the API's and the owner page's one path).
    /// - Throws: the target's problem, `invalid_events`, `too_many_webhooks`.
    static func add(
        url: String, eventNames: [String], deck: Deck, ownerId: Int64?, store: any Store, targets: WebhookTargetCheck,
        now: Double
    ) async throws -> Webhook {
        let events = try Self.events(eventNames)
        let target: WebhookTarget
        do {
            target = try await targets.check(url)
        } catch {
            throw ApiError.invalidField(code: error.code, message: error.message)
        }
        if try await store.webhooks(deckId: deck.id).filter(\.isEnabled).count >= maxPerDeck {
            throw ApiError.invalidField(
                code: "too_many_webhooks",
                message: "This deck has \(maxPerDeck) webhooks, as many as it may; disable one first.")
        }
        return try await store.addWebhook(
            deckId: deck.id, url: target.url.absoluteString, events: events, secret: WebhookSignature.newSecret(),
            by: ownerId, now: now)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> [String: [WebhookJSON]] {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        return ["webhooks": try await store.webhooks(deckId: deck.id).map { WebhookJSON($0) }]
    }

    /// The deck's hook the `id` parameter names. - Throws: 404 `not_found`.
    func named(_ deck: Deck, _ context: AppRequestContext) async throws -> Webhook {
        guard let id = Int64(try context.parameters.require("id")),
            let hook = try await store.webhooks(deckId: deck.id).first(where: { $0.id == id })
        else { throw ApiError.notFound("webhook") }
        return hook
    }

    @Sendable func disable(_ request: Request, context: AppRequestContext) async throws -> WebhookJSON {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let hook = try await named(deck, context)
        let disabled = try await store.disableWebhook(id: hook.id, deckId: deck.id, now: clock())
        await swipeNotices.refresh()
        return WebhookJSON(disabled)
    }

    @Sendable func deliveries(_ request: Request, context: AppRequestContext) async throws -> [String: [DeliveryJSON]] {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let hook = try await named(deck, context)
        var limit = Self.defaultLogLimit
        if let text = request.uri.queryParameters["limit"] {
            guard let n = Int(text), (1...Self.maxLogLimit).contains(n) else {
                throw ApiError.invalidField(
                    code: "invalid_limit", message: "limit must be a whole number from 1 to \(Self.maxLogLimit).")
            }
            limit = n
        }
        return ["deliveries": try await store.deliveries(hookId: hook.id, limit: limit).map(DeliveryJSON.init)]
    }
}
