import Foundation
import PostgresNIO

/// Column lists and their decoders, in the same order (`PostgresColumns` reads by position).
extension PostgresStore {
    static let deckColumns = """
        id, slug, title, description, profile, allowButtons, leftLabel, rightLabel, upLabel, downLabel, createdAt, \
        ownerId, isOpen, resultsPublic, quota, cardOrder, countedInputs, revision, access, accessSecret, joinLimit, listed, rooms
        """

    static func deck(_ c: inout PostgresColumns) throws -> Deck {
        let id: Int64 = try c.next()
        var d = NewDeck(
            slug: try c.next(), title: try c.next(), description: try c.next(), profile: try c.next(),
            allowButtons: try c.next(), leftLabel: try c.next(), rightLabel: try c.next(), upLabel: try c.next(),
            downLabel: try c.next(), createdAt: try c.next())
        d.ownerId = try c.next()
        d.isOpen = try c.next()
        d.resultsPublic = try c.next()
        d.quota = try c.next()
        d.cardOrder = try c.next()
        d.countedInputs = try c.next(Set<CountedInput>.self)
        d.revision = try c.next()
        d.access = try c.next()
        d.accessSecret = try c.next()
        d.joinLimit = try c.next()
        d.listed = try c.next()
        d.rooms = try c.next()
        return Deck(id: id, d)
    }

    static let cardColumns = """
        id, deckId, position, title, subtitle, body, image, moreImages, link, accent, revision, archivedAt
        """

    static func card(_ c: inout PostgresColumns) throws -> Card {
        let id: Int64 = try c.next()
        var card = NewCard(deckId: try c.next(), position: try c.next(), title: try c.next(), subtitle: try c.next())
        card.body = try c.next()
        card.image = try c.next()
        card.moreImages = Card.decodeImageList(try c.next(String.self))
        card.link = try c.next()
        card.accent = try c.next()
        card.revision = try c.next()
        card.archivedAt = try c.next()
        return Card(id: id, card)
    }

    static let swipeColumns = """
        id, deckId, cardId, participantId, direction, input, trace, velocityX, velocityY, durationMs, decisionMs, \
        suspect, requestHash, createdAt, undoneAt, cardRevision, suspectReason, traceData
        """

    static func swipe(_ c: inout PostgresColumns) throws -> Swipe {
        Swipe(
            id: try c.next(), deckId: try c.next(), cardId: try c.next(), participantId: try c.next(),
            direction: try c.next(),
            input: try c.next(), trace: try c.next(), velocityX: try c.next(), velocityY: try c.next(),
            durationMs: try c.next(),
            decisionMs: try c.next(), suspect: try c.next(), requestHash: try c.next(), createdAt: try c.next(),
            undoneAt: try c.next(), cardRevision: try c.next(), suspectReason: try c.next(), traceData: try c.next())
    }

    /// `excluded, k0, k1, k2, k3, k4` of a `deckParticipants` row.
    static func participantState(_ c: inout PostgresColumns) throws -> ParticipantState {
        ParticipantState(
            excluded: try c.next(), counts: [try c.next(), try c.next(), try c.next(), try c.next(), try c.next()])
    }

    static let ownerColumns = "id, name, passwordHash, createdAt"

    static func owner(_ c: inout PostgresColumns) throws -> Owner {
        Owner(id: try c.next(), name: try c.next(), passwordHash: try c.next(), createdAt: try c.next())
    }

    static let imageColumns = "hash, contentType, bytes, width, height, ownerId, createdAt"

    static func image(_ c: inout PostgresColumns) throws -> StoredImage {
        StoredImage(
            hash: try c.next(), contentType: try c.next(), bytes: try c.next(), width: try c.next(),
            height: try c.next(),
            ownerId: try c.next(), createdAt: try c.next())
    }
}
