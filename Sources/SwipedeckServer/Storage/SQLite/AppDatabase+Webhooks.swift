import Foundation
import GRDB

// Stored as their raw values, like the domain's other enums (`DomainEnums+GRDB.swift`).
extension DeckNoticeKind: DatabaseValueConvertible {}
extension DeliveryStatus: DatabaseValueConvertible {}

extension AppDatabase {
    /// See `WebhookStore.addWebhook`.
    public func addWebhook(
        deckId: Int64, url: String, events: Set<DeckNoticeKind>, secret: String, by ownerId: Int64?, now: Double
    ) async throws -> Webhook {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO webhooks (deckId, url, events, secret, createdBy, createdAt) VALUES (?, ?, ?, ?, ?, ?)
                    """, arguments: [deckId, url, Webhook.stored(events), secret, ownerId, now])
            return Webhook(
                id: db.lastInsertedRowID, deckId: deckId, url: url, events: events, secret: secret, createdAt: now,
                disabledAt: nil)
        }
    }

    /// See `WebhookStore.webhooks`.
    public func webhooks(deckId: Int64) async throws -> [Webhook] {
        try await writer.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM webhooks WHERE deckId = ? ORDER BY id", arguments: [deckId])
                .map(Self.webhook)
        }
    }

    /// See `WebhookStore.disableWebhook`: the hook and its pending deliveries in one transaction.
    public func disableWebhook(id: Int64, deckId: Int64, now: Double) async throws -> Webhook {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE webhooks SET disabledAt = ? WHERE id = ? AND deckId = ? AND disabledAt IS NULL",
                arguments: [now, id, deckId])
            try db.execute(
                sql:
                    "UPDATE webhookDeliveries SET status = 'cancelled', leaseUntil = NULL, leaseToken = NULL WHERE hookId = ? AND status = 'pending'",
                arguments: [id])
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT * FROM webhooks WHERE id = ? AND deckId = ?", arguments: [id, deckId])
            else { throw StoreError.notFound(.webhook) }
            return try Self.webhook(row)
        }
    }

    /// See `WebhookStore.hookedDecks`.
    public func hookedDecks(for kind: DeckNoticeKind) async throws -> Set<Int64> {
        try await writer.read { db in
            Set(
                try Int64.fetchAll(
                    db,
                    sql:
                        "SELECT DISTINCT deckId FROM webhooks WHERE disabledAt IS NULL AND ',' || events || ',' LIKE ?",
                    arguments: ["%,\(kind.rawValue),%"]))
        }
    }

    /// See `WebhookStore.enqueue`: one write transaction (SQLite's single writer orders
    /// concurrent ones, so a swipe batch is never appended to twice).
    @discardableResult
    public func enqueue(_ notices: [DeckNotice], now: Double) async throws -> Int {
        if notices.isEmpty { return 0 }
        return try await writer.write { db in
            var reached = 0
            for notice in notices {
                let hooks = try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT id FROM webhooks WHERE deckId = ? AND disabledAt IS NULL AND ',' || events || ',' LIKE ? ORDER BY id
                        """, arguments: [notice.deckId, "%,\(notice.kind.rawValue),%"])
                for hook in hooks {
                    reached += 1
                    var due = now
                    if notice.kind == .swipeCreated,
                        let latest = try Row.fetchOne(
                            db,
                            sql: """
                                SELECT id, data, status, attempts, leaseToken, dueAt FROM webhookDeliveries
                                WHERE hookId = ? AND event = ? ORDER BY dueAt DESC LIMIT 1
                                """, arguments: [hook, notice.kind.rawValue])
                    {
                        let data = Data((latest["data"] as String).utf8)
                        let untouched =
                            (latest["status"] as String) == DeliveryStatus.pending.rawValue
                            && (latest["attempts"] as Int) == 0
                            && (latest["leaseToken"] as String?) == nil
                        if untouched,
                            SwipesCreated.count(data) + SwipesCreated.count(notice.data)
                                <= SwipesCreated.maxPerDelivery,
                            let merged = SwipesCreated.merged(data, notice.data)
                        {
                            try db.execute(
                                sql: "UPDATE webhookDeliveries SET data = ? WHERE id = ?",
                                arguments: [String(decoding: merged, as: UTF8.self), latest["id"] as String])
                            continue
                        }
                        due = max(now, (latest["dueAt"] as Double) + WebhookDispatcher.swipeBatchInterval)
                    }
                    try db.execute(
                        sql: """
                            INSERT INTO webhookDeliveries (id, hookId, deckId, event, at, data, status, attempts, createdAt, dueAt, nextAttemptAt)
                            VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
                            """,
                        arguments: [
                            WebhookDispatcher.newDeliveryId(), hook, notice.deckId, notice.kind.rawValue, notice.at,
                            String(decoding: notice.data, as: UTF8.self), now, due, due,
                        ])
                }
            }
            return reached
        }
    }

    /// See `WebhookStore.claimDeliveries`: read and leased in one write transaction.
    public func claimDeliveries(now: Double, lease: Double, limit: Int, token: String) async throws
        -> [ClaimedDelivery]
    {
        try await writer.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT d.*, h.url AS hookUrl, h.secret AS hookSecret, k.slug AS deckSlug
                    FROM webhookDeliveries d JOIN webhooks h ON h.id = d.hookId JOIN decks k ON k.id = d.deckId
                    WHERE d.status = 'pending' AND d.nextAttemptAt <= ? AND (d.leaseUntil IS NULL OR d.leaseUntil <= ?)
                      AND h.disabledAt IS NULL
                    ORDER BY d.nextAttemptAt, d.id LIMIT ?
                    """, arguments: [now, now, limit])
            var claimed: [ClaimedDelivery] = []
            for row in rows {
                let delivery = try Self.delivery(row)
                try db.execute(
                    sql: "UPDATE webhookDeliveries SET leaseUntil = ?, leaseToken = ? WHERE id = ?",
                    arguments: [now + lease, token, delivery.id])
                claimed.append(
                    ClaimedDelivery(
                        delivery: delivery, url: row["hookUrl"], secret: row["hookSecret"], deckSlug: row["deckSlug"]))
            }
            return claimed
        }
    }

    /// See `WebhookStore.recordAttempt`.
    @discardableResult
    public func recordAttempt(deliveryId: String, token: String, _ attempt: DeliveryAttempt, now: Double) async throws
        -> Bool
    {
        let change = WebhookAttemptColumns(attempt, now: now)
        return try await writer.write { db in
            try db.execute(
                sql: """
                    UPDATE webhookDeliveries SET attempts = attempts + 1, lastAttemptAt = ?, lastStatus = ?, lastError = ?,
                        status = ?, deliveredAt = ?, nextAttemptAt = COALESCE(?, nextAttemptAt), leaseUntil = NULL, leaseToken = NULL
                    WHERE id = ? AND leaseToken = ? AND status = 'pending'
                    """,
                arguments: [
                    now, change.status, change.error, change.outcome.rawValue, change.deliveredAt, change.retryAt,
                    deliveryId, token,
                ])
            return db.changesCount > 0
        }
    }

    /// See `WebhookStore.deliveries`.
    public func deliveries(hookId: Int64, limit: Int) async throws -> [WebhookDelivery] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM webhookDeliveries WHERE hookId = ? ORDER BY createdAt DESC, dueAt DESC LIMIT ?",
                arguments: [hookId, limit]
            ).map(Self.delivery)
        }
    }

    static func webhook(_ row: Row) throws -> Webhook {
        let text: String = row["events"]
        guard let events = Webhook.events(stored: text) else {
            throw Webhook.UnreadableEvents(text: text)
        }
        return Webhook(
            id: row["id"], deckId: row["deckId"], url: row["url"], events: events, secret: row["secret"],
            createdAt: row["createdAt"], disabledAt: row["disabledAt"])
    }

    static func delivery(_ row: Row) throws -> WebhookDelivery {
        WebhookDelivery(
            id: row["id"], hookId: row["hookId"], deckId: row["deckId"], event: try row.decode(forColumn: "event"),
            at: row["at"], data: Data((row["data"] as String).utf8), status: try row.decode(forColumn: "status"),
            attempts: row["attempts"], createdAt: row["createdAt"], nextAttemptAt: row["nextAttemptAt"],
            lastAttemptAt: row["lastAttemptAt"], lastStatus: row["lastStatus"], lastError: row["lastError"],
            deliveredAt: row["deliveredAt"])
    }
}
