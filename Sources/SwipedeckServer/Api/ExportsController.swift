import Foundation
import Hummingbird

/// `GET /api/v1/decks/{deck}/swipes.csv` and `…/swipes.jsonl`: every swipe of the deck, streamed
/// in pages of `pageSize` rows, so a deck of millions exports in constant memory. The owner's
/// only, also when the results are public: public results publish the ranking, not each
/// participant's decisions, times and flags.
struct ExportsController: Sendable {
    let store: any Store
    let access: DeckAccess
    /// Participants appear under their pseudonyms, never as anything that acts.
    let names: ParticipantNames
    /// Rows per database read and per written chunk.
    static let pageSize = 5000

    func register(on router: Router<AppRequestContext>) {
        router.get("/api/v1/decks/:deck/swipes.csv", use: csv)
        router.get("/api/v1/decks/:deck/swipes.jsonl", use: jsonLines)
    }

    @Sendable func csv(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let names = DirectionNames(deck: deck)
        return stream(
            deck, type: "text/csv; charset=utf-8", file: "\(deck.slug)-swipes.csv",
            header: SwipeExport.csvHeader + "\r\n"
        ) { rows in
            rows.map { SwipeExport.csvLine($0.swipe, names: names) }.joined()
        }
    }

    @Sendable func jsonLines(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        return stream(deck, type: "application/x-ndjson", file: "\(deck.slug)-swipes.jsonl", header: "") { rows in
            try rows.map { try SwipeExport.jsonLine($0.swipe, encoder: JSONCoding.shared) }.joined()
        }
    }

    func stream(
        _ deck: Deck, type: String, file: String, header: String,
        render: @escaping @Sendable ([SwipeExportRow]) throws -> String
    ) -> Response {
        let store = store
        let names = names
        let deckId = deck.id
        return Response(
            status: .ok,
            headers: [
                .contentType: type, .contentDisposition: "attachment; filename=\"\(file)\"", .cacheControl: "no-store",
            ],
            body: ResponseBody { writer in
                if !header.isEmpty { try await writer.write(ByteBuffer(string: header)) }
                var after: Int64 = 0
                while true {
                    var rows = try await store.swipePage(deckId: deckId, after: after, limit: Self.pageSize)
                    guard let last = rows.last else { break }
                    for i in rows.indices {
                        rows[i].swipe.participantId = names.shown(rows[i].swipe.participantId, deckId: deckId)
                    }
                    try await writer.write(ByteBuffer(string: try render(rows)))
                    after = last.cursor
                }
                try await writer.finish(nil)
            })
    }
}
