import Foundation
import Hummingbird

/// Joining a deck over the API:
/// - `POST /api/v1/decks/{deck}/participants` mints a participant credential for a program,
///   valid on this deck only and for `ParticipantSigner.deckLifetime`. On a deck that takes invited
///   people only, the JSON body carries the proof (`{"key":…}`, `{"code":…}` or `{"pid":…,"sig":…}`,
///   `Admissions`). Each mint takes a join from the free budget of the client's network (the one
///   browser cookies share), so nobody mints a crowd or guesses codes fast; past it, a solved join
///   puzzle in the body (`{"puzzle":{…,"number":n}}`) pays instead.
/// - `POST /api/v1/decks/{deck}/puzzles` issues a join puzzle (`JoinPuzzle`) for this deck and the
///   client's network.
/// - `POST /api/v1/decks/{deck}/join` is the deck page's: the same join, answered with the deck's
///   admission cookie (`sd_d<deck id>`, HttpOnly) and no body, so the page's script never holds
///   the credential.
struct ParticipantsController: Sendable {
    let catalog: Catalog
    let admissions: Admissions
    let decoding: RequestDecoding
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.post("/api/v1/decks/:deck/participants", use: mint)
        router.post("/api/v1/decks/:deck/puzzles", use: puzzle)
        router.post("/api/v1/decks/:deck/join", use: browserJoin)
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

    /// A join puzzle as issued (`JoinPuzzle`, without `number`).
    struct Puzzle: ResponseEncodable {
        let puzzle: JoinPuzzle

        func encode(to encoder: any Encoder) throws { try puzzle.encode(to: encoder) }
    }

    @Sendable func puzzle(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        if !deck.isOpen { throw ApiError.deckClosed }
        let issued = try await admissions.puzzles.issue(deck: deck, address: context.remoteAddress, now: clock())
        var response = try context.responseEncoder.encode(Puzzle(puzzle: issued), from: request, context: context)
        response.status = .created
        response.headers[.cacheControl] = "no-store"
        return response
    }

    @Sendable func browserJoin(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        if !deck.isOpen { throw ApiError.deckClosed }
        let proof = try await decoding.decodeJSON(Admissions.Proof.self, from: request)
        let token = try await admissions.join(deck, proof, address: context.remoteAddress, now: clock()).token
        var response = Response(status: .noContent)
        response.setCookie(ParticipantCookies.deckCookie(deck.id, token))
        return response
    }

    @Sendable func mint(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<Minted> {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        if !deck.isOpen { throw ApiError.deckClosed }
        let now = clock()
        var proof = Admissions.Proof()
        if request.headers[.contentType] != nil {
            proof = try await decoding.decodeJSON(Admissions.Proof.self, from: request)
        }
        let joined = try await admissions.join(deck, proof, address: context.remoteAddress, now: now)
        // A credential a puzzle paid for counts from when the puzzle was issued.
        let expiresAt = Self.iso8601((joined.credential.mintedAt ?? now) + ParticipantSigner.deckLifetime)
        return EditedResponse(status: .created, response: Minted(participant: joined.token, expiresAt: expiresAt))
    }
}
