import Foundation
import GRDB

/// Changes an owner makes to a deck. Each is one transaction that also appends to `deckEvents`
/// and bumps the deck's `revision`; nothing is erased (an edit stores a new card revision, an
/// archive sets a time).
extension AppDatabase {
    /// See `DeckEditStore.updateDeck`: the one writer runs the read and the write back to back.
    public func updateDeck(
        id: Int64, _ patch: DeckPatch, by ownerId: Int64?, detail: @escaping @Sendable (Deck) -> String, now: Double
    ) async throws -> Deck {
        try await editing(id) { db in
            guard let current = try Deck.fetchOne(db, key: id) else { throw StoreError.notFound(.deck) }
            var d = try patch.applied(to: current)
            d.revision = current.revision + 1
            try d.update(db)
            try Self.recordEvent(db, deckSlug: d.slug, ownerId: ownerId, kind: .settings, detail: detail(d), at: now)
            return d
        }
    }

    /// Adds a card at the end of the deck (revision 1).
    public func addCard(_ card: NewCard, deckId: Int64, by ownerId: Int64?, now: Double) async throws -> Card {
        try await editing(deckId) { db in
            var c = card
            c.deckId = deckId
            c.position =
                (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM cards WHERE deckId = ?", arguments: [deckId])
                    ?? -1) + 1
            c.revision = 1
            try c.insert(db)
            let stored = Card(id: db.lastInsertedRowID, c)
            try Self.storeRevision(db, stored, now: now)
            try Self.touchDeck(
                db, deckId: deckId, ownerId: ownerId, kind: .cardAdded, detail: "{\"card\":\(stored.id)}", now: now)
            return stored
        }
    }

    /// Stores `card` (patched and checked) as the card's next revision. Swipes keep the revision
    /// they judged; an unchanged card is returned as it is.
    public func editCard(_ card: Card, by ownerId: Int64?, now: Double) async throws -> Card {
        try await editing(card.deckId) { db in
            let id = card.id
            guard let current = try Card.fetchOne(db, key: id) else { throw StoreError.notFound(.card) }
            if current.hasSameContent(as: card) {
                // The answer is no content a swiper sees: a change to it alone stores no revision.
                guard current.answer != card.answer else { return current }
                var c = current
                c.answer = card.answer
                try db.execute(sql: "UPDATE cards SET answer = ? WHERE id = ?", arguments: [c.answer, id])
                try Self.touchDeck(
                    db, deckId: c.deckId, ownerId: ownerId, kind: .cardEdited,
                    detail: "{\"card\":\(id),\"answer\":true}",
                    now: now)
                return c
            }
            var c = card
            c.revision = current.revision + 1
            c.position = current.position
            c.archivedAt = current.archivedAt
            try c.update(db)
            try Self.storeRevision(db, c, now: now)
            try Self.touchDeck(
                db, deckId: c.deckId, ownerId: ownerId, kind: .cardEdited,
                detail: "{\"card\":\(id),\"revision\":\(c.revision)}", now: now)
            return c
        }
    }

    /// Archives (or restores) a card: an archived card is dealt to nobody; its swipes stay counted.
    public func setArchived(cardId: Int64, _ archived: Bool, by ownerId: Int64?, now: Double) async throws -> Card {
        let card = try await writer.write { db -> Card in
            guard var c = try Card.fetchOne(db, key: cardId) else { throw StoreError.notFound(.card) }
            if (c.archivedAt != nil) == archived { return c }
            c.archivedAt = archived ? now : nil
            try db.execute(sql: "UPDATE cards SET archivedAt = ? WHERE id = ?", arguments: [c.archivedAt, cardId])
            try Self.touchDeck(
                db, deckId: c.deckId, ownerId: ownerId, kind: .archiving(archived), detail: "{\"card\":\(cardId)}",
                now: now)
            return c
        }
        changes.mark(card.deckId)
        edits.mark(card.deckId)
        return card
    }

    /// Moves a card to `index` in deck order (0 = first; clamped), renumbering positions 0…n-1.
    public func moveCard(cardId: Int64, to index: Int, by ownerId: Int64?, now: Double) async throws {
        let deckId = try await writer.write { db -> Int64? in
            guard let c = try Card.fetchOne(db, key: cardId) else { throw StoreError.notFound(.card) }
            var ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM cards WHERE deckId = ? ORDER BY position, id", arguments: [c.deckId])
            guard let from = ids.firstIndex(of: cardId) else { return nil }
            ids.remove(at: from)
            let to = max(0, min(index, ids.count))
            ids.insert(cardId, at: to)
            if from == to { return nil }
            let statement = try db.makeStatement(sql: "UPDATE cards SET position = ? WHERE id = ?")
            for (position, id) in ids.enumerated() { try statement.execute(arguments: [position, id]) }
            try Self.touchDeck(
                db, deckId: c.deckId, ownerId: ownerId, kind: .cardMoved,
                detail: "{\"card\":\(cardId),\"from\":\(from),\"to\":\(to)}", now: now)
            return c.deckId
        }
        // Positions break ties in the ranking, and order the cards dealt.
        if let deckId {
            changes.mark(deckId)
            edits.mark(deckId)
        }
    }

    /// Runs `body` in a write transaction, then marks the deck changed (after the commit, so the
    /// live results never read the state before it and then miss the mark).
    func markingChanges<T: Sendable>(of deckId: Int64?, _ body: @escaping @Sendable (Database) throws -> T) async throws
        -> T
    {
        let value = try await writer.write(body)
        if let deckId { changes.mark(deckId) }
        return value
    }

    /// An owner's edit of deck `deckId`: `markingChanges`, and the deck marked edited.
    func editing<T: Sendable>(_ deckId: Int64?, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        let value = try await markingChanges(of: deckId, body)
        if let deckId { edits.mark(deckId) }
        return value
    }

    static func storeRevision(_ db: Database, _ c: Card, now: Double) throws {
        try db.execute(
            sql: """
                INSERT INTO cardRevisions (cardId, revision, title, subtitle, body, image, moreImages, link, accent, createdAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                c.id, c.revision, c.title, c.subtitle, c.body, c.image, Card.encodeImageList(c.moreImages), c.link,
                c.accent, now,
            ])
    }

    static func touchDeck(
        _ db: Database, deckId: Int64, ownerId: Int64?, kind: DeckEventKind, detail: String, now: Double
    ) throws {
        try db.execute(sql: "UPDATE decks SET revision = revision + 1 WHERE id = ?", arguments: [deckId])
        try db.execute(
            sql: "INSERT INTO deckEvents (deckId, ownerId, kind, detail, createdAt) VALUES (?, ?, ?, ?, ?)",
            arguments: [deckId, ownerId, kind, detail, now])
    }
}

extension AppDatabase {
    /// Adds `cards` at the end of the deck in one transaction: all of them or none.
    public func addCards(_ cards: [NewCard], deckId: Int64, by ownerId: Int64?, now: Double) async throws -> Int {
        try await editing(deckId) { db in
            var position =
                (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM cards WHERE deckId = ?", arguments: [deckId])
                    ?? -1) + 1
            for card in cards {
                var c = card
                c.deckId = deckId
                c.position = position
                c.revision = 1
                try c.insert(db)
                try Self.storeRevision(db, Card(id: db.lastInsertedRowID, c), now: now)
                position += 1
            }
            try Self.touchDeck(
                db, deckId: deckId, ownerId: ownerId, kind: .cardsImported, detail: "{\"cards\":\(cards.count)}",
                now: now)
            return cards.count
        }
    }
}
