import Foundation
import PostgresNIO

extension PostgresStore {
    /// See `WebhookStore.addWebhook`.
    public func addWebhook(
        deckId: Int64, url: String, events: Set<DeckNoticeKind>, secret: String, by ownerId: Int64?, now: Double
    ) async throws -> Webhook {
        let stored = Webhook.stored(events)
        let id = try await transaction { connection in
            try await value(
                """
                INSERT INTO webhooks (deckId, url, events, secret, createdBy, createdAt)
                VALUES (\(deckId), \(url), \(stored), \(secret), \(ownerId), \(now)) RETURNING id
                """, on: connection, as: Int64.self)
        }
        // RETURNING always yields the row inserted; no row would mean no hook was stored.
        guard let id else { throw StoreError.notFound(.webhook) }
        return Webhook(
            id: id, deckId: deckId, url: url, events: events, secret: secret, createdAt: now, disabledAt: nil)
    }

    /// See `WebhookStore.webhooks`.
    public func webhooks(deckId: Int64) async throws -> [Webhook] {
        try await fetch(
            "SELECT \(unescaped: Self.webhookColumns) FROM webhooks WHERE deckId = \(deckId) ORDER BY id", Self.webhook)
    }

    /// See `WebhookStore.disableWebhook`: the hook and its pending deliveries in one transaction.
    public func disableWebhook(id: Int64, deckId: Int64, now: Double) async throws -> Webhook {
        try await transaction { connection in
            try await execute(
                """
                UPDATE webhooks SET disabledAt = \(now) WHERE id = \(id) AND deckId = \(deckId) AND disabledAt IS NULL
                """, on: connection)
            try await execute(
                """
                UPDATE webhookDeliveries SET status = 'cancelled', leaseUntil = NULL, leaseToken = NULL
                WHERE hookId = \(id) AND status = 'pending'
                """, on: connection)
            guard
                let hook = try await fetchOne(
                    """
                    SELECT \(unescaped: Self.webhookColumns) FROM webhooks WHERE id = \(id) AND deckId = \(deckId)
                    """, on: connection, Self.webhook)
            else { throw StoreError.notFound(.webhook) }
            return hook
        }
    }

    /// See `WebhookStore.hookedDecks`.
    public func hookedDecks(for kind: DeckNoticeKind) async throws -> Set<Int64> {
        let pattern = "%,\(kind.rawValue),%"
        return Set(
            try await fetch(
                """
                SELECT DISTINCT deckId FROM webhooks WHERE disabledAt IS NULL AND ',' || events || ',' LIKE \(pattern)
                """
            ) { try $0.next(Int64.self) })
    }

    /// See `WebhookStore.enqueue`: one transaction. A hook's latest swipe delivery is locked
    /// (`FOR UPDATE`) before swipes are added to it, so two servers adding at once take turns,
    /// and a dispatcher that claimed it first leaves it out of the choice.
    @discardableResult
    public func enqueue(_ notices: [DeckNotice], now: Double) async throws -> Int {
        if notices.isEmpty { return 0 }
        return try await transaction { connection in
            var reached = 0
            for notice in notices {
                let kind = notice.kind.rawValue
                let pattern = "%,\(kind),%"
                let hooks = try await fetch(
                    """
                    SELECT id FROM webhooks WHERE deckId = \(notice.deckId) AND disabledAt IS NULL
                    AND ',' || events || ',' LIKE \(pattern) ORDER BY id
                    """, on: connection
                ) { try $0.next(Int64.self) }
                let data = String(decoding: notice.data, as: UTF8.self)
                for hook in hooks {
                    reached += 1
                    var due = now
                    if notice.kind == .swipeCreated {
                        // The hook's row serialises the servers adding swipes: each then sees the
                        // delivery the one before it stored.
                        try await execute("SELECT 1 FROM webhooks WHERE id = \(hook) FOR UPDATE", on: connection)
                    }
                    if notice.kind == .swipeCreated,
                        let latest = try await fetchOne(
                            """
                            SELECT id, data, status, attempts, leaseToken, dueAt FROM webhookDeliveries
                            WHERE hookId = \(hook) AND event = \(kind) ORDER BY dueAt DESC LIMIT 1 FOR UPDATE
                            """, on: connection,
                            {
                                (
                                    id: try $0.next(String.self), data: try $0.next(String.self),
                                    status: try $0.next(String.self), attempts: try $0.next(Int.self),
                                    lease: try $0.next(String?.self), dueAt: try $0.next(Double.self)
                                )
                            })
                    {
                        let untouched =
                            latest.status == DeliveryStatus.pending.rawValue && latest.attempts == 0
                            && latest.lease == nil
                        let held = Data(latest.data.utf8)
                        if untouched,
                            SwipesCreated.count(held) + SwipesCreated.count(notice.data)
                                <= SwipesCreated.maxPerDelivery,
                            let merged = SwipesCreated.merged(held, notice.data)
                        {
                            try await execute(
                                """
                                UPDATE webhookDeliveries SET data = \(String(decoding: merged, as: UTF8.self)) WHERE id = \(latest.id)
                                """, on: connection)
                            continue
                        }
                        due = max(now, latest.dueAt + WebhookDispatcher.swipeBatchInterval)
                    }
                    try await execute(
                        """
                        INSERT INTO webhookDeliveries (id, hookId, deckId, event, at, data, status, attempts, createdAt, dueAt, nextAttemptAt)
                        VALUES (\(WebhookDispatcher.newDeliveryId()), \(hook), \(notice.deckId), \(kind), \(notice.at), \(data),
                                'pending', 0, \(now), \(due), \(due))
                        """, on: connection)
                }
            }
            return reached
        }
    }

    /// See `WebhookStore.claimDeliveries`: one statement; rows another server is claiming are
    /// skipped (`SKIP LOCKED`), rows leased until later are not due.
    public func claimDeliveries(now: Double, lease: Double, limit: Int, token: String) async throws
        -> [ClaimedDelivery]
    {
        try await transaction { connection in
            try await fetch(
                """
                WITH due AS (
                    SELECT d.id FROM webhookDeliveries d JOIN webhooks h ON h.id = d.hookId
                    WHERE d.status = 'pending' AND d.nextAttemptAt <= \(now) AND (d.leaseUntil IS NULL OR d.leaseUntil <= \(now))
                      AND h.disabledAt IS NULL
                    ORDER BY d.nextAttemptAt, d.id LIMIT \(limit) FOR UPDATE OF d SKIP LOCKED)
                UPDATE webhookDeliveries d SET leaseUntil = \(now + lease), leaseToken = \(token)
                FROM due, webhooks h, decks k WHERE d.id = due.id AND h.id = d.hookId AND k.id = d.deckId
                RETURNING \(unescaped: Self.deliveryColumns("d")), h.url, h.secret, k.slug
                """, on: connection
            ) { c in
                ClaimedDelivery(
                    delivery: try Self.delivery(&c), url: try c.next(), secret: try c.next(), deckSlug: try c.next())
            }
            .sorted { ($0.delivery.nextAttemptAt, $0.delivery.id) < ($1.delivery.nextAttemptAt, $1.delivery.id) }
        }
    }

    /// See `WebhookStore.recordAttempt`.
    @discardableResult
    public func recordAttempt(deliveryId: String, token: String, _ attempt: DeliveryAttempt, now: Double) async throws
        -> Bool
    {
        let change = WebhookAttemptColumns(attempt, now: now)
        return try await transaction { connection in
            try await value(
                """
                UPDATE webhookDeliveries SET attempts = attempts + 1, lastAttemptAt = \(now), lastStatus = \(change.status),
                    lastError = \(change.error), status = \(change.outcome.rawValue), deliveredAt = \(change.deliveredAt),
                    nextAttemptAt = COALESCE(\(change.retryAt)::double precision, nextAttemptAt), leaseUntil = NULL, leaseToken = NULL
                WHERE id = \(deliveryId) AND leaseToken = \(token) AND status = 'pending' RETURNING 1
                """, on: connection, as: Int.self) != nil
        }
    }

    /// See `WebhookStore.deliveries`.
    public func deliveries(hookId: Int64, limit: Int) async throws -> [WebhookDelivery] {
        try await fetch(
            """
            SELECT \(unescaped: Self.deliveryColumns("d")) FROM webhookDeliveries d WHERE hookId = \(hookId)
            ORDER BY createdAt DESC, dueAt DESC LIMIT \(limit)
            """, Self.delivery)
    }

    static let webhookColumns = "id, deckId, url, events, secret, createdAt, disabledAt"

    static func webhook(_ c: inout PostgresColumns) throws -> Webhook {
        let id: Int64 = try c.next()
        let deckId: Int64 = try c.next()
        let url: String = try c.next()
        let text: String = try c.next()
        guard let events = Webhook.events(stored: text) else { throw Webhook.UnreadableEvents(text: text) }
        return Webhook(
            id: id, deckId: deckId, url: url, events: events, secret: try c.next(), createdAt: try c.next(),
            disabledAt: try c.next())
    }

    /// The delivery columns `delivery` reads, of the table aliased `alias`.
    static func deliveryColumns(_ alias: String) -> String {
        [
            "id", "hookId", "deckId", "event", "at", "data", "status", "attempts", "createdAt", "nextAttemptAt",
            "lastAttemptAt", "lastStatus", "lastError", "deliveredAt",
        ].map { "\(alias).\($0)" }.joined(separator: ", ")
    }

    static func delivery(_ c: inout PostgresColumns) throws -> WebhookDelivery {
        WebhookDelivery(
            id: try c.next(), hookId: try c.next(), deckId: try c.next(), event: try c.next(DeckNoticeKind.self),
            at: try c.next(), data: Data(try c.next(String.self).utf8), status: try c.next(DeliveryStatus.self),
            attempts: try c.next(), createdAt: try c.next(), nextAttemptAt: try c.next(), lastAttemptAt: try c.next(),
            lastStatus: try c.next(), lastError: try c.next(), deliveredAt: try c.next())
    }
}
