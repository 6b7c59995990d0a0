import Foundation
import HTTPTypes
import Hummingbird
import SwipePhysics

/// JSON API v1. Errors are `ApiError`s (JSON `{"error":{"code","message"}}` via `ErrorMiddleware`).
struct ApiController: Sendable {
    let database: AppDatabase
    let catalog: Catalog
    let swipes: SwipeService
    let adminToken: String
    let maxBodyBytes: Int
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.get("/healthz") { _, _ in JSONResponse.make(["status": "ok"]) }
        let api = router.group("/api/v1")
        api.get("/profiles") { _, _ in JSONResponse.make(ProfileList(profiles: SwipeProfile.all)) }
        api.get("/profiles/:name") { _, ctx in
            guard let p = SwipeProfile.named(try ctx.parameters.require("name")) else { throw ApiError.notFound("profile") }
            return JSONResponse.make(p)
        }
        api.get("/decks", use: listDecks)
        api.post("/decks", use: createDeck)
        api.get("/decks/:deck", use: getDeck)
        api.get("/decks/:deck/cards", use: listCards)
        api.post("/decks/:deck/swipes", use: postSwipe)
        api.post("/decks/:deck/swipes/batch", use: postBatch)
        api.get("/decks/:deck/history", use: history)
        api.get("/decks/:deck/results", use: results)
        api.get("/decks/:deck/results.csv", use: resultsCSV)
        api.delete("/swipes/:id", use: undo)
        api.post("/swipes/:id/flip", use: flip)
    }

    struct ProfileList: Encodable { let profiles: [SwipeProfile] }

    // MARK: Decks

    @Sendable func listDecks(_ request: Request, context: AppRequestContext) async throws -> Response {
        JSONResponse.make(["decks": try database.decks().map { DeckJSON($0.deck, cardCount: $0.cardCount) }])
    }

    @Sendable func getDeck(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try catalog.deck(try context.parameters.require("deck"))
        let count = try catalog.cardCount(deck.slug)
        return JSONResponse.make(DeckJSON(deck, cardCount: count))
    }

    @Sendable func createDeck(_ request: Request, context: AppRequestContext) async throws -> Response {
        try requireAdmin(request)
        let input = try await decodeJSON(DeckInput.self, from: request)
        let (deck, cards) = try input.validated(now: clock())
        let stored = try database.importDeck(deck, cards: cards)
        return JSONResponse.make(DeckJSON(stored, cardCount: cards.count), status: .created, headers: [.location: "/api/v1/decks/\(stored.slug)"])
    }

    func requireAdmin(_ request: Request) throws {
        guard let auth = request.headers[.authorization], auth.hasPrefix("Bearer ") else { throw ApiError.unauthorized }
        let given = Array(auth.dropFirst(7).utf8), want = Array(adminToken.utf8)
        // Compare every byte so timing does not reveal the matching prefix.
        var diff = given.count ^ want.count
        for i in 0..<max(given.count, want.count) {
            diff |= Int((i < given.count ? given[i] : 0) ^ (i < want.count ? want[i] : 0))
        }
        if diff != 0 { throw ApiError.unauthorized }
    }

    // MARK: Cards

    @Sendable func listCards(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        let deck = try catalog.deck(slug)
        let limit = try Self.intParam(try Self.query(request, "limit"), name: "limit", default: 20, range: 1...100)
        let cursor = try Self.intParam(try Self.query(request, "cursor"), name: "cursor", default: -1, range: -1...Int(Int32.max))
        let participant = try Self.query(request, "participant").map { p -> String in
            guard Participant.isValidId(String(p)) else { throw ApiError.invalidField(code: "invalid_participant", message: "participant must be 1–64 characters of A–Z, a–z, 0–9, '_', '-'.") }
            return String(p)
        } ?? context.participant
        let (cards, remaining) = try database.unswipedCards(deckId: deck.id ?? 0, participant: participant, after: cursor, limit: limit)
        let next = remaining > cards.count ? cards.last.map { String($0.position) } : nil
        return JSONResponse.make(CardPage(cards: cards.map { CardJSON($0, deck: slug) }, nextCursor: next, remaining: remaining))
    }

    /// A query parameter given at most once (nil when absent); a repeated one is a 400 `invalid_<name>`.
    static func query(_ request: Request, _ name: String) throws -> String? {
        let all = request.uri.queryParameters.getAll(name)
        if all.count > 1 { throw ApiError.invalidField(code: "invalid_\(name)", message: "\(name) may be given once.") }
        return all.first
    }

    /// An integer query parameter; absent gives the default, anything else (empty too) must be in range.
    static func intParam(_ s: String?, name: String, default d: Int, range: ClosedRange<Int>) throws -> Int {
        guard let s else { return d }
        guard let v = Int(s), range.contains(v) else {
            throw ApiError.invalidField(code: "invalid_\(name)", message: "\(name) must be an integer in \(range.lowerBound)…\(range.upperBound).")
        }
        return v
    }

    // MARK: Swipes

    @Sendable func postSwipe(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        let body = try await collectJSONBody(request)
        let fast = SwipeBodyParser.parse(body)
        let r: SwipeRequest = try fast?.request ?? Self.decode(SwipeRequest.self, body)
        let participantPart = Array((r.participant ?? context.knownParticipant ?? "").utf8)
        let fingerprint = SwipeService.fingerprint([Array(slug.utf8), participantPart, Array(body.readableBytesView)])
        let outcome = try await swipes.submit(
            deck: slug, r, key: request.headers[.idempotencyKey], fingerprint: fingerprint,
            cookieParticipant: context.participant, now: clock(), traceJSON: fast?.traceJSON)
        func answer(_ s: Swipe, _ extra: HTTPFields) -> Response {
            var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
            headers.append(contentsOf: extra)
            return Response(status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(string: SwipeEnvelope(swipe: SwipeJSON(s, deck: slug)).json)))
        }
        switch outcome {
        case .created(let s): return answer(s, [.location: "/api/v1/swipes/\(s.id)"])
        case .replayed(let s): return answer(s, [.idempotentReplayed: "true"])
        case .refused(let e): throw e
        }
    }

    struct Batch: Decodable { var swipes: [SwipeRequest] }

    @Sendable func postBatch(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        let body = try await collectJSONBody(request)
        let batch = try Self.decode(Batch.self, body)
        if batch.swipes.isEmpty || batch.swipes.count > 100 {
            throw ApiError.invalidField(code: "invalid_batch_size", message: "A batch holds 1–100 swipes.")
        }
        _ = try catalog.deck(slug)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let results = await withTaskGroup(of: (Int, BatchItemResult).self) { group in
            for (i, item) in batch.swipes.enumerated() {
                group.addTask {
                    let part = (try? encoder.encode(item)) ?? Data()
                    let fp = SwipeService.fingerprint([Array(slug.utf8), Array((item.participant ?? context.knownParticipant ?? "").utf8), Array(part)])
                    do {
                        let o = try await swipes.submit(deck: slug, item, key: item.idempotencyKey, fingerprint: fp, cookieParticipant: context.participant, now: clock())
                        switch o {
                        case .created(let s): return (i, BatchItemResult(status: 201, swipe: SwipeJSON(s, deck: slug), replayed: false, error: nil))
                        case .replayed(let s): return (i, BatchItemResult(status: 201, swipe: SwipeJSON(s, deck: slug), replayed: true, error: nil))
                        case .refused(let e): return (i, BatchItemResult(e))
                        }
                    } catch let e as ApiError {
                        return (i, BatchItemResult(e))
                    } catch {
                        return (i, BatchItemResult(.internalError))
                    }
                }
            }
            var out = [BatchItemResult?](repeating: nil, count: batch.swipes.count)
            for await (i, r) in group { out[i] = r }
            return out.compactMap { $0 }
        }
        return JSONResponse.make(["results": results])
    }

    @Sendable func undo(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let participant = try participantParam(request, context)
        let s = try database.undoSwipe(id: id, participant: participant, at: clock())
        let deck = try database.deckSlug(id: s.deckId)
        return JSONResponse.make(SwipeEnvelope(swipe: SwipeJSON(s, deck: deck)))
    }

    struct FlipBody: Decodable {
        var direction: String
        var participant: String?
    }

    @Sendable func flip(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let body = try Self.decode(FlipBody.self, try await collectJSONBody(request))
        guard let d = Decision(rawValue: body.direction), d != .none else {
            throw ApiError.invalidField(code: "invalid_direction", message: "direction must be one of: \(Decision.directions.map(\.rawValue).joined(separator: ", ")).")
        }
        let participant = try body.participant.map { try SwipeService.participant($0, cookie: nil) } ?? participantParam(request, context)
        guard let existing = try database.swipe(id: id) else { throw ApiError.notFound("swipe") }
        let deckSlug = try database.deckSlug(id: existing.deckId)
        let deck = try catalog.deck(deckSlug)
        if !deck.swipeProfile.directions.contains(d) {
            throw ApiError.invalidField(code: "direction_not_enabled", message: "This deck's profile does not enable \(d.rawValue).")
        }
        let s = try database.flipSwipe(id: id, participant: participant, to: d.rawValue, at: clock())
        return JSONResponse.make(SwipeEnvelope(swipe: SwipeJSON(s, deck: deckSlug)))
    }

    @Sendable func history(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        let deck = try catalog.deck(slug)
        let participant = try participantParam(request, context)
        let entries = try database.history(deckId: deck.id ?? 0, participant: participant)
        return JSONResponse.make(["swipes": entries.map { SwipeJSON($0.swipe, deck: slug) }])
    }

    func participantParam(_ request: Request, _ context: AppRequestContext) throws -> String {
        try SwipeService.participant(try Self.query(request, "participant"), cookie: context.participant)
    }

    // MARK: Results

    @Sendable func results(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try catalog.deck(try context.parameters.require("deck"))
        return JSONResponse.make(try database.results(for: deck))
    }

    @Sendable func resultsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try catalog.deck(try context.parameters.require("deck"))
        let csv = ResultsCSV.render(try database.results(for: deck))
        return Response(
            status: .ok,
            headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(deck.slug)-results.csv\""],
            body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    // MARK: Bodies

    /// The body of a JSON route: 415 unless `Content-Type: application/json`, 413 over the limit.
    func collectJSONBody(_ request: Request) async throws -> ByteBuffer {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("application/json") else {
            throw ApiError.unsupportedMediaType
        }
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBodyBytes { throw ApiError.tooLarge(maxBodyBytes) }
        do {
            return try await request.body.collect(upTo: maxBodyBytes)
        } catch let e as HTTPError where e.status == .contentTooLarge {
            throw ApiError.tooLarge(maxBodyBytes)
        }
    }

    func decodeJSON<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        try Self.decode(type, try await collectJSONBody(request))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: buffer)
        } catch let e as DecodingError {
            throw ApiError.malformedJSON(Self.describe(e))
        }
    }

    static func describe(_ e: DecodingError) -> String {
        func path(_ c: DecodingError.Context) -> String {
            let p = c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return p.isEmpty ? "" : " at \(p)"
        }
        switch e {
        case .keyNotFound(let k, let c): return "missing field '\(k.stringValue)'\(path(c))"
        case .typeMismatch(_, let c): return "wrong type\(path(c))"
        case .valueNotFound(_, let c): return "null value\(path(c))"
        case .dataCorrupted(let c): return "invalid JSON\(path(c))"
        @unknown default: return "invalid JSON"
        }
    }
}

extension HTTPTypes.HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
