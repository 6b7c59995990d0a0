import Hummingbird
import NIOCore

extension DeckStage: ResponseEncodable {}

extension DeckStage {
    /// What a phone's page says of the big screen's results (deck-model.js `stageWords`): shown,
    /// shown in `revealIn` seconds, or nothing.
    var bannerWords: String {
        if revealed { return "The results are on the big screen." }
        if let revealIn { return "The results show in \(max(revealIn, 0)) s." }
        return ""
    }

    /// Whether a stream that last sent `sent`, `elapsed` seconds ago, must send `self`: the deck
    /// opened or closed, the results showed or hid, or a reveal timer was set, cleared or moved
    /// (a timer counting down as expected is the phone's to count, not an event a second).
    func differs(from sent: DeckStage, elapsed: Double) -> Bool {
        if open != sent.open || revealed != sent.revealed { return true }
        switch (revealIn, sent.revealIn) {
        case (nil, nil): return false
        case (let now?, let before?): return abs(Double(before) - elapsed - Double(now)) > 1.5
        default: return true
        }
    }
}

/// The phones' side of a deck on a big screen: `GET /d/{deck}/stage`, Server-Sent Events of the
/// deck's stage (`DeckStage`: open or locked, results shown or when they will be) for the people
/// swiping it, so every phone shows the state the room is in as the presenter changes it.
///
/// Only for a person the deck knows (its participant cookie, or its admission on a deck for
/// invited people; else 403 `unknown_participant`). The deck page opens it when the deck has a
/// presentation. A hall on one Wi-Fi is one client address, so the streams have a pool of their own
/// capped in total (`--max-stage-streams`) and per participant credential
/// (`StreamLimiter.maxStageStreamsPerParticipant`), not per address; beyond either, 429
/// `too_many_streams`. Credentials cost a crowd's join budget or a join puzzle each, so one host
/// cannot take the pool without paying for every place.
struct StageController: Sendable {
    let catalog: Catalog
    let swipes: SwipeService
    let hub: StageHub
    let streams: StreamLimiter
    /// Hub readings between two `: ping` comments on a quiet stream.
    let heartbeatTicks: Int
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.get("/d/:deck/stage", use: stage)
    }

    /// `event: stage` with the `DeckStage` JSON at once and whenever it changes (`differs`), a
    /// `: ping` every heartbeat of quiet; ends on graceful shutdown or when the client goes away.
    @Sendable func stage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        guard let participant = swipes.cookieIdentity(context.cookies, deck: deck) else {
            throw ApiError.unknownParticipant
        }
        guard let ticket = streams.take(client: nil, participant: participant) else {
            throw ApiError.tooManyStreams(retryAfter: StreamLimiter.retryAfterSeconds)
        }
        let stages = hub.follow(deckId: deck.id, slug: deck.slug)
        let clock = clock
        let heartbeatTicks = heartbeatTicks
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                defer { ticket.release() }
                var sent: (stage: DeckStage, at: Double)?
                var quiet = 0
                for await stage in stages.cancelOnGracefulShutdown() {
                    let now = clock()
                    if let last = sent, !stage.differs(from: last.stage, elapsed: now - last.at) {
                        quiet += 1
                        if quiet % heartbeatTicks == 0 { try await writer.write(ByteBuffer(string: ": ping\n\n")) }
                        continue
                    }
                    let json = String(decoding: try JSONCoding.shared.encode(stage), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "event: stage\ndata: \(json)\n\n"))
                    sent = (stage, now)
                    quiet = 0
                }
                try await writer.finish(nil)
            })
    }
}
