import Hummingbird
import NIOCore
import Synchronization

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
/// Only for a deck on a big screen (one with a presentation; else 404) and a person the deck knows
/// (its participant cookie, or its admission on a deck for invited people; else 403
/// `unknown_participant`). A hall on one Wi-Fi is one client address, so the streams have a pool of
/// their own capped in total (`--max-stage-streams`; beyond it 429 `too_many_streams`), not per
/// address; per credential, across every deck, `StageSessions.maxPerCredential` streams follow at
/// once, and a newer one ends the oldest (a phone that reloads keeps following; a credential
/// holds no more places however many decks it asks for). Credentials cost a crowd's join budget
/// or a join puzzle each.
struct StageController: Sendable {
    let store: any Store
    let catalog: Catalog
    let swipes: SwipeService
    let hub: StageHub
    let streams: StreamLimiter
    let sessions: StageSessions
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
        guard try await store.presentation(deckId: deck.id) != nil else { throw ApiError.notFound("stage") }
        guard swipes.cookieIdentity(context.cookies, deck: deck) != nil,
            let credential = context.cookies.credential(for: deck.id)
        else {
            throw ApiError.unknownParticipant
        }
        guard let ticket = streams.take(client: nil) else {
            throw ApiError.tooManyStreams(retryAfter: StreamLimiter.retryAfterSeconds)
        }
        let session = sessions.enter(credential.body)
        let sessions = sessions
        let stages = hub.follow(deckId: deck.id, slug: deck.slug)
        let clock = clock
        let heartbeatTicks = heartbeatTicks
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                defer {
                    sessions.leave(session)
                    ticket.release()
                }
                var sent: (stage: DeckStage, at: Double)?
                var quiet = 0
                for await stage in stages.cancelOnGracefulShutdown() {
                    // A newer stream of the same credential took over (within one reading).
                    if session.isEnded { break }
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

/// The stage streams each participant credential holds, oldest first, across every deck: past
/// `maxPerCredential` a new stream ends the oldest, which notices at its next reading and gives
/// its place back.
final class StageSessions: Sendable {
    /// One stream's place in its credential's list.
    final class Session: Sendable {
        fileprivate let key: String
        private let ended = Atomic<Bool>(false)

        fileprivate init(key: String) { self.key = key }

        /// A newer stream of the same credential took over: this one ends.
        var isEnded: Bool { ended.load(ordering: .relaxed) }
        fileprivate func end() { ended.store(true, ordering: .relaxed) }
    }

    /// Streams one credential follows at once: 2 — a phone and a second tab.
    static let maxPerCredential = 2
    private let open = Mutex<[String: [Session]]>([:])

    /// A new stream of the credential whose body is `key`; the oldest past the cap is ended.
    func enter(_ key: String) -> Session {
        let session = Session(key: key)
        let ended = open.withLock { open -> [Session] in
            var list = open[key, default: []]
            list.append(session)
            let over = Array(list.prefix(max(0, list.count - Self.maxPerCredential)))
            open[key] = Array(list.dropFirst(over.count))
            return over
        }
        for old in ended { old.end() }
        return session
    }

    /// The stream ended (or was ended): its place in the list goes.
    func leave(_ session: Session) {
        open.withLock { open in
            open[session.key]?.removeAll { $0 === session }
            if open[session.key]?.isEmpty == true { open[session.key] = nil }
        }
    }
}
