/// Webhooks and their deliveries: the outbox (files `+Webhooks`).
///
/// Promises both engines keep: a delivery is stored before anything sends it (`enqueue` returns
/// after its commit); a claimed delivery is leased to one claimer until `leaseUntil`, so with
/// several servers on one database each attempt is made by one of them (PostgreSQL: `FOR UPDATE
/// SKIP LOCKED`; an SQLite file has one process); an attempt is recorded only by the claimer
/// holding the lease; nothing is erased (a disabled hook's pending deliveries are `cancelled`).
public protocol WebhookStore: Sendable {
    /// Stores a hook, enabled. `events` must not be empty.
    func addWebhook(
        deckId: Int64, url: String, events: Set<DeckNoticeKind>, secret: String, by ownerId: Int64?, now: Double
    ) async throws -> Webhook
    /// The deck's hooks, enabled and disabled, oldest first.
    func webhooks(deckId: Int64) async throws -> [Webhook]
    /// Disables a hook of the deck and cancels its pending deliveries; a disabled hook is
    /// returned as it is. - Throws: `StoreError.notFound(.webhook)`.
    func disableWebhook(id: Int64, deckId: Int64, now: Double) async throws -> Webhook
    /// Ids of the decks with an enabled hook subscribed to `kind`.
    func hookedDecks(for kind: DeckNoticeKind) async throws -> Set<Int64>
    /// Stores, in one transaction, a delivery for every enabled hook of each notice's deck
    /// subscribed to its kind; returns how many hooks it reached. `swipe.created` notices are
    /// batched: added to the hook's latest swipe delivery while nothing attempted it yet (up to
    /// `SwipesCreated.maxPerDelivery` swipes), else stored as one due a second after it.
    @discardableResult
    func enqueue(_ notices: [DeckNotice], now: Double) async throws -> Int
    /// Leases up to `limit` pending deliveries due at `now` (enabled hooks only, oldest due first)
    /// to `token` until `now + lease`.
    func claimDeliveries(now: Double, lease: Double, limit: Int, token: String) async throws -> [ClaimedDelivery]
    /// Records an attempt of a delivery leased to `token` (made at `now`) and ends the lease;
    /// false (nothing recorded) when the lease was lost.
    @discardableResult
    func recordAttempt(deliveryId: String, token: String, _ attempt: DeliveryAttempt, now: Double) async throws -> Bool
    /// The hook's deliveries, newest first, at most `limit`.
    func deliveries(hookId: Int64, limit: Int) async throws -> [WebhookDelivery]
}

/// The columns an attempt sets, the same on both engines.
struct WebhookAttemptColumns {
    /// The answer's HTTP status, if one came.
    let status: Int?
    /// Why it failed (at most 500 characters), nil on success.
    let error: String?
    /// `delivered`, `pending` (retried at `retryAt`) or `failed` (given up).
    let outcome: DeliveryStatus
    let deliveredAt: Double?
    let retryAt: Double?

    init(_ attempt: DeliveryAttempt, now: Double) {
        switch attempt {
        case .delivered(let status):
            (self.status, error, outcome, deliveredAt, retryAt) = (status, nil, .delivered, now, nil)
        case .failed(let status, let error, let retryAt):
            (self.status, self.error, deliveredAt, self.retryAt) = (status, String(error.prefix(500)), nil, retryAt)
            outcome = retryAt == nil ? .failed : .pending
        }
    }
}
