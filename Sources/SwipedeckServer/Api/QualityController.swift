import Foundation
import Hummingbird

/// `GET /api/v1/decks/{deck}/quality` (JSON: the deck's `QualityReport`), and its exports
/// `…/quality/participants.csv` and `…/quality/cards.csv`. The owner's only, also when the results
/// are public: they judge each participant.
struct QualityController: Sendable {
    let store: any Store
    let access: DeckAccess
    /// Participants appear under their pseudonyms, as in the other exports.
    let names: ParticipantNames
    func register(on router: Router<AppRequestContext>) {
        let deck = router.group("/api/v1/decks/:deck/quality")
        deck.get(use: quality)
        deck.get("/participants.csv", use: participantsCSV)
        deck.get("/cards.csv", use: cardsCSV)
    }

    @Sendable func quality(_ request: Request, context: AppRequestContext) async throws -> QualityReport {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        return try await QualityReport.read(deck, store: store, names: names)
    }

    @Sendable func participantsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let report = try await QualityReport.read(deck, store: store, names: names)
        return Self.csv(QualityCSV.participants(report), file: "\(deck.slug)-participants.csv")
    }

    @Sendable func cardsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let report = try await QualityReport.read(deck, store: store, names: names)
        return Self.csv(QualityCSV.cards(report, names: DirectionNames(deck: deck)), file: "\(deck.slug)-cards.csv")
    }

    static func csv(_ text: String, file: String) -> Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(file)\"",
                .cacheControl: "no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
