import Foundation
import PostgresNIO
import SwipePhysics

extension PostgresStore {
    /// The participant's aggregate row in the deck, created if missing and locked until the
    /// transaction ends (the no-op update is what takes the lock).
    func lockParticipant(deckId: Int64, participant: String, on connection: PostgresConnection) async throws
        -> ParticipantState
    {
        try await fetchOne(
            """
            INSERT INTO deckParticipants (deckId, participantId) VALUES (\(deckId), \(participant))
            ON CONFLICT (deckId, participantId) DO UPDATE SET excluded = deckParticipants.excluded
            RETURNING excluded, k0, k1, k2, k3, k4
            """, on: connection, Self.participantState) ?? ParticipantState()
    }

    public func swipe(id: String) async throws -> Swipe? {
        try await fetchOne("SELECT \(unescaped: Self.swipeColumns) FROM swipes WHERE id = \(id)", Self.swipe)
    }

    public func undoSwipe(id: String, participant: String, at now: Double) async throws -> Swipe {
        let swipe = try await transaction { connection in
            try await undo(id: id, participant: participant, at: now, on: connection)
        }
        changes.mark(swipe.deckId)
        return swipe
    }

    /// Undoes a swipe with its row locked (two servers undoing it count it out once).
    private func undo(id: String, participant: String, at now: Double, on connection: PostgresConnection) async throws
        -> Swipe
    {
        guard
            var s = try await fetchOne(
                "SELECT \(unescaped: Self.swipeColumns) FROM swipes WHERE id = \(id) FOR NO KEY UPDATE", on: connection,
                Self.swipe)
        else {
            throw StoreError.notFound(.swipe)
        }
        if s.participantId != participant { throw StoreError.notYourSwipe }
        if s.undoneAt != nil { return s }
        let state = try await lockParticipant(deckId: s.deckId, participant: s.participantId, on: connection)
        s.undoneAt = now
        try await execute("UPDATE swipes SET undoneAt = \(now) WHERE id = \(id)", on: connection)
        // One live swipe fewer: the participant's locked row now, the shared aggregates after it.
        let kind = s.kind
        let column = "k\(kind.code)"
        try await execute(
            """
            UPDATE deckParticipants SET \(unescaped: column) = \(unescaped: column) - 1
            WHERE deckId = \(s.deckId) AND participantId = \(s.participantId)
            """, on: connection)
        let fewer = state.counting(kind, -1)
        var aggregates = PostgresAggregates()
        aggregates.add(
            deckId: s.deckId, cardId: s.cardId, direction: s.direction, kind: kind, decisionMs: s.decisionMs, sign: -1,
            old: state, new: fewer)
        try await aggregates.write(on: connection, logger: logger, notifying: [s.deckId])
        return s
    }

    public func undoLatestSwipe(deckId: Int64, participant: String, at now: Double) async throws -> Swipe? {
        let swipe = try await transaction { connection -> Swipe? in
            guard
                let id = try await value(
                    """
                    SELECT id FROM swipes WHERE participantId = \(participant) AND deckId = \(deckId) AND undoneAt IS NULL
                    ORDER BY createdAt DESC, seq DESC LIMIT 1
                    """, on: connection, as: String.self)
            else { return nil }
            return try await undo(id: id, participant: participant, at: now, on: connection)
        }
        if let swipe { changes.mark(swipe.deckId) }
        return swipe
    }

    public func flipSwipe(id: String, participant: String, to direction: Decision, at now: Double) async throws -> Swipe
    {
        let swipe = try await transaction { connection -> Swipe in
            guard
                var s = try await fetchOne(
                    "SELECT \(unescaped: Self.swipeColumns) FROM swipes WHERE id = \(id) FOR NO KEY UPDATE",
                    on: connection, Self.swipe)
            else {
                throw StoreError.notFound(.swipe)
            }
            if s.participantId != participant { throw StoreError.notYourSwipe }
            if s.undoneAt != nil { throw StoreError.alreadyUndone }
            if s.direction == direction { return s }
            let state = try await lockParticipant(deckId: s.deckId, participant: s.participantId, on: connection)
            try await execute(
                """
                INSERT INTO flips (swipeId, fromDirection, toDirection, createdAt) VALUES (\(id), \(s.direction.rawValue), \(direction.rawValue), \(now))
                """, on: connection)
            try await execute("UPDATE swipes SET direction = \(direction.rawValue) WHERE id = \(id)", on: connection)
            var aggregates = PostgresAggregates()
            aggregates.tally(
                deckId: s.deckId, out: state.excluded, cardId: s.cardId, kind: s.kind, direction: s.direction, n: -1)
            aggregates.tally(
                deckId: s.deckId, out: state.excluded, cardId: s.cardId, kind: s.kind, direction: direction, n: 1)
            try await aggregates.write(on: connection, logger: logger, notifying: [s.deckId])
            s.direction = direction
            return s
        }
        changes.mark(swipe.deckId)
        return swipe
    }

    public func history(deckId: Int64, participant: String, limit: Int) async throws -> [HistoryEntry] {
        try await fetch(
            """
            SELECT s.id, s.deckId, s.cardId, s.participantId, s.direction, s.input, s.trace, s.velocityX, s.velocityY,
                   s.durationMs, s.decisionMs, s.suspect, s.requestHash, s.createdAt, s.undoneAt, s.cardRevision,
                   s.suspectReason, s.traceData,
                   c.id, c.deckId, c.position, c.title, c.subtitle, c.body, c.image, c.moreImages, c.link, c.accent, c.revision,
                   c.archivedAt, c.answer
            FROM swipes s JOIN cards c ON c.id = s.cardId
            WHERE s.participantId = \(participant) AND s.deckId = \(deckId) AND s.undoneAt IS NULL
            ORDER BY s.createdAt DESC, s.seq DESC LIMIT \(limit)
            """
        ) { c in
            let swipe = try Self.swipe(&c)
            var card = try Self.card(&c)
            // The history shows the cover only, as the SQLite engine reads it.
            card.moreImages = []
            return HistoryEntry(swipe: swipe, card: card)
        }
    }

    public func swipePage(deckId: Int64, after cursor: Int64, limit: Int) async throws -> [SwipeExportRow] {
        try await fetch(
            """
            SELECT seq, \(unescaped: Self.swipeColumns) FROM swipes WHERE deckId = \(deckId) AND seq > \(cursor) ORDER BY seq LIMIT \(limit)
            """
        ) { c in
            let cursor = try c.next(Int64.self)
            return SwipeExportRow(cursor: cursor, swipe: try Self.swipe(&c))
        }
    }
}

extension PostgresStore {
    public func firstDirections(deckId: Int64) async throws -> [String: Decision] {
        let rows = try await fetch(
            """
            SELECT f.swipeId, f.fromDirection FROM flips f JOIN swipes s ON s.id = f.swipeId
            WHERE s.deckId = \(deckId) ORDER BY f.id
            """
        ) { c in (try c.next(String.self), try c.next(String.self)) }
        var first: [String: Decision] = [:]
        for (id, raw) in rows where first[id] == nil {
            // A direction this build does not know cannot be judged: skipped.
            if let d = Decision(rawValue: raw) { first[id] = d }
        }
        return first
    }
}
