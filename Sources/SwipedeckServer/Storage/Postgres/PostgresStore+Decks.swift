import Foundation
import PostgresNIO

extension PostgresStore {
    public func importDeck(_ deck: NewDeck, cards: [NewCard], progress: (@Sendable (Int) -> Void)?) async throws -> Deck
    {
        do {
            return try await transaction { connection in
                if try await value("SELECT 1 FROM decks WHERE slug = \(deck.slug)", on: connection, as: Int.self) != nil
                {
                    throw StoreError.slugTaken
                }
                let d = try await insertDeck(deck, on: connection)
                let deckId = d.id
                for (i, c) in cards.enumerated() {
                    var card = c
                    card.deckId = deckId
                    card.revision = 1
                    _ = try await insertCard(card, createdAt: d.createdAt, on: connection)
                    if i % 1000 == 999 { progress?(i + 1) }
                }
                progress?(cards.count)
                return d
            }
        } catch  where Self.isUniqueViolation(error) {
            // Another server stored the same slug between our check and our insert.
            throw StoreError.slugTaken
        }
    }

    /// Inserts a deck; returns it with the id the insert gave it.
    func insertDeck(_ d: NewDeck, on connection: PostgresConnection) async throws -> Deck {
        guard
            let id = try await value(
                """
                INSERT INTO decks (slug, title, description, profile, allowButtons, leftLabel, rightLabel, upLabel, downLabel,
                                   createdAt, ownerId, isOpen, resultsPublic, quota, cardOrder, countedInputs, revision,
                                   access, accessSecret, joinLimit, listed, rooms)
                VALUES (\(d.slug), \(d.title), \(d.description), \(d.profile), \(d.allowButtons), \(d.leftLabel), \(d.rightLabel),
                        \(d.upLabel), \(d.downLabel), \(d.createdAt), \(d.ownerId), \(d.isOpen), \(d.resultsPublic), \(d.quota),
                        \(d.cardOrder.rawValue), \(CountedInput.stored(d.countedInputs)), \(d.revision), \(d.access.rawValue),
                        \(d.accessSecret), \(d.joinLimit), \(d.listed), \(d.rooms))
                RETURNING id
                """, on: connection, as: Int64.self)
        else { throw StoreError.notFound(.deck) }
        return Deck(id: id, d)
    }

    /// Inserts a card and its revision row (`card.revision`, created at `createdAt`); returns it with
    /// the id the insert gave it.
    func insertCard(_ c: NewCard, createdAt: Double, on connection: PostgresConnection) async throws -> Card {
        let images = Card.encodeImageList(c.moreImages)
        guard
            let id = try await value(
                """
                INSERT INTO cards (deckId, position, title, subtitle, body, image, moreImages, link, accent, revision, archivedAt)
                VALUES (\(c.deckId), \(c.position), \(c.title), \(c.subtitle), \(c.body), \(c.image), \(images), \(c.link), \(c.accent),
                        \(c.revision), \(c.archivedAt))
                RETURNING id
                """, on: connection, as: Int64.self)
        else { throw StoreError.notFound(.card) }
        let stored = Card(id: id, c)
        try await storeRevision(stored, now: createdAt, on: connection)
        return stored
    }

    func storeRevision(_ c: Card, now: Double, on connection: PostgresConnection) async throws {
        try await execute(
            """
            INSERT INTO cardRevisions (cardId, revision, title, subtitle, body, image, moreImages, link, accent, createdAt)
            VALUES (\(c.id), \(c.revision), \(c.title), \(c.subtitle), \(c.body), \(c.image), \(Card.encodeImageList(c.moreImages)),
                    \(c.link), \(c.accent), \(now))
            """, on: connection)
    }

    public func decks() async throws -> [DeckSummary] {
        try await fetch(
            """
            SELECT \(unescaped: Self.deckColumns),
                   (SELECT COUNT(*) FROM cards c WHERE c.deckId = d.id AND c.archivedAt IS NULL),
                   (SELECT image FROM cards c WHERE c.deckId = d.id AND c.archivedAt IS NULL ORDER BY position LIMIT 1)
            FROM decks d ORDER BY d.createdAt, d.id
            """
        ) { c in
            DeckSummary(deck: try Self.deck(&c), cardCount: try c.next(), cover: try c.next(String?.self) ?? "")
        }
    }

    public func deck(slug: String) async throws -> Deck? {
        try await fetchOne("SELECT \(unescaped: Self.deckColumns) FROM decks WHERE slug = \(slug)", Self.deck)
    }

    public func deckSlug(id: Int64) async throws -> String {
        guard let slug = try await value("SELECT slug FROM decks WHERE id = \(id)", as: String.self) else {
            throw StoreError.notFound(.deck)
        }
        return slug
    }

    public func card(id: Int64) async throws -> Card? {
        try await fetchOne("SELECT \(unescaped: Self.cardColumns) FROM cards WHERE id = \(id)", Self.card)
    }

    func card(id: Int64, on connection: PostgresConnection) async throws -> Card? {
        try await fetchOne(
            "SELECT \(unescaped: Self.cardColumns) FROM cards WHERE id = \(id) FOR NO KEY UPDATE", on: connection,
            Self.card)
    }

    public func cardIds(deckId: Int64) async throws -> (active: Set<Int64>, archived: Set<Int64>) {
        var ids: (active: Set<Int64>, archived: Set<Int64>) = ([], [])
        for (id, archived) in try await fetch(
            "SELECT id, archivedAt IS NOT NULL FROM cards WHERE deckId = \(deckId)",
            { (try $0.next(Int64.self), try $0.next(Bool.self)) })
        {
            if archived { ids.archived.insert(id) } else { ids.active.insert(id) }
        }
        return ids
    }

    /// A listed deck pages in SQL; a shuffled one sorts the deck's unswiped cards in Swift (the
    /// order is `CardOrder.shuffleKey`, which SQLite computes in SQL through a registered function).
    public func unswipedCards(
        deckId: Int64, participant: String?, order: CardOrder, after cursor: Int, limit: Int
    ) async throws -> (cards: [Card], remaining: Int) {
        let who = participant ?? ""
        if order == .listed {
            let cards = try await fetch(
                """
                SELECT \(unescaped: Self.cardColumns) FROM cards
                WHERE deckId = \(deckId) AND archivedAt IS NULL AND position > \(cursor)
                  AND id NOT IN (SELECT cardId FROM swipes WHERE participantId = \(who) AND undoneAt IS NULL)
                ORDER BY position, id LIMIT \(limit)
                """, Self.card)
            let remaining =
                try await value(
                    """
                    SELECT COUNT(*) FROM cards WHERE deckId = \(deckId) AND archivedAt IS NULL AND position > \(cursor)
                      AND id NOT IN (SELECT cardId FROM swipes WHERE participantId = \(who) AND undoneAt IS NULL)
                    """, as: Int.self) ?? 0
            return (cards, remaining)
        }
        let left = try await fetch(
            """
            SELECT \(unescaped: Self.cardColumns) FROM cards WHERE deckId = \(deckId) AND archivedAt IS NULL
              AND id NOT IN (SELECT cardId FROM swipes WHERE participantId = \(who) AND undoneAt IS NULL)
            """, Self.card
        )
        .map { (key: order.sortKey($0, participant: participant), card: $0) }
        .filter { $0.key > cursor }
        .sorted { ($0.key, $0.card.id) < ($1.key, $1.card.id) }
        return (left.prefix(max(0, limit)).map(\.card), left.count)
    }

    public func allCards(deckId: Int64) async throws -> [Card] {
        try await fetch(
            "SELECT \(unescaped: Self.cardColumns) FROM cards WHERE deckId = \(deckId) ORDER BY position, id", Self.card
        )
    }
}
