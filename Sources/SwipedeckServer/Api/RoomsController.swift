import Foundation
import Hummingbird
import ServiceLifecycle

/// Match rooms over the API: `POST /api/v1/decks/{deck}/rooms` creates one, `/api/v1/rooms/{code}`
/// reads it (members only), `…/members` joins, `…/leave` leaves, `…/rounds` starts a second round
/// on the closest cards, `…/events` follows it (Server-Sent Events).
///
/// The acting participant is the credential the body's or query's `participant` names, else the
/// browser's cookie for the room's deck, as for swipes (`SwipeService.identity`).
struct RoomsController: Sendable {
    let store: any Store
    let catalog: Catalog
    let rooms: RoomService
    let swipes: SwipeService
    let decoding: RequestDecoding
    let streams: StreamLimiter
    /// Caps on creating rooms (per participant and deck, per network and hour).
    let budget: RoomBudget
    /// Failed room lookups per network (no cheap code guessing).
    let lookups: RoomLookupBudget
    /// Reads between heartbeats of a quiet stream.
    let heartbeatTicks: Int
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        let api = router.group("/api/v1")
        api.post("/decks/:deck/rooms", use: create)
        api.get("/rooms/:code", use: state)
        api.post("/rooms/:code/members", use: join)
        api.post("/rooms/:code/leave", use: leave)
        api.post("/rooms/:code/rounds", use: nextRound)
        api.get("/rooms/:code/events", use: events)
    }

    /// The body of `POST /api/v1/decks/{deck}/rooms`: every field optional.
    struct CreateBody: Decodable {
        var name: String?
        var rule: RoomRule?
        var endOnFirstMatch: Bool?
        var maxMatches: Int?
        var likedFirst: Bool?
        var expiresInHours: Int?
        var maxMembers: Int?
        var participant: String?
    }

    struct JoinBody: Decodable {
        var name: String?
        var participant: String?
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<RoomStateJSON>
    {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        let body =
            request.headers[.contentType] == nil
            ? CreateBody() : try await decoding.decodeJSON(CreateBody.self, from: request)
        let now = clock()
        let settings = try Self.settings(body)
        let name = try Self.name(body.name)
        let participant = try swipes.identity(
            body.participant ?? RequestDecoding.query(request, "participant"), cookies: context.cookies, deck: deck,
            now: now
        ).id
        try await budget.take(deckId: deck.id, participant: participant, address: context.remoteAddress, now: now)
        let room = try await rooms.create(deck: deck, creator: participant, name: name, settings: settings, now: now)
        return EditedResponse(
            status: .created, headers: [.location: "/r/\(room.code)"],
            response: try await view(room, deck: deck, participant: participant, now: now))
    }

    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<RoomStateJSON> {
        let code = try context.parameters.require("code")
        let room = try await lookups.guarded(address: context.remoteAddress, now: clock()) {
            try await rooms.room(code)
        }
        let deck = try await catalog.deck(try await store.deckSlug(id: room.deckId))
        let body =
            request.headers[.contentType] == nil
            ? JoinBody() : try await decoding.decodeJSON(JoinBody.self, from: request)
        let now = clock()
        let name = try Self.name(body.name)
        let participant = try swipes.identity(
            body.participant ?? RequestDecoding.query(request, "participant"), cookies: context.cookies, deck: deck,
            now: now
        ).id
        let already = try await rooms.join(room, deck: deck, participant: participant, name: name, now: now)
        return EditedResponse(
            status: already ? .ok : .created, headers: [:],
            response: try await view(room, deck: deck, participant: participant, now: now))
    }

    @Sendable func leave(_ request: Request, context: AppRequestContext) async throws -> RoomStateJSON {
        let (room, deck, participant) = try await member(request, context)
        let now = clock()
        try await rooms.leave(room, participant: participant, now: now)
        return try await view(room, deck: deck, participant: participant, now: now)
    }

    @Sendable func state(_ request: Request, context: AppRequestContext) async throws -> RoomStateJSON {
        let (room, deck, participant) = try await member(request, context)
        return try await view(room, deck: deck, participant: participant, now: clock())
    }

    /// Starts the next round on the closest cards of a room that finished without a match.
    /// - Throws: `room_finished` for an expired room, `invalid_room_round` when it is open, matched,
    ///   or nobody liked anything.
    @Sendable func nextRound(_ request: Request, context: AppRequestContext) async throws -> RoomStateJSON {
        let (room, deck, participant) = try await member(request, context)
        let now = clock()
        if room.status(now: now) == .expired { throw ApiError.room(.finished) }
        let state = try await view(room, deck: deck, participant: participant, now: now)
        let cards = state.closest.map(\.card.id)
        guard try await store.startRound(roomId: room.id, cards: cards, now: now) else {
            throw ApiError.invalidField(
                code: "invalid_room_round",
                message: "A second round starts once the room finished without a match and some card was liked.")
        }
        // Through the hub, so the room's streams here and on other servers hear of the round at once.
        await rooms.hub.evaluate(roomIds: [room.id], now: now)
        return try await view(room, deck: deck, participant: participant, now: now)
    }

    /// Server-Sent Events of the room, for its current members: first `state` (the RoomState),
    /// then each stored event after it (`member`, `progress`, `match`, `unmatch`, `finished`,
    /// `round`) with its id, as the room's shared reader pushes them (`RoomHub`: at once for this
    /// server's, on notification or within `liveInterval` for another server's), with a `: ping` comment every heartbeat of quiet. An expired room
    /// sends `finished` once and ends; the stream also ends when the member leaves, on graceful
    /// shutdown, and within a heartbeat of the client going away. Capped like the live results,
    /// in a pool of their own (`StreamLimiter`, `--max-room-streams…`): per client address, per
    /// client network and per participant credential (`maxRoomStreamsPerParticipant`), and in
    /// total; beyond any, 429 `too_many_streams`.
    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (room, deck, participant) = try await member(request, context)
        guard
            let ticket = streams.take(client: context.remoteAddress, network: context.network, participant: participant)
        else {
            throw ApiError.tooManyStreams(retryAfter: StreamLimiter.retryAfterSeconds)
        }
        let now = clock()
        // The cursor is read before the state, so no event after the state is missed (one may repeat).
        let cursor = try await store.lastRoomEventId(roomId: room.id)
        let (pushed, from) = rooms.hub.follow(roomId: room.id, after: cursor)
        // The room's reader was past the cursor: the events in between, read once for this stream.
        let gap =
            from > cursor ? try await store.roomEvents(roomId: room.id, after: cursor, limit: Int(from - cursor)) : []
        let first = try await view(room, deck: deck, participant: participant, now: now)
        let you = first.you
        let store = store
        let clock = clock
        let heartbeatTicks = heartbeatTicks
        let initialCards = Dictionary(
            uniqueKeysWithValues: try await store.allCards(deckId: deck.id).map { ($0.id, $0) })
        let expanded = try JSONCoding.shared.encode(first)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no"],
            body: ResponseBody { writer in
                defer { ticket.release() }
                var cards = initialCards
                try await writer.write(
                    ByteBuffer(string: "event: state\ndata: " + String(decoding: expanded, as: UTF8.self) + "\n\n"))
                var after = cursor
                var quiet = 0
                var expiredSent = first.state == .expired
                // The gap first, then what the room's reader pushes (`RoomHub`): an empty list is a
                // quiet interval. Ended by graceful shutdown (an endless response would hold the server up).
                var gapFirst: [RoomEvent]? = gap.isEmpty ? nil : gap
                var lists = pushed.cancelOnGracefulShutdown().makeAsyncIterator()
                streaming: while true {
                    let pushedEvents: [RoomEvent]
                    if let first = gapFirst {
                        pushedEvents = first
                        gapFirst = nil
                    } else if let next = await lists.next() {
                        pushedEvents = next
                    } else {
                        break
                    }
                    if expiredSent { break }
                    let events = pushedEvents.filter { $0.id > after }
                    if events.contains(where: { $0.kind == .match || $0.kind == .finished || $0.kind == .round }) {
                        cards = Dictionary(
                            uniqueKeysWithValues: try await store.allCards(deckId: deck.id).map { ($0.id, $0) })
                    }
                    for event in events {
                        after = event.id
                        try await writer.write(ByteBuffer(string: Self.sse(event, cards: cards)))
                        if event.kind == .member, event.data.contains(#""id":\#(you ?? -1),"#),
                            event.data.hasSuffix(#""change":"left"}"#)
                        {
                            break streaming
                        }
                    }
                    if pushedEvents.isEmpty {
                        quiet += 1
                        if clock() >= room.expiresAt,
                            try await store.room(code: room.code)?.status(now: clock()) == .expired
                        {
                            try await writer.write(ByteBuffer(string: "event: finished\ndata: {\"closest\":[]}\n\n"))
                            expiredSent = true
                        } else if quiet % heartbeatTicks == 0 {
                            try await writer.write(ByteBuffer(string: ": ping\n\n"))
                        }
                    } else if !events.isEmpty {
                        quiet = 0
                    }
                }
                try await writer.finish(nil)
            })
    }

    // MARK: - Helpers

    /// One stored event as SSE, cards expanded (`match`, `finished`) as the RoomState shows them.
    static func sse(_ event: RoomEvent, cards: [Int64: Card]) -> String {
        var data = event.data
        func card(_ id: Int64) -> String {
            guard let c = cards[id], let json = try? JSONCoding.shared.encode(RoomCardJSON(c)) else {
                return #"{"id":\#(id),"title":"","image":null,"accent":""}"#  // A card is never deleted: not reached.
            }
            return String(decoding: json, as: UTF8.self)
        }
        switch event.kind {
        case .match:
            if let m = try? JSONDecoder().decode(RoomService.StoredMatch.self, from: Data(event.data.utf8)) {
                let by = m.likedBy.map(String.init).joined(separator: ",")
                data = #"{"match":{"card":\#(card(m.card)),"at":\#(m.at),"likedBy":[\#(by)]}}"#
            }
        case .finished:
            if let f = try? JSONDecoder().decode(StoredFinished.self, from: Data(event.data.utf8)) {
                let list = f.closest.map { #"{"card":\#(card($0.card)),"likes":\#($0.likes)}"# }
                data = #"{"closest":[\#(list.joined(separator: ","))]}"#
            }
        case .member, .progress, .unmatch, .round: break
        }
        return "id: \(event.id)\nevent: \(event.kind.rawValue)\ndata: \(data)\n\n"
    }

    struct StoredFinished: Decodable {
        struct Item: Decodable {
            var card: Int64
            var likes: Int
        }
        var closest: [Item]
    }

    /// The room named in the path, its deck and the acting participant, who must be a current member.
    /// - Throws: `room_not_found` (also for a non-member: no existence oracle), the credential's errors.
    func member(_ request: Request, _ context: AppRequestContext) async throws -> (Room, Deck, String) {
        try await lookups.guarded(address: context.remoteAddress, now: clock()) {
            try await memberLookup(request, context)
        }
    }

    func memberLookup(_ request: Request, _ context: AppRequestContext) async throws -> (Room, Deck, String) {
        let room = try await rooms.room(try context.parameters.require("code"))
        let deck = try await catalog.deck(try await store.deckSlug(id: room.deckId))
        let named = try RequestDecoding.query(request, "participant")
        let participant: String
        do {
            participant = try swipes.identity(named, cookies: context.cookies, deck: deck, now: clock()).id
        } catch let error as ApiError where error.code == "participant_required" {
            throw ApiError.room(.notFound)
        }
        let snapshot = try await store.roomSnapshot(roomId: room.id)
        // A non-member is told what an unknown code is told: the answer is no existence oracle.
        guard rooms.isMember(snapshot, participant) else { throw ApiError.room(.notFound) }
        return (room, deck, participant)
    }

    /// The room as `participant` sees it now.
    func view(_ room: Room, deck: Deck, participant: String, now: Double) async throws -> RoomStateJSON {
        let snapshot = try await store.roomSnapshot(roomId: room.id)
        let cards = Dictionary(uniqueKeysWithValues: try await store.allCards(deckId: deck.id).map { ($0.id, $0) })
        let you = snapshot.members.first { $0.participant == participant && $0.leftAt == nil }?.id
        return RoomStateJSON(snapshot, deck: deck, cards: cards, you: you, now: now)
    }

    /// The room's settings from the body, each checked.
    /// - Throws: `invalid_room_rule`, `invalid_room_hours`, `invalid_room_members`, `invalid_room_matches`.
    static func settings(_ body: CreateBody) throws -> RoomSettings {
        var s = RoomSettings()
        if let rule = body.rule { s.rule = rule }
        s.endOnFirstMatch = body.endOnFirstMatch ?? false
        s.likedFirst = body.likedFirst ?? false
        if let h = body.expiresInHours {
            guard (1...RoomSettings.maxHours).contains(h) else {
                throw ApiError.invalidField(
                    code: "invalid_room_hours", message: "expiresInHours must be 1…\(RoomSettings.maxHours).")
            }
            s.expiresInHours = h
        }
        if let n = body.maxMembers {
            guard (2...RoomSettings.maxMembersLimit).contains(n) else {
                throw ApiError.invalidField(
                    code: "invalid_room_members", message: "maxMembers must be 2…\(RoomSettings.maxMembersLimit).")
            }
            s.maxMembers = n
        }
        if let m = body.maxMatches {
            guard m >= 1 && m <= 10_000 else {
                throw ApiError.invalidField(
                    code: "invalid_room_matches", message: "maxMatches must be 1…10,000 or null.")
            }
            s.maxMatches = m
        }
        if case .atLeast(let k) = s.rule, k > s.maxMembers {
            throw ApiError.invalidField(
                code: "invalid_room_rule", message: "An atLeast rule cannot ask for more members than maxMembers.")
        }
        return s
    }

    /// A display name: trimmed, at most 40 characters; nil when absent or blank.
    /// - Throws: `invalid_name`.
    static func name(_ raw: String?) throws -> String? {
        guard let trimmed = raw?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty else { return nil }
        guard trimmed.count <= RoomSettings.maxNameLength,
            !trimmed.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
        else {
            throw ApiError.invalidField(
                code: "invalid_name", message: "name must be at most \(RoomSettings.maxNameLength) characters.")
        }
        return trimmed
    }
}
