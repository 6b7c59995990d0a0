import Foundation
import GRDB

/// A swipe joined with its card, for the history page.
public struct HistoryEntry: Sendable, Hashable {
    public var swipe: Swipe
    public var card: Card
}

extension AppDatabase {
    public func swipe(id: String) async throws -> Swipe? {
        try await pool.read { db in try Swipe.fetchOne(db, key: id) }
    }

    /// Marks a swipe undone (the row stays) and takes it out of the aggregates, in one
    /// transaction. Only its participant may.
    /// - Throws: `notFound`, `notYourSwipe`; an already undone swipe is returned as is (idempotent).
    public func undoSwipe(id: String, participant: String, at now: Double) async throws -> Swipe {
        let swipe = try await pool.write { db in try Self.undo(db, id: id, participant: participant, at: now) }
        changes.mark(swipe.deckId)
        return swipe
    }

    static func undo(_ db: Database, id: String, participant: String, at now: Double) throws -> Swipe {
        guard var s = try Swipe.fetchOne(db, key: id) else { throw ApiError.notFound("swipe") }
        if s.participantId != participant { throw ApiError.notYourSwipe }
        if s.undoneAt != nil { return s }
        s.undoneAt = now
        try db.execute(sql: "UPDATE swipes SET undoneAt = ? WHERE id = ?", arguments: [now, id])
        try SwipeAggregates.add(
            db, deckId: s.deckId, cardId: s.cardId, participant: s.participantId, direction: s.direction, kind: s.kind,
            decisionMs: s.decisionMs, sign: -1)
        return s
    }

    /// Undoes the participant's most recent live swipe in the deck (the no-JS undo button).
    public func undoLatestSwipe(deckId: Int64, participant: String, at now: Double) async throws -> Swipe? {
        let swipe = try await pool.write { db -> Swipe? in
            guard let id = try String.fetchOne(db, sql: """
                SELECT id FROM swipes WHERE participantId = ? AND deckId = ? AND undoneAt IS NULL
                ORDER BY createdAt DESC, rowid DESC LIMIT 1
                """, arguments: [participant, deckId]) else { return nil }
            return try Self.undo(db, id: id, participant: participant, at: now)
        }
        if let swipe { changes.mark(swipe.deckId) }
        return swipe
    }

    /// Changes a live swipe's direction, logging the old one in `flips`.
    /// - Throws: `notFound`, `notYourSwipe`, `alreadyUndone`.
    public func flipSwipe(id: String, participant: String, to direction: String, at now: Double) async throws -> Swipe {
        let swipe = try await pool.write { db in
            guard var s = try Swipe.fetchOne(db, key: id) else { throw ApiError.notFound("swipe") }
            if s.participantId != participant { throw ApiError.notYourSwipe }
            if s.undoneAt != nil { throw ApiError.alreadyUndone }
            if s.direction == direction { return s }
            try db.execute(
                sql: "INSERT INTO flips (swipeId, fromDirection, toDirection, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [id, s.direction, direction, now])
            try db.execute(sql: "UPDATE swipes SET direction = ? WHERE id = ?", arguments: [direction, id])
            try SwipeAggregates.flip(db, deckId: s.deckId, cardId: s.cardId, participant: s.participantId, kind: s.kind, from: s.direction, to: direction)
            s.direction = direction
            return s
        }
        changes.mark(swipe.deckId)
        return swipe
    }

    /// The participant's live swipes in a deck, newest first (index `swipes_by_participant`,
    /// already in that order: no sort).
    public func history(deckId: Int64, participant: String, limit: Int = 500) async throws -> [HistoryEntry] {
        try await pool.read { db in
            let rows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT s.*, c.id AS c_id, c.deckId AS c_deckId, c.position AS c_position, c.title AS c_title,
                       c.subtitle AS c_subtitle, c.body AS c_body, c.image AS c_image, c.link AS c_link, c.accent AS c_accent
                FROM swipes s JOIN cards c ON c.id = s.cardId
                WHERE s.participantId = ? AND s.deckId = ? AND s.undoneAt IS NULL
                ORDER BY s.createdAt DESC, s.rowid DESC LIMIT ?
                """), arguments: [participant, deckId, limit])
            return try rows.map { r in
                let card = Card(
                    id: r["c_id"], deckId: r["c_deckId"], position: r["c_position"], title: r["c_title"], subtitle: r["c_subtitle"],
                    body: r["c_body"], image: r["c_image"], link: r["c_link"], accent: r["c_accent"])
                return HistoryEntry(swipe: try Swipe(row: r), card: card)
            }
        }
    }
}
