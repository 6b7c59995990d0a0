import Foundation
import GRDB
import SwipePhysics

extension AppDatabase {
    public func swipe(id: String) async throws -> Swipe? {
        try await writer.read { db in try Swipe.fetchOne(db, key: id) }
    }

    /// Marks a swipe undone (the row stays) and takes it out of the aggregates, in one
    /// transaction. Only its participant may.
    /// - Throws: `notFound`, `notYourSwipe`; an already undone swipe is returned as is (idempotent).
    public func undoSwipe(id: String, participant: String, at now: Double) async throws -> Swipe {
        let swipe = try await writer.write { db in try Self.undo(db, id: id, participant: participant, at: now) }
        changes.mark(swipe.deckId)
        return swipe
    }

    static func undo(_ db: Database, id: String, participant: String, at now: Double) throws -> Swipe {
        guard var s = try Swipe.fetchOne(db, key: id) else { throw StoreError.notFound(.swipe) }
        if s.participantId != participant { throw StoreError.notYourSwipe }
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
        let swipe = try await writer.write { db -> Swipe? in
            guard
                let id = try String.fetchOne(
                    db,
                    sql: """
                        SELECT id FROM swipes WHERE participantId = ? AND deckId = ? AND undoneAt IS NULL
                        ORDER BY createdAt DESC, rowid DESC LIMIT 1
                        """, arguments: [participant, deckId])
            else { return nil }
            return try Self.undo(db, id: id, participant: participant, at: now)
        }
        if let swipe { changes.mark(swipe.deckId) }
        return swipe
    }

    /// Changes a live swipe's direction, logging the old one in `flips`.
    /// - Throws: `notFound`, `notYourSwipe`, `alreadyUndone`.
    public func flipSwipe(id: String, participant: String, to direction: Decision, at now: Double) async throws -> Swipe
    {
        let swipe = try await writer.write { db in
            guard var s = try Swipe.fetchOne(db, key: id) else { throw StoreError.notFound(.swipe) }
            if s.participantId != participant { throw StoreError.notYourSwipe }
            if s.undoneAt != nil { throw StoreError.alreadyUndone }
            if s.direction == direction { return s }
            try db.execute(
                sql: "INSERT INTO flips (swipeId, fromDirection, toDirection, createdAt) VALUES (?, ?, ?, ?)",
                arguments: [id, s.direction, direction, now])
            try db.execute(sql: "UPDATE swipes SET direction = ? WHERE id = ?", arguments: [direction, id])
            try SwipeAggregates.flip(
                db, deckId: s.deckId, cardId: s.cardId, participant: s.participantId, kind: s.kind, from: s.direction,
                to: direction)
            s.direction = direction
            return s
        }
        changes.mark(swipe.deckId)
        return swipe
    }

    /// The participant's live swipes in a deck, newest first (index `swipes_by_participant`,
    /// already in that order: no sort), at most `limit`, each with its card (cover image only).
    /// Columns are read by position: by name, GRDB lowercases each name per row, which was most
    /// of the time of a 500-row history (`scripts/bench_history.py`).
    public func history(deckId: Int64, participant: String, limit: Int = 500) async throws -> [HistoryEntry] {
        try await writer.read { db in
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT s.id, s.deckId, s.cardId, s.participantId, s.direction, s.input, s.trace, s.velocityX, s.velocityY,
                               s.durationMs, s.decisionMs, s.suspect, s.requestHash, s.createdAt, s.undoneAt, s.cardRevision,
                               s.suspectReason, s.traceData,
                               c.id, c.deckId, c.position, c.title, c.subtitle, c.body, c.image, c.link, c.accent
                        FROM swipes s JOIN cards c ON c.id = s.cardId
                        WHERE s.participantId = ? AND s.deckId = ? AND s.undoneAt IS NULL
                        ORDER BY s.createdAt DESC, s.rowid DESC LIMIT ?
                        """), arguments: [participant, deckId, limit])
            var entries: [HistoryEntry] = []
            while let r = try rows.next() {
                let swipe = Swipe(
                    id: r[0], deckId: r[1], cardId: r[2], participantId: r[3],
                    direction: try r.decode(atIndex: 4), input: try r.decode(atIndex: 5), trace: r[6],
                    velocityX: r[7], velocityY: r[8], durationMs: r[9], decisionMs: r[10], suspect: r[11],
                    requestHash: r[12],
                    createdAt: r[13], undoneAt: r[14], cardRevision: r[15], suspectReason: r[16], traceData: r[17])
                let card = Card(
                    id: r[18],
                    NewCard(
                        deckId: r[19], position: r[20], title: r[21], subtitle: r[22], body: r[23], image: r[24],
                        link: r[25], accent: r[26]))
                entries.append(HistoryEntry(swipe: swipe, card: card))
            }
            return entries
        }
    }
}

extension AppDatabase {
    /// See `SwipeStore.swipePage`; the cursor is the SQLite rowid.
    public func swipePage(deckId: Int64, after rowid: Int64, limit: Int) async throws -> [SwipeExportRow] {
        try await writer.read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT rowid AS rid, * FROM swipes WHERE deckId = ? AND rowid > ? ORDER BY rowid LIMIT ?"),
                arguments: [deckId, rowid, limit]
            ).map { r in SwipeExportRow(cursor: r["rid"], swipe: try Swipe(row: r)) }
        }
    }
}

extension AppDatabase {
    public func firstDirections(deckId: Int64) async throws -> [String: Decision] {
        try await writer.read { db in
            var first: [String: Decision] = [:]
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT f.swipeId, f.fromDirection FROM flips f JOIN swipes s ON s.id = f.swipeId
                        WHERE s.deckId = ? ORDER BY f.id
                        """),
                arguments: [deckId])
            while let row = try rows.next() {
                let id: String = row[0]
                let raw: String = row[1]
                // A direction this build does not know cannot be judged: skipped.
                guard first[id] == nil, let d = Decision(rawValue: raw) else { continue }
                first[id] = d
            }
            return first
        }
    }
}
