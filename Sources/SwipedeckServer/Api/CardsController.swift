import Foundation
import Hummingbird

/// `/api/v1/decks/{deck}/cards`: the cards a participant has still to decide (paged), and the
/// owner's card operations: add, edit (a new revision), archive or restore, move.
struct CardsController: Sendable {
    let store: any Store
    let catalog: Catalog
    let access: DeckAccess
    let swipes: SwipeService
    let decoding: RequestDecoding
    /// Deals known-answer cards at the deck's share.
    let knownAnswers: KnownAnswers
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        let cards = router.group("/api/v1/decks/:deck/cards")
        cards.get(use: listCards)
        cards.post(use: addCard)
        cards.patch("/:card", use: editCard)
        cards.post("/:card/archive", use: archiveCard)
        cards.post("/:card/restore", use: restoreCard)
        cards.post("/:card/move", use: moveCard)
    }

    @Sendable func listCards(_ request: Request, context: AppRequestContext) async throws -> CardPage {
        let slug = try context.parameters.require("deck")
        let deck = try await catalog.deck(slug)
        let limit = try RequestDecoding.intParam(
            try RequestDecoding.query(request, "limit"), name: "limit", default: 20, range: 1...100)
        let cursor = try RequestDecoding.intParam(
            try RequestDecoding.query(request, "cursor"), name: "cursor", default: -1, range: -1...Int(Int32.max))
        let named = try RequestDecoding.query(request, "participant")
        let manages = context.owner?.manages(deck) == true
        let participant: String?
        if manages && named == nil {
            // The owner reads their own deck whatever its access: every card in order, or their
            // browser's own deal when a credential it held before this request acts on the deck
            // (the cookie a request without one was just given has decided nothing).
            participant = context.participantIsNew ? nil : swipes.cookieIdentity(context.cookies, deck: deck)
        } else if named == nil && context.participant == nil && deck.access == .link {
            participant = nil
        } else {
            // An invitation-only deck's cards are for the people it admitted (and its owner).
            participant = try swipes.identity(named, cookies: context.cookies, deck: deck, now: clock()).id
        }
        if let code = try RequestDecoding.query(request, "room") {
            return try await roomDeal(
                code: code, deck: deck,
                participant: try swipes.identity(
                    named, cookies: context.cookies, deck: deck, now: clock()
                ).id, after: cursor, limit: limit)
        }
        let pacing = try await catalog.pacing(slug)
        let page = try await Dealer(store: store).page(
            deck: deck, participant: participant, after: cursor, limit: limit, pacing: pacing, now: clock())
        // Host-paced, the presenter's card is the whole deal: no known-answer card joins it.
        let cards =
            pacing.hosted ? page.cards : try await knownAnswers.dealt(page.cards, deck: deck, participant: participant)
        // The owner sees the known answers of their deck's cards (as on their card editor); nobody else does.
        return CardPage(
            cards: cards.map { CardJSON($0, deck: slug, withAnswer: manages) },
            nextCursor: page.nextCursor.map(String.init),
            remaining: page.remaining)
    }

    /// `?room=CODE`: the room's deal for a current member (`RoomSnapshot.deal`); `cursor` is the
    /// index in that deal of the last card received (-1 to start).
    /// - Throws: `room_not_found`, `not_a_room_member` (also for a room of another deck).
    func roomDeal(code: String, deck: Deck, participant: String, after cursor: Int, limit: Int) async throws
        -> CardPage
    {
        guard let rooms = swipes.rooms else { throw ApiError.room(.notFound) }
        let room = try await rooms.room(code)
        let snapshot = try await store.roomSnapshot(roomId: room.id)
        guard room.deckId == deck.id, rooms.isMember(snapshot, participant) else { throw ApiError.room(.notMember) }
        let deal = snapshot.deal(for: participant)
        let start = min(deal.count, cursor + 1)
        let page = Array(deal[start...].prefix(limit))
        let byId = Dictionary(uniqueKeysWithValues: try await store.allCards(deckId: deck.id).map { ($0.id, $0) })
        let remaining = deal.count - start
        return CardPage(
            cards: page.compactMap { byId[$0] }.map { CardJSON($0, deck: deck.slug) },
            nextCursor: remaining > page.count ? String(start + page.count - 1) : nil, remaining: remaining)
    }

    @Sendable func addCard(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<CardJSON> {
        let slug = try context.parameters.require("deck")
        let deck = try await access.managed(slug, context)
        let input = try await decoding.decodeJSON(DeckInput.CardInput.self, from: request)
        let card = try input.validated(position: 0, label: "card")
        let stored = try await store.addCard(card, deckId: deck.id, by: context.owner?.ownerId, now: clock())
        return EditedResponse(
            status: .created, headers: [.location: "/api/v1/decks/\(slug)/cards/\(stored.id)"],
            response: CardJSON(stored, deck: slug, withAnswer: true))
    }

    @Sendable func editCard(_ request: Request, context: AppRequestContext) async throws -> CardJSON {
        let (slug, card) = try await managedCard(context)
        let patch = try await decoding.decodeJSON(CardPatch.self, from: request)
        let stored = try await store.editCard(try patch.applied(to: card), by: context.owner?.ownerId, now: clock())
        return CardJSON(stored, deck: slug, withAnswer: true)
    }

    @Sendable func archiveCard(_ request: Request, context: AppRequestContext) async throws -> CardJSON {
        try await setArchived(true, context)
    }

    @Sendable func restoreCard(_ request: Request, context: AppRequestContext) async throws -> CardJSON {
        try await setArchived(false, context)
    }

    func setArchived(_ archived: Bool, _ context: AppRequestContext) async throws -> CardJSON {
        let (slug, card) = try await managedCard(context)
        let stored = try await store.setArchived(cardId: card.id, archived, by: context.owner?.ownerId, now: clock())
        return CardJSON(stored, deck: slug, withAnswer: true)
    }

    struct MoveBody: Decodable { let index: Int }

    @Sendable func moveCard(_ request: Request, context: AppRequestContext) async throws -> CardJSON {
        let (slug, card) = try await managedCard(context)
        let body = try await decoding.decodeJSON(MoveBody.self, from: request)
        try await store.moveCard(cardId: card.id, to: body.index, by: context.owner?.ownerId, now: clock())
        guard let moved = try await store.card(id: card.id) else { throw ApiError.notFound("card") }
        return CardJSON(moved, deck: slug, withAnswer: true)
    }

    /// The `:deck` the request manages and its `:card` (404 when the card is another deck's).
    func managedCard(_ context: AppRequestContext) async throws -> (String, Card) {
        let slug = try context.parameters.require("deck")
        let deck = try await access.managed(slug, context)
        guard let id = Int64(try context.parameters.require("card")), let card = try await store.card(id: id),
            card.deckId == deck.id
        else {
            throw ApiError.notFound("card")
        }
        return (slug, card)
    }
}
