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

    /// The pace as a big screen was served with it (present-view.js `paceKey`): host-paced or not,
    /// the presenter's step and card, and whether it is open. A change serves the screen again.
    var paceKey: String {
        paced ? "\(step)|\(card.map(String.init) ?? "")|\(cardOpen)" : ""
    }

    /// What the big screen and the remote say of the pace: nothing self-paced; host-paced, the
    /// presenter's card (its title `cardTitle`) and where it stands.
    func presenterWords(cardTitle: String?) -> String {
        guard paced else { return "" }
        if step == 0 { return "Card by card: press Show the first card to show it on every phone." }
        guard card != nil else { return "That was the last card." }
        let title = cardTitle.map { ": \($0)" } ?? ""
        return "Card \(step) of \(steps)\(title)\(cardOpen ? "" : " · time is up")"
    }

    /// What a phone on a host-paced deck says while it has no card to decide (deck-model.js
    /// `waitingWords`): before the first card, after the last, once a card's time is up, or
    /// after the person decided it; nothing on a self-paced deck.
    var waitingWords: String {
        guard paced else { return "" }
        if step == 0 { return "The presenter starts soon. The first card shows here by itself." }
        if card == nil { return "That was the last card. Thank you!" }
        if !cardOpen { return "Time is up for this card. The next one shows here when the presenter moves on." }
        return "Thank you! The next card shows here when the presenter moves on."
    }

    /// Whether a stream that last sent `sent`, `elapsed` seconds ago, must send `self`: the deck
    /// opened or closed, the results showed or hid, the pace or the presenter's card changed, or
    /// a timer (reveal or card) was set, cleared or moved (a timer counting down as expected is
    /// the phone's to count, not an event a second).
    func differs(from sent: DeckStage, elapsed: Double) -> Bool {
        if open != sent.open || revealed != sent.revealed || paced != sent.paced || card != sent.card
            || cardOpen != sent.cardOpen || step != sent.step || steps != sent.steps
        {
            return true
        }
        return Self.moved(revealIn, from: sent.revealIn, elapsed: elapsed)
            || Self.moved(cardClosesIn, from: sent.cardClosesIn, elapsed: elapsed)
    }

    /// Whether a countdown now at `now` seconds was set, cleared or moved since it read `before`,
    /// `elapsed` seconds ago.
    private static func moved(_ now: Int?, from before: Int?, elapsed: Double) -> Bool {
        switch (now, before) {
        case (nil, nil): return false
        case (let now?, let before?): return abs(Double(before) - elapsed - Double(now)) > 1.5
        default: return true
        }
    }
}

/// One event of the phones' stage stream: the deck's stage and, host-paced, the presenter's card
/// as the cards API deals it (`dealt`), so a thousand phones show it without asking for it.
struct StageEvent: Encodable {
    let stage: DeckStage
    let dealt: CardJSON?

    enum CodingKeys: String, CodingKey { case dealt }

    func encode(to encoder: any Encoder) throws {
        try stage.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(dealt, forKey: .dealt)
    }
}

/// The phones' side of a deck on a big screen: `GET /d/{deck}/stage`, Server-Sent Events of the
/// deck's stage (`StageEvent`: open or locked, results shown or when they will be, host-paced the
/// presenter's card) for the people swiping it, so every phone shows the state the room is in as
/// the presenter changes it.
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
        let slug = deck.slug
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
                for await reading in stages.cancelOnGracefulShutdown() {
                    // A newer stream of the same credential took over (within one reading).
                    if session.isEnded { break }
                    let now = clock()
                    let stage = reading.stage
                    if let last = sent, !stage.differs(from: last.stage, elapsed: now - last.at) {
                        quiet += 1
                        if quiet % heartbeatTicks == 0 { try await writer.write(ByteBuffer(string: ": ping\n\n")) }
                        continue
                    }
                    let event = StageEvent(stage: stage, dealt: reading.card.map { CardJSON($0, deck: slug) })
                    let json = String(decoding: try JSONCoding.shared.encode(event), as: UTF8.self)
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
