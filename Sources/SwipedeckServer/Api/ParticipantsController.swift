import Hummingbird

/// `POST /api/v1/decks/{deck}/participants`: mints a signed participant id for a program.
/// Rate-limited per IP (the same budget as browser cookies), so nobody mints a crowd.
struct ParticipantsController: Sendable {
    let catalog: Catalog
    let signer: ParticipantSigner
    let mintLimiter: RateLimiter
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.post("/api/v1/decks/:deck/participants", use: mint)
    }

    struct Minted: Encodable { let participant: String }

    @Sendable func mint(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try await context.parameters.require("deck"))
        if !deck.isOpen { throw ApiError.deckClosed }
        let now = clock()
        if let ip = context.remoteAddress, let wait = mintLimiter.take("mint:" + ip, now: now) {
            throw ApiError.rateLimited(retryAfter: wait)
        }
        return JSONResponse.make(Minted(participant: signer.mint(now: now)), status: .created)
    }
}
