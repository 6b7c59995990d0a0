import Foundation
import Hummingbird

/// Who may vote on a deck, for its owner: `GET /api/v1/decks/{deck}/access` (the mode, the link
/// to share, the key an allow list's links are signed with) and the one-time codes of a `codes`
/// deck (`GET`/`POST /api/v1/decks/{deck}/codes`). The mode itself is a deck setting (`PATCH`).
struct AccessController: Sendable {
    let store: any Store
    let access: DeckAccess
    let decoding: RequestDecoding
    /// Reveals the deck's access secret from what the database stores.
    let secretKey: SecretKey
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.get("/api/v1/decks/:deck/access", use: accessInfo)
        router.get("/api/v1/decks/:deck/codes", use: listCodes)
        router.post("/api/v1/decks/:deck/codes", use: makeCodes)
    }

    struct AccessJSON: ResponseEncodable {
        /// `DeckAccessMode` raw value.
        let access: String
        /// The path to share: with the secret for an `unlisted` deck.
        let link: String
        /// The key of HMAC-SHA256 signatures for an `allowList` deck's links (absent in other modes).
        let signatureKey: String?
        /// How many one-time codes the deck has.
        let codes: Int
    }

    /// The path that admits people to `deck` in its mode (the secret link for `unlisted`).
    static func invitation(_ deck: Deck, secretKey: SecretKey) throws -> String {
        guard deck.access == .unlisted, let secret = try secretKey.accessSecret(of: deck) else {
            return "/d/\(deck.slug)"
        }
        return "/d/\(deck.slug)?k=\(secret)"
    }

    @Sendable func accessInfo(_ request: Request, context: AppRequestContext) async throws -> AccessJSON {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let codes = try await store.accessCodes(deckId: deck.id).count
        return AccessJSON(
            access: deck.access.rawValue, link: try Self.invitation(deck, secretKey: secretKey),
            signatureKey: deck.access == .allowList ? try secretKey.accessSecret(of: deck) : nil,
            codes: codes)
    }

    @Sendable func listCodes(_ request: Request, context: AppRequestContext) async throws -> [String: [String]] {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        return ["codes": try await store.accessCodes(deckId: deck.id).map(AccessCode.shown)]
    }

    struct MakeCodes: Decodable { var count: Int }

    /// Makes `count` (1–1,000) new codes; they admit people once the deck's access is `codes`.
    @Sendable func makeCodes(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<
        [String: [String]]
    > {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let body = try await decoding.decodeJSON(MakeCodes.self, from: request)
        let codes = try await Self.make(body.count, for: deck, store, now: clock())
        return EditedResponse(status: .created, response: ["codes": codes.map(AccessCode.shown)])
    }

    /// Stores `count` fresh codes for `deck` and returns them.
    /// - Throws: `invalid_count` outside 1…`AccessCode.maxPerRequest`.
    static func make(_ count: Int, for deck: Deck, _ store: any Store, now: Double) async throws -> [String] {
        guard (1...AccessCode.maxPerRequest).contains(count) else {
            throw ApiError.invalidField(
                code: "invalid_count", message: "count must be a whole number from 1 to \(AccessCode.maxPerRequest).")
        }
        let codes = (0..<count).map { _ in AccessCode.make() }
        try await store.addAccessCodes(deckId: deck.id, codes, now: now)
        return codes
    }
}
