import Foundation
import GRDB

/// A swipe joined with its card, for the history page.
public struct HistoryEntry: Sendable, Hashable {
    public var swipe: Swipe
    public var card: Card
}

extension AppDatabase {
    public func swipe(id: String) throws -> Swipe? {
        try pool.read { db in try Swipe.fetchOne(db, key: id) }
    }

    /// Marks a swipe undone (the row stays). Only its participant may.
    /// - Throws: `notFound`, `notYourSwipe`; an already undone swipe is returned as is (idempotent).
    public func undoSwipe(id: String, participant: String, at now: Double) throws -> Swipe {
        let swipe = try pool.write { db in
            guard var s = try Swipe.fetchOne(db, key: id) else { throw ApiError.notFound("swipe") }
            if s.participantId != participant { throw ApiError.notYourSwipe }
            if s.undoneAt != nil { return s }
            s.undoneAt = now
            try db.execute(sql: "UPDATE swipes SET undoneAt = ? WHERE id = ?", arguments: [now, id])
            return s
        }
        changes.mark(swipe.deckId)
        return swipe
    }

    /// Undoes the participant's most recent live swipe in the deck (the no-JS undo button).
    public func undoLatestSwipe(deckId: Int64, participant: String, at now: Double) throws -> Swipe? {
        let id = try pool.read { db in
            try String.fetchOne(db, sql: """
                SELECT id FROM swipes WHERE participantId = ? AND deckId = ? AND undoneAt IS NULL
                ORDER BY createdAt DESC, rowid DESC LIMIT 1
                """, arguments: [participant, deckId])
        }
        guard let id else { return nil }
        return try undoSwipe(id: id, participant: participant, at: now)
    }

    /// Changes a live swipe's direction, logging the old one in `flips`.
    /// - Throws: `notFound`, `notYourSwipe`, `alreadyUndone`.
    public func flipSwipe(id: String, participant: String, to direction: String, at now: Double) throws -> Swipe {
        let swipe = try pool.write { db in
            guard var s = try Swipe.fetchOne(db, key: id) else { throw ApiError.notFound("swipe") }
            if s.participantId != participant { throw ApiError.notYourSwipe }
            if s.undoneAt != nil { throw ApiError.alreadyUndone }
            if s.direction == direction { return s }
            try db.execute(
                sql: "INSERT INTO flips (swipeId, fromDirection, toDirection, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [id, s.direction, direction, now])
            try db.execute(sql: "UPDATE swipes SET direction = ? WHERE id = ?", arguments: [direction, id])
            s.direction = direction
            return s
        }
        changes.mark(swipe.deckId)
        return swipe
    }

    /// The participant's live swipes in a deck, newest first.
    public func history(deckId: Int64, participant: String, limit: Int = 500) throws -> [HistoryEntry] {
        try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT s.*, c.id AS c_id, c.deckId AS c_deckId, c.position AS c_position, c.title AS c_title,
                       c.subtitle AS c_subtitle, c.body AS c_body, c.image AS c_image, c.link AS c_link, c.accent AS c_accent
                FROM swipes s JOIN cards c ON c.id = s.cardId
                WHERE s.participantId = ? AND s.deckId = ? AND s.undoneAt IS NULL
                ORDER BY s.createdAt DESC, s.rowid DESC LIMIT ?
                """, arguments: [participant, deckId, limit])
            return try rows.map { r in
                let card = Card(
                    id: r["c_id"], deckId: r["c_deckId"], position: r["c_position"], title: r["c_title"], subtitle: r["c_subtitle"],
                    body: r["c_body"], image: r["c_image"], link: r["c_link"], accent: r["c_accent"])
                return HistoryEntry(swipe: try Swipe(row: r), card: card)
            }
        }
    }
}
