import Foundation
import GRDB

extension AppDatabase {
    /// See `SwipeStore.writeSwipes`: one write transaction for the whole batch.
    public func writeSwipes(_ items: [SwipeWriter.Item]) async throws -> [SwipeOutcome?] {
        try await writer.write { db in try items.map { try Self.applySwipe($0, db) } }
    }

    /// One item inside the group transaction: reads the facts `SwipeRule.decide` needs and writes
    /// what it decides. Rules are decided from queries, not by catching constraint errors, so one
    /// refused item never aborts its neighbours.
    ///
    /// This runs on the single writer for every swipe, so it uses cached prepared statements
    /// (no SQL parsing per swipe) and binds the row's columns directly.
    static func applySwipe(_ item: SwipeWriter.Item, _ db: Database) throws -> SwipeOutcome? {
        switch item {
        case .rejection(let deckId, let cardId, let participantId, let code, let at):
            try db.cachedStatement(
                sql: "INSERT INTO rejections (deckId, cardId, participantId, code, createdAt) VALUES (?, ?, ?, ?, ?)"
            )
            .execute(arguments: [deckId, cardId, participantId, code, at])
            return nil
        case .swipe(let swipe, let quota, let origin):
            let old = try SwipeAggregates.participant(db, deckId: swipe.deckId, participant: swipe.participantId)
            let facts = SwipeRule.Facts(
                existing: try Swipe.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM swipes WHERE id = ?"), arguments: [swipe.id]),
                liveOnCard: try Bool.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT 1 FROM swipes WHERE participantId = ? AND cardId = ? AND undoneAt IS NULL"),
                    arguments: [swipe.participantId, swipe.cardId]) ?? false,
                participant: old,
                recent: origin == nil
                    ? []
                    : try Double.fetchAll(
                        db.cachedStatement(
                            sql:
                                "SELECT createdAt FROM swipes WHERE participantId = ? AND deckId = ? ORDER BY createdAt DESC LIMIT 2"
                        ),
                        arguments: [swipe.participantId, swipe.deckId]),
                revision: try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT revision FROM cards WHERE id = ?"), arguments: [swipe.cardId]))
            let verdict = SwipeRule.decide(swipe, quota: quota, origin: origin, facts: facts)
            guard case .create(let swipe, let new, let join) = verdict else { return verdict.outcome }
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO participants (id, kind, createdAt) VALUES (?, ?, ?)")
                .execute(arguments: [swipe.participantId, Participant.Kind(firstInput: swipe.input), swipe.createdAt])
            try insertSwipe(swipe, db)
            if let join {
                try db.cachedStatement(
                    sql:
                        "INSERT OR IGNORE INTO participantOrigins (deckId, participantId, network, joinedAt) VALUES (?, ?, ?, ?)"
                )
                .execute(arguments: [swipe.deckId, swipe.participantId, join.network, join.at])
            }
            try SwipeAggregates.add(
                db, deckId: swipe.deckId, cardId: swipe.cardId, participant: swipe.participantId,
                direction: swipe.direction,
                kind: swipe.kind, decisionMs: swipe.decisionMs, sign: 1, from: old, to: new)
            return verdict.outcome
        }
    }

    static func insertSwipe(_ swipe: Swipe, _ db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, trace, traceData, velocityX, velocityY,
                                    durationMs, decisionMs, suspect, requestHash, createdAt, undoneAt, cardRevision, suspectReason)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            swipe.id, swipe.deckId, swipe.cardId, swipe.participantId, swipe.direction, swipe.input, swipe.trace,
            swipe.traceData,
            swipe.velocityX, swipe.velocityY, swipe.durationMs, swipe.decisionMs, swipe.suspect, swipe.requestHash,
            swipe.createdAt, swipe.undoneAt, swipe.cardRevision, swipe.suspectReason,
        ])
    }
}
