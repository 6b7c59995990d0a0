import Foundation
import Hummingbird
import ServiceLifecycle

/// `/api/v1/decks/{deck}/results` (JSON, CSV) and the owner's participant exclusions. Results
/// are the owner's unless the deck's results are public: others get 401.
struct ResultsController: Sendable {
    let store: any Store
    let catalog: Catalog
    let access: DeckAccess
    let decoding: RequestDecoding
    let live: LiveResults
    /// The live streams of those who manage the deck (owners, the admin token, presenters): capped
    /// in total, per client address and per owner.
    let streams: StreamLimiter
    /// The live streams of anybody reading public results: capped in total, per client address and
    /// per network.
    let publicStreams: StreamLimiter
    /// Owners name participants by pseudonym.
    let names: ParticipantNames
    /// Lockstep clusters leave the ranking before it is read.
    let clusters: ClusterGuard
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        let deck = router.group("/api/v1/decks/:deck")
        deck.get("/results", use: results)
        deck.get("/results.csv", use: resultsCSV)
        deck.get("/results/live", use: liveResults)
        deck.get("/participants/:participant", use: participant)
        deck.post("/participants/:participant/exclude", use: exclude)
        deck.post("/participants/:participant/include", use: include)
    }

    @Sendable func results(_ request: Request, context: AppRequestContext) async throws -> ResultsReport {
        let deck = try await access.results(try context.parameters.require("deck"), context)
        let found = try await clusters.check(deck, now: clock())
        if let code = try RequestDecoding.query(request, "room") {
            guard let normalized = RoomCode.normalized(code), let room = try await store.room(code: normalized),
                room.deckId == deck.id
            else { throw ApiError.room(.notFound) }
            return try await store.roomResults(for: deck, room: room)
        }
        var report = try await store.resultsWithRooms(for: deck)
        if context.owner?.manages(deck) == true {
            report.people = try await PeopleSummary.read(
                deck: deck, counted: report.participants, clusters: found, store: store)
        }
        return report
    }

    @Sendable func resultsCSV(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.results(try context.parameters.require("deck"), context)
        try await clusters.check(deck, now: clock())
        let csv = ResultsCSV.render(try await store.results(for: deck), names: DirectionNames(deck: deck))
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8",
                .contentDisposition: "attachment; filename=\"\(deck.slug)-results.csv\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: csv)))
    }

    /// Server-Sent Events: the results JSON at once, then after changes (at most once a second),
    /// with a `: ping` comment every heartbeat (`AppConfiguration.sseHeartbeat`, 15 s) of quiet.
    /// A stream beyond the caps (`StreamLimiter`: per client address, in total) is answered 429
    /// `too_many_streams` with `Retry-After`, after the access check (so 401 comes first). The subscription starts when the body is
    /// first written, so a HEAD request (whose body is dropped) subscribes to nothing. The stream
    /// ends on graceful shutdown (an endless response would hold the server up), and a watcher
    /// that went away is dropped at the next write to it (an update or a heartbeat).
    ///
    /// Access is checked again before every event, updates and heartbeats alike
    /// (`DeckAccess.stillReadsResults`): the stream ends, without sending it, once the viewer
    /// could no longer open it (the deck made private, its session signed out or expired, its
    /// API token revoked, the deck given to another owner). So a viewer who lost access receives
    /// nothing more, and is disconnected within one heartbeat even when nothing changes.
    @Sendable func liveResults(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.results(try context.parameters.require("deck"), context)
        let access = access
        let clock = clock
        let identity = context.owner
        let logger = context.logger
        let bearerHash = request.headers[.authorization].flatMap {
            $0.hasPrefix("Bearer ") ? Secret.sha256(String($0.dropFirst(7))) : nil
        }
        // Those who manage the deck watch from a pool of their own, one owner holding at most a client's
        // share of it; anybody reading public results from the other, capped per network too: a
        // crowd of addresses watching some public deck never takes an owner's or a big screen's place.
        let manages = context.owner?.manages(deck) == true
        return try live.response(
            deck: deck, streams: manages ? streams : publicStreams, client: context.remoteAddress,
            network: manages ? nil : context.network, holder: manages ? context.owner?.streamHolder : nil
        ) {
            await access.stillReadsResults(
                slug: deck.slug, identity: identity, bearerHash: bearerHash, now: clock(), logger: logger)
        }
    }

    /// Why a participant looks suspect: their swipes by kind and the reasons recorded.
    @Sendable func participant(_ request: Request, context: AppRequestContext) async throws -> ParticipantReport {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let shown = try context.parameters.require("participant")
        var report = try await names.report(deck: deck, shown: shown)
        let quality = try await QualityReport.read(deck, store: store, names: names)
        report.quality = quality.participants.first { $0.participant == shown }
        return report
    }

    struct ExcludeBody: Decodable { var reason: String? }

    @Sendable func exclude(_ request: Request, context: AppRequestContext) async throws -> ParticipantReport {
        try await setExcluded(true, request, context)
    }

    @Sendable func include(_ request: Request, context: AppRequestContext) async throws -> ParticipantReport {
        try await setExcluded(false, request, context)
    }

    func setExcluded(_ excluded: Bool, _ request: Request, _ context: AppRequestContext) async throws
        -> ParticipantReport
    {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let shown = try context.parameters.require("participant")
        var reason = ""
        if excluded, request.headers[.contentType] != nil {
            reason = try await decoding.decodeJSON(ExcludeBody.self, from: request).reason ?? ""
        }
        if reason.count > 500 {
            throw ApiError.invalidField(code: "invalid_reason", message: "reason must be at most 500 characters.")
        }
        let id = try await names.stored(shown, deckId: deck.id)
        try await store.setExcluded(
            deck: deck, participant: id, excluded, reason: reason, by: context.owner?.ownerId, now: clock())
        return try await names.report(deck: deck, shown: shown)
    }
}
