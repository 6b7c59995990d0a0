import Foundation
import Hummingbird
import SwipePhysics

/// `/api/v1/profiles`, `/api/v1/decks`: list, read, create and change decks. Creating needs an
/// owner's API token or session (the deck is theirs) or the admin token (a deck without owner).
struct DecksController: Sendable {
    let store: any Store
    let catalog: Catalog
    let access: DeckAccess
    let decoding: RequestDecoding
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.get("/healthz") { _, _ in ["status": "ok"] }
        let api = router.group("/api/v1")
        api.get("/profiles") { _, _ in ProfileList(profiles: SwipeProfile.all) }
        api.get("/profiles/:name") { _, ctx in
            guard let p = SwipeProfile.named(try ctx.parameters.require("name")) else {
                throw ApiError.notFound("profile")
            }
            return ProfileJSON(profile: p)
        }
        api.get("/decks", use: listDecks)
        api.post("/decks", use: createDeck)
        api.get("/decks/:deck", use: getDeck)
        api.patch("/decks/:deck", use: patchDeck)
    }

    struct ProfileList: ResponseEncodable { let profiles: [SwipeProfile] }

    /// One profile, encoded as the profile itself.
    struct ProfileJSON: ResponseEncodable {
        let profile: SwipeProfile
        func encode(to encoder: any Encoder) throws { try profile.encode(to: encoder) }
    }

    @Sendable func listDecks(_ request: Request, context: AppRequestContext) async throws -> [String: [DeckJSON]] {
        // Decks that take invited people only, and unlisted decks (reached by their link only), are
        // listed to their owner alone.
        let decks = try await store.decks().filter {
            ($0.deck.access == .link && $0.deck.listed) || context.owner?.manages($0.deck) == true
        }
        return [
            "decks": decks.map {
                DeckJSON($0.deck, cardCount: $0.cardCount, forOwner: context.owner?.manages($0.deck) == true)
            }
        ]
    }

    @Sendable func getDeck(_ request: Request, context: AppRequestContext) async throws -> DeckJSON {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        let count = try await catalog.cardCount(deck.slug)
        return DeckJSON(deck, cardCount: count, forOwner: context.owner?.manages(deck) == true)
    }

    @Sendable func createDeck(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<DeckJSON> {
        guard let owner = context.owner else { throw ApiError.unauthorized }
        let body = try await decoding.collectJSONBody(request)
        var (deck, cards) = try RequestDecoding.decode(DeckInput.self, body).validated(now: clock())
        // The settings a PATCH takes (open, access, listed, rooms, stopRule, quality, …) may come with
        // the new deck itself, under the same rules: none is dropped without a word.
        deck = try RequestDecoding.decode(DeckPatch.self, body).applied(to: deck)
        deck.ownerId = owner.ownerId
        let stored = try await store.importDeck(deck, cards: cards)
        return EditedResponse(
            status: .created, headers: [.location: "/api/v1/decks/\(stored.slug)"],
            response: DeckJSON(stored, cardCount: cards.count, forOwner: true))
    }

    @Sendable func patchDeck(_ request: Request, context: AppRequestContext) async throws -> DeckJSON {
        let slug = try context.parameters.require("deck")
        let deck = try await access.managed(slug, context)
        let body = try await decoding.collectJSONBody(request)
        let patch = try RequestDecoding.decode(DeckPatch.self, body)
        let detail = String(buffer: body)
        let stored = try await store.updateDeck(
            id: deck.id, patch, by: context.owner?.ownerId, detail: { _ in detail }, now: clock())
        return DeckJSON(stored, cardCount: try await catalog.cardCount(slug), forOwner: true)
    }
}
