import Foundation
import Hummingbird

/// `POST /api/v1/decks/{deck}/participants`: mints a participant credential for a program,
/// valid on this deck only and for `ParticipantSigner.deckLifetime`. On a deck that takes invited
/// people only, the JSON body carries the proof (`{"key":…}`, `{"code":…}` or `{"pid":…,"sig":…}`,
/// `Admissions`). Rate-limited per client network (the join budget browser cookies share), so
/// nobody mints a crowd or guesses codes fast.
struct ParticipantsController: Sendable {
    let catalog: Catalog
    let admissions: Admissions
    let decoding: RequestDecoding
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.post("/api/v1/decks/:deck/participants", use: mint)
    }

    struct Minted: ResponseEncodable {
        /// The credential: send it as `participant` with every swipe, undo, flip and history read.
        let participant: String
        /// When it stops acting (ISO 8601, UTC).
        let expiresAt: String
    }

    static func iso8601(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds.rounded(.down)).formatted(.iso8601)
    }

    @Sendable func mint(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<Minted> {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        if !deck.isOpen { throw ApiError.deckClosed }
        let now = clock()
        var proof = Admissions.Proof()
        if request.headers[.contentType] != nil {
            proof = try await decoding.decodeJSON(Admissions.Proof.self, from: request)
        }
        let credential = try await admissions.join(deck, proof, address: context.remoteAddress, now: now).token
        let expiresAt = Self.iso8601(now + ParticipantSigner.deckLifetime)
        return EditedResponse(status: .created, response: Minted(participant: credential, expiresAt: expiresAt))
    }
}
