import Foundation
import PostgresNIO

/// Owners' changes to decks, as `AppDatabase+DeckEdits`: one transaction each, logged in
/// `deckEvents`, the deck's revision bumped, nothing erased. Rows changed are locked first
/// (`FOR NO KEY UPDATE`, which still lets swipes reference them), so two servers editing one card apply one edit after the other.
extension PostgresStore {
    /// See `DeckEditStore.updateDeck`: the row is locked as it is read, so another server's edit
    /// waits for this one and then patches what it wrote.
    public func updateDeck(
        id: Int64, _ patch: DeckPatch, by ownerId: Int64?, detail: @escaping @Sendable (Deck) -> String, now: Double
    ) async throws -> Deck {
        try await editing(id) { connection in
            guard
                let current = try await fetchOne(
                    "SELECT \(unescaped: Self.deckColumns) FROM decks WHERE id = \(id) FOR NO KEY UPDATE",
                    on: connection, Self.deck)
            else {
                throw StoreError.notFound(.deck)
            }
            var d = try patch.applied(to: current)
            d.revision = current.revision + 1
            try await execute(
                """
                UPDATE decks SET slug = \(d.slug), title = \(d.title), description = \(d.description), profile = \(d.profile),
                    allowButtons = \(d.allowButtons), leftLabel = \(d.leftLabel), rightLabel = \(d.rightLabel), upLabel = \(d.upLabel),
                    downLabel = \(d.downLabel), ownerId = \(d.ownerId), isOpen = \(d.isOpen), resultsPublic = \(d.resultsPublic),
                    quota = \(d.quota), cardOrder = \(d.cardOrder.rawValue), countedInputs = \(CountedInput.stored(d.countedInputs)), revision = \(d.revision),
                    access = \(d.access.rawValue), accessSecret = \(d.accessSecret), joinLimit = \(d.joinLimit),
                    listed = \(d.listed), rooms = \(d.rooms), stopRule = \(d.stopRule.stored),
                    quality = \(QualitySettings.stored(d.quality))
                WHERE id = \(id)
                """, on: connection)
            try await recordEvent(
                deckId: id, ownerId: ownerId, kind: .settings, detail: detail(d), at: now, on: connection)
            return d
        }
    }

    public func addCard(_ card: NewCard, deckId: Int64, by ownerId: Int64?, now: Double) async throws -> Card {
        try await editing(deckId) { connection in
            var c = card
            c.deckId = deckId
            c.position = try await nextPosition(deckId: deckId, on: connection)
            c.revision = 1
            let stored = try await insertCard(c, createdAt: now, on: connection)
            try await touchDeck(
                deckId, ownerId: ownerId, kind: .cardAdded, detail: "{\"card\":\(stored.id)}", now: now, on: connection)
            return stored
        }
    }

    public func addCards(_ cards: [NewCard], deckId: Int64, by ownerId: Int64?, now: Double) async throws -> Int {
        try await editing(deckId) { connection in
            var position = try await nextPosition(deckId: deckId, on: connection)
            for card in cards {
                var c = card
                c.deckId = deckId
                c.position = position
                c.revision = 1
                _ = try await insertCard(c, createdAt: now, on: connection)
                position += 1
            }
            try await touchDeck(
                deckId, ownerId: ownerId, kind: .cardsImported, detail: "{\"cards\":\(cards.count)}", now: now,
                on: connection)
            return cards.count
        }
    }

    public func editCard(_ card: Card, by ownerId: Int64?, now: Double) async throws -> Card {
        let id = card.id
        return try await editing(card.deckId) { connection in
            guard let current = try await self.card(id: id, on: connection) else { throw StoreError.notFound(.card) }
            if current.hasSameContent(as: card) {
                // The answer is no content a swiper sees: a change to it alone stores no revision.
                guard current.answer != card.answer else { return current }
                var c = current
                c.answer = card.answer
                try await execute("UPDATE cards SET answer = \(c.answer?.rawValue) WHERE id = \(id)", on: connection)
                try await touchDeck(
                    c.deckId, ownerId: ownerId, kind: .cardEdited, detail: "{\"card\":\(id),\"answer\":true}", now: now,
                    on: connection)
                return c
            }
            var c = card
            c.revision = current.revision + 1
            c.position = current.position
            c.archivedAt = current.archivedAt
            try await execute(
                """
                UPDATE cards SET title = \(c.title), subtitle = \(c.subtitle), body = \(c.body), image = \(c.image),
                    moreImages = \(Card.encodeImageList(c.moreImages)), link = \(c.link), accent = \(c.accent), revision = \(c.revision),
                    answer = \(c.answer?.rawValue)
                WHERE id = \(id)
                """, on: connection)
            try await storeRevision(c, now: now, on: connection)
            try await touchDeck(
                c.deckId, ownerId: ownerId, kind: .cardEdited, detail: "{\"card\":\(id),\"revision\":\(c.revision)}",
                now: now,
                on: connection)
            return c
        }
    }

    public func setArchived(cardId: Int64, _ archived: Bool, by ownerId: Int64?, now: Double) async throws -> Card {
        try await editing { connection -> (Card, Int64?) in
            guard var c = try await self.card(id: cardId, on: connection) else { throw StoreError.notFound(.card) }
            if (c.archivedAt != nil) == archived { return (c, nil) }
            c.archivedAt = archived ? now : nil
            try await execute("UPDATE cards SET archivedAt = \(c.archivedAt) WHERE id = \(cardId)", on: connection)
            try await touchDeck(
                c.deckId, ownerId: ownerId, kind: .archiving(archived), detail: "{\"card\":\(cardId)}",
                now: now, on: connection)
            return (c, c.deckId)
        }
    }

    public func moveCard(cardId: Int64, to index: Int, by ownerId: Int64?, now: Double) async throws {
        try await editing { connection -> ((), Int64?) in
            guard let c = try await self.card(id: cardId, on: connection) else { throw StoreError.notFound(.card) }
            // The deck row is the lock that orders concurrent moves in one deck.
            try await execute("SELECT 1 FROM decks WHERE id = \(c.deckId) FOR NO KEY UPDATE", on: connection)
            var ids = try await fetch(
                "SELECT id FROM cards WHERE deckId = \(c.deckId) ORDER BY position, id", on: connection
            ) { try $0.next(Int64.self) }
            guard let from = ids.firstIndex(of: cardId) else { return ((), nil) }
            ids.remove(at: from)
            let to = max(0, min(index, ids.count))
            ids.insert(cardId, at: to)
            if from == to { return ((), nil) }
            try await execute(
                """
                UPDATE cards SET position = p.position - 1
                FROM unnest(\(ids)::bigint[]) WITH ORDINALITY AS p(id, position) WHERE cards.id = p.id
                """, on: connection)
            try await touchDeck(
                c.deckId, ownerId: ownerId, kind: .cardMoved,
                detail: "{\"card\":\(cardId),\"from\":\(from),\"to\":\(to)}",
                now: now, on: connection)
            return ((), c.deckId)
        }
    }

    /// The position after the deck's last card, with the deck row locked so two servers adding
    /// cards to one deck do not take the same position.
    func nextPosition(deckId: Int64, on connection: PostgresConnection) async throws -> Int {
        try await execute("SELECT 1 FROM decks WHERE id = \(deckId) FOR NO KEY UPDATE", on: connection)
        return
            (try await value("SELECT MAX(position) FROM cards WHERE deckId = \(deckId)", on: connection, as: Int?.self)
            ?? nil).map { $0 + 1 } ?? 0
    }

    func touchDeck(
        _ deckId: Int64, ownerId: Int64?, kind: DeckEventKind, detail: String, now: Double,
        on connection: PostgresConnection
    ) async throws {
        try await execute("UPDATE decks SET revision = revision + 1 WHERE id = \(deckId)", on: connection)
        try await recordEvent(deckId: deckId, ownerId: ownerId, kind: kind, detail: detail, at: now, on: connection)
    }

    func recordEvent(
        deckId: Int64, ownerId: Int64?, kind: DeckEventKind, detail: String, at now: Double,
        on connection: PostgresConnection
    ) async throws {
        try await execute(
            """
            INSERT INTO deckEvents (deckId, ownerId, kind, detail, createdAt) VALUES (\(deckId), \(ownerId), \(kind.rawValue), \(detail), \(now))
            """, on: connection)
    }
}
