import Foundation
import HTTPTypes
import Hummingbird
import SwipePhysics

/// `/api/v1/decks/{deck}/swipes` and `/api/v1/swipes/{id}`: submit one swipe or a batch
/// (with `Idempotency-Key`), undo, flip, and a participant's own history.
struct SwipesController: Sendable {
    let store: any Store
    let catalog: Catalog
    let swipes: SwipeService
    let decoding: RequestDecoding
    /// The per-IP budget of state-changing requests: a batch takes one more per item beyond the first.
    let ipLimiter: RateLimiter
    /// Told after swipes, undos and flips commit, to notice cards and decks decided under their stop rule.
    let decisions: DeckDecisions
    /// Feedback on known-answer cards and the flag rule, after a swipe is stored.
    let knownAnswers: KnownAnswers
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        let api = router.group("/api/v1")
        api.post("/decks/:deck/swipes", use: postSwipe)
        api.post("/decks/:deck/swipes/batch", use: postBatch)
        api.get("/decks/:deck/history", use: history)
        api.delete("/swipes/:id", use: undo)
        api.post("/swipes/:id/flip", use: flip)
    }

    @Sendable func postSwipe(_ request: Request, context: AppRequestContext) async throws -> Response {
        let slug = try context.parameters.require("deck")
        let body = try await decoding.collectJSONBody(request)
        let fast = SwipeBodyParser.parse(body)
        let r: SwipeRequest = try fast ?? RequestDecoding.decode(SwipeRequest.self, body)
        let fingerprint = SwipeFingerprint.of(
            r, deck: slug, participant: r.participant ?? context.knownParticipant ?? "")
        let outcome = try await swipes.submit(
            deck: slug, r, key: request.headers[.idempotencyKey], fingerprint: fingerprint,
            cookies: context.cookies, network: context.network, now: clock())
        // The 201 body is written by hand (`SwipeEnvelope.json`), not by the response encoder: this
        // answers every swipe, and JSONEncoder was a measurable share of the route's CPU in `make bench`.
        func answer(_ s: Swipe, _ extra: HTTPFields, feedback: KnownAnswerFeedback? = nil) -> Response {
            var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
            headers.append(contentsOf: extra)
            let envelope = SwipeEnvelope(swipe: SwipeJSON(s, deck: slug), feedback: feedback)
            return Response(
                status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(string: envelope.json)))
        }
        switch outcome {
        case .created(let s):
            await decided(slug)
            let feedback = await afterSwipe(s, slug: slug, context: context)
            return answer(s, [.location: "/api/v1/swipes/\(s.id)"], feedback: feedback)
        case .replayed(let s): return answer(s, [.idempotentReplayed: "true"])
        case .refused(let e): throw e
        }
    }

    /// Known-answer feedback and flagging for a stored swipe. The swipe is committed whatever
    /// happens here, so a failure is logged and the 201 goes out without feedback.
    func afterSwipe(_ s: Swipe, slug: String, context: AppRequestContext) async -> KnownAnswerFeedback? {
        do {
            return try await knownAnswers.afterSwipe(s, deck: try await catalog.deck(slug), now: clock())
        } catch {
            context.logger.error("known-answer check failed", metadata: ["error": "\(error)", "swipe": "\(s.id)"])
            return nil
        }
    }

    struct Batch: Decodable { var swipes: [SwipeRequest] }

    @Sendable func postBatch(_ request: Request, context: AppRequestContext) async throws -> [String: [BatchItemResult]]
    {
        let slug = try context.parameters.require("deck")
        let body = try await decoding.collectJSONBody(request)
        let batch = try RequestDecoding.decode(Batch.self, body)
        if batch.swipes.isEmpty || batch.swipes.count > 100 {
            throw ApiError.invalidField(code: "invalid_batch_size", message: "A batch holds 1–100 swipes.")
        }
        _ = try await catalog.deck(slug)
        // The middleware took one token for the request; a batch counts as its items.
        if batch.swipes.count > 1, let ip = context.remoteAddress,
            let wait = ipLimiter.take("ip:" + ip, cost: Double(batch.swipes.count - 1), now: clock())
        {
            throw ApiError.rateLimited(retryAfter: wait)
        }
        let results = await withTaskGroup(of: (Int, BatchItemResult).self) { group in
            for (i, item) in batch.swipes.enumerated() {
                group.addTask {
                    let fp = SwipeFingerprint.of(
                        item, deck: slug, participant: item.participant ?? context.knownParticipant ?? "")
                    do {
                        let o = try await swipes.submit(
                            deck: slug, item, key: item.idempotencyKey, fingerprint: fp, cookies: context.cookies,
                            network: context.network, now: clock())
                        switch o {
                        case .created(let s):
                            let feedback = await afterSwipe(s, slug: slug, context: context)
                            return (
                                i,
                                BatchItemResult(
                                    status: 201, swipe: SwipeJSON(s, deck: slug), replayed: false, error: nil,
                                    feedback: feedback)
                            )
                        case .replayed(let s):
                            return (
                                i,
                                BatchItemResult(
                                    status: 201, swipe: SwipeJSON(s, deck: slug), replayed: true, error: nil)
                            )
                        case .refused(let e): return (i, BatchItemResult(ApiError(e)))
                        }
                    } catch let e as ApiError {
                        return (i, BatchItemResult(e))
                    } catch {
                        // One item's fault is that item's 500; the others keep their answers.
                        context.logger.error("batch item failed", metadata: ["error": "\(error)", "index": "\(i)"])
                        return (i, BatchItemResult(.internalError))
                    }
                }
            }
            var out = [BatchItemResult?](repeating: nil, count: batch.swipes.count)
            for await (i, r) in group { out[i] = r }
            return out.compactMap { $0 }
        }
        if results.contains(where: { $0.status == 201 && $0.replayed == false }) { await decided(slug) }
        return ["results": results]
    }

    /// After swipes on the deck committed: the stop rule's check (`DeckDecisions`).
    private func decided(_ slug: String) async {
        // The swipes are stored whatever this finds; a deck gone meanwhile has nothing to decide.
        guard let deck = try? await catalog.deck(slug) else { return }
        await decisions.swipesStored(on: deck, now: clock)
    }

    @Sendable func undo(_ request: Request, context: AppRequestContext) async throws -> SwipeEnvelope {
        let id = try context.parameters.require("id")
        let (s, deck) = try await swipes.undo(
            id: id, named: try RequestDecoding.query(request, "participant"), cookies: context.cookies, now: clock())
        // Undoing a pass can decide a card too.
        await decided(deck)
        return SwipeEnvelope(swipe: SwipeJSON(s, deck: deck))
    }

    struct FlipBody: Decodable {
        var direction: String
        var participant: String?
    }

    @Sendable func flip(_ request: Request, context: AppRequestContext) async throws -> SwipeEnvelope {
        let id = try context.parameters.require("id")
        let body = try RequestDecoding.decode(FlipBody.self, try await decoding.collectJSONBody(request))
        guard let d = Decision(rawValue: body.direction), d != .none else {
            throw ApiError.invalidField(
                code: "invalid_direction",
                message: "direction must be one of: \(Decision.directions.map(\.rawValue).joined(separator: ", ")).")
        }
        let (s, deck) = try await swipes.flip(
            id: id, to: d, named: body.participant ?? RequestDecoding.query(request, "participant"),
            cookies: context.cookies, network: context.network, now: clock())
        await decided(deck)
        return SwipeEnvelope(swipe: SwipeJSON(s, deck: deck))
    }

    @Sendable func history(_ request: Request, context: AppRequestContext) async throws -> [String: [SwipeJSON]] {
        let slug = try context.parameters.require("deck")
        let deck = try await catalog.deck(slug)
        let participant = try swipes.identity(
            try RequestDecoding.query(request, "participant"), cookies: context.cookies, deck: deck, now: clock())
        let entries = try await store.history(deckId: deck.id, participant: participant.id)
        return ["swipes": entries.map { SwipeJSON($0.swipe, deck: slug) }]
    }
}
