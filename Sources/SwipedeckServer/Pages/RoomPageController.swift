import Foundation
import Hummingbird

/// A match room's pages and their no-JavaScript forms: `/r/{code}` (a join form for a non-member; for a
/// member the deck's stack in the room's deal with the members, matches and the room's state around
/// it), `/r/{code}/qr.svg` (the room's absolute link as a QR code), `GET /r?code=` (the deck page's
/// "Join a room" field without scripts), and the form posts that start a room from the deck page, join,
/// leave, swipe in the room and start a second round — each redirecting to the room's page. What a
/// member sees is the API's `RoomStateJSON`, never a member's individual non-matching decisions.
struct RoomPageController: Sendable {
    let store: any Store
    let catalog: Catalog
    let rooms: RoomService
    let swipes: SwipeService
    let pages: PageController
    let share: ShareController
    let renderer: PageRenderer
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.get("/r", use: findRoom)
        router.get("/r/:code", use: roomPage)
        router.get("/r/:code/qr.svg", use: qrCode)
        router.post("/r/:code/members", use: formJoin)
        router.post("/r/:code/leave", use: formLeave)
        router.post("/r/:code/rounds", use: formRound)
        router.post("/r/:code/swipe", use: formSwipe)
        router.post("/d/:deck/rooms", use: formCreate)
    }

    /// The deck page's "Join a room" without scripts: `?code=` as typed (lower case, spaces and dashes
    /// allowed); a code that cannot be one (400) or that no room has (404) is said next to the field.
    @Sendable func findRoom(_ request: Request, context: AppRequestContext) async throws -> Response {
        // A GET form sends a space as `+`: shown back as the person typed it.
        let typed = (request.uri.queryParameters["code"].map(String.init) ?? "").replacingOccurrences(
            of: "+", with: " ")
        guard let code = RoomCode.typed(typed) else {
            return try missing(
                typed: typed,
                error:
                    "A room code has \(RoomCode.length) letters and digits, without 0, 1, I, L or O. Check it and type it again.",
                status: .badRequest)
        }
        return .redirect(to: "/r/\(code)", type: .normal)
    }

    /// The page for a code no room has, or one that cannot be a code: the field again with the reason.
    func missing(typed: String, error: String, status: HTTPResponse.Status) throws -> Response {
        let view: [String: Any] = [
            "kind": "room", "pageTitle": "Join a room", "title": "Join a room", "code": "", "found": false,
            "typed": typed, "error": error,
        ]
        return try renderer.page("room-join", view, status: status)
    }

    /// The room of the path's code and its deck; nil when no room has it.
    func lookup(_ context: AppRequestContext) async throws -> (Room, Deck)? {
        let room: Room
        do {
            room = try await rooms.room(try context.parameters.require("code"))
        } catch let error as ApiError where error.code == "room_not_found" {
            return nil
        }
        return (room, try await catalog.deck(try await store.deckSlug(id: room.deckId)))
    }

    static let notFoundWords = "No room has that code. Check it with the person who shared it."

    /// The QR code of `/r/{code}` for any well-formed code, whether a room has it or not: it only
    /// encodes the link, so it must tell nobody which codes exist. A malformed code is 404.
    @Sendable func qrCode(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let code = RoomCode.normalized(try context.parameters.require("code")) else {
            throw ApiError.room(.notFound)
        }
        return try share.qrResponse(share.absolute("/r/\(code)", context))
    }

    /// `/r/{code}`: a member's room page, or the join form.
    @Sendable func roomPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let (room, deck) = try await lookup(context) else {
            return try missing(
                typed: try context.parameters.require("code"), error: Self.notFoundWords, status: .notFound)
        }
        let now = clock()
        let participant = swipes.cookieIdentity(context.cookies, deck: deck)
        let snapshot = try await store.roomSnapshot(roomId: room.id)
        guard let participant, rooms.isMember(snapshot, participant) else {
            return try joinPage(room, deck: deck, snapshot: snapshot, typed: "", error: nil, status: .ok, now: now)
        }
        let cards = Dictionary(uniqueKeysWithValues: try await store.allCards(deckId: deck.id).map { ($0.id, $0) })
        let you = snapshot.members.first { $0.participant == participant && $0.leftAt == nil }?.id
        let state = RoomStateJSON(snapshot, deck: deck, cards: cards, you: you, now: now)
        let deal = snapshot.deal(for: participant)
        let shown = deal.prefix(deck.swipeProfile.stack.visible + PageController.bufferedCards).compactMap { cards[$0] }
        // The room's stack knows no per-person quota: a room's swipes have none (`SwipeRule.quota`).
        var roomDeck = deck
        roomDeck.quota = SwipeRule.quota(deck: deck.quota, inRoom: true)
        var ctx = pages.stackContext(
            roomDeck, cards: shown, remaining: deal.count, cardCount: snapshot.cards.count, participant: participant,
            showResults: false, joinWait: nil)
        // The room's deal is asked from its top each time (deck.js): it changes as members decide.
        ctx["cursor"] = -1
        ctx["pageTitle"] = "Room \(room.code) · \(deck.title)"
        ctx["roomsOrRoom"] = true
        ctx["room"] = roomView(state, deckSlug: deck.slug)
        var response = try renderer.page("deck", ctx)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// The room around the stack, as the template shows it (room.js redraws the same from the events).
    func roomView(_ state: RoomStateJSON, deckSlug: String) -> [String: Any] {
        let names = Dictionary(state.members.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        func card(_ c: RoomCardJSON) -> [String: Any] {
            [
                "id": c.id, "title": c.title, "image": c.image.map { renderer.assets.url(for: $0) } ?? "",
                "accent": c.accent,
            ]
        }
        let members = state.members.filter { !$0.left }.map { m -> [String: Any] in
            [
                "id": m.id, "name": m.name, "you": m.id == state.you,
                "progress": m.finished ? "done" : "\(m.decided) of \(state.cardCount)",
            ]
        }
        let matches = state.matches.map { m -> [String: Any] in
            ["card": card(m.card), "likedBy": Self.listed(m.likedBy.compactMap { names[$0] })]
        }
        let closest = state.closest.map { c -> [String: Any] in ["card": card(c.card), "likes": c.likes] }
        return [
            "code": state.code, "deckSlug": deckSlug, "phase": state.state.rawValue,
            "ruleWords": Self.words(state.rule), "round2": state.round > 1, "members": members,
            "matches": matches, "hasMatches": !matches.isEmpty, "matchCount": matches.count, "closest": closest,
            "isFinished": state.state == .finished, "isExpired": state.state == .expired,
            "isOpen": state.state == .open,
            "secondRound": state.state == .finished && matches.isEmpty && !closest.isEmpty,
            "stateJSON": PageRenderer.scriptSafeJSON(state),
        ]
    }

    /// "Ana", "Ana and Ben", "Ana, Ben and Cy" (room-model.js `likedByWords` says it alike).
    static func listed(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// The match rule in words (room-model.js `ruleWords` says it alike).
    static func words(_ rule: RoomRule) -> String {
        switch rule {
        case .all: "Everyone likes it"
        case .atLeast(let k): "At least \(k) like it"
        case .share(let p): "At least \(p) % like it"
        }
    }

    /// The join form, with the room's rule and size, or why one cannot join.
    func joinPage(
        _ room: Room, deck: Deck, snapshot: RoomSnapshot, typed: String, error: String?,
        status: HTTPResponse.Status, now: Double
    ) throws -> Response {
        let present = snapshot.members.filter { $0.leftAt == nil }.count
        let open = room.status(now: now) == .open
        let full = present >= room.settings.maxMembers
        let closed =
            !deck.rooms
            ? "This deck's owner does not allow rooms any more."
            : !open
                ? "This room has finished deciding."
                : full ? "That room is full: ask its creator to start another one." : nil
        var ctx = pages.deckContext(deck)
        ctx["kind"] = "room"
        ctx["pageTitle"] = "Room \(room.code) · \(deck.title)"
        ctx["code"] = room.code
        ctx["found"] = true
        ctx["ruleWords"] = Self.words(room.settings.rule).lowercased()
        ctx["likedFirst"] = room.settings.likedFirst
        ctx["endOnFirstMatch"] = room.settings.endOnFirstMatch
        ctx["memberWords"] = present == 1 ? "1 member so far." : "\(present) members so far."
        ctx["canJoin"] = closed == nil && error == nil ? true : error != nil && closed == nil
        ctx["typed"] = typed
        ctx["error"] = error ?? closed ?? ""
        ctx["hasError"] = error != nil
        var response = try renderer.page("room-join", ctx, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    struct NameForm: Decodable { var name: String? }

    /// Joins the room from the form (the browser's cookie is the member), then its page; a refusal is
    /// said on the join form.
    @Sendable func formJoin(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let (room, deck) = try await lookup(context) else {
            return try missing(
                typed: try context.parameters.require("code"), error: Self.notFoundWords, status: .notFound)
        }
        let form = try await Self.form(NameForm.self, request)
        let typed = form.name ?? ""
        let now = clock()
        do {
            let participant = try swipes.identity(nil, cookies: context.cookies, deck: deck, now: now).id
            _ = try await rooms.join(
                room, deck: deck, participant: participant, name: try RoomsController.name(form.name), now: now)
        } catch let error as ApiError {
            let snapshot = try await store.roomSnapshot(roomId: room.id)
            return try joinPage(
                room, deck: deck, snapshot: snapshot, typed: typed, error: Self.sentence(error),
                status: error.status, now: now)
        }
        return .redirect(to: "/r/\(room.code)", type: .normal)
    }

    /// A refusal of a room form in a sentence for the page.
    static func sentence(_ error: ApiError) -> String {
        switch error.code {
        case "room_full": "That room is full: ask its creator to start another one."
        case "room_finished": "This room has finished deciding."
        case "rooms_off": "This deck's owner does not allow rooms."
        case "invalid_name": "A name has at most \(RoomSettings.maxNameLength) characters."
        case "participant_required", "unknown_participant":
            "This browser has no place in this deck yet: reload the page and try again."
        default: error.message
        }
    }

    /// "Leave the room": the deck's page. A room that finished or expired meanwhile (a page served while
    /// it was open) has nobody to leave: its page says what became of it, never a bare 409.
    @Sendable func formLeave(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let (room, deck) = try await lookup(context) else { throw ApiError.room(.notFound) }
        let participant = try swipes.identity(nil, cookies: context.cookies, deck: deck, now: clock()).id
        do {
            try await rooms.leave(room, participant: participant, now: clock())
        } catch let error as ApiError where error.code == "room_finished" {
            return .redirect(to: "/r/\(room.code)", type: .normal)
        }
        return .redirect(to: "/d/\(deck.slug)", type: .normal)
    }

    /// A second round from the finished panel's button: the API's rule (`RoomsController.nextRound`).
    @Sendable func formRound(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let (room, deck) = try await lookup(context) else { throw ApiError.room(.notFound) }
        let now = clock()
        let participant = try swipes.identity(nil, cookies: context.cookies, deck: deck, now: now).id
        let snapshot = try await store.roomSnapshot(roomId: room.id)
        guard rooms.isMember(snapshot, participant) else { throw ApiError.room(.notMember) }
        if room.status(now: now) == .open || room.status(now: now) == .finished {
            let cards = Dictionary(uniqueKeysWithValues: try await store.allCards(deckId: deck.id).map { ($0.id, $0) })
            let state = RoomStateJSON(snapshot, deck: deck, cards: cards, you: nil, now: now)
            // Refused (open, matched, nothing liked): the page shows the room as it is.
            if try await store.startRound(roomId: room.id, cards: state.closest.map(\.card.id), now: now) {
                // Through the hub, so the room's streams here and on other servers hear of the round at once.
                await rooms.hub.evaluate(roomIds: [room.id], now: now)
            }
        }
        return .redirect(to: "/r/\(room.code)", type: .normal)
    }

    struct SwipeForm: Decodable {
        var card: Int64
        var direction: String
    }

    /// The room page's buttons without scripts: a swipe named with the room, then the room's page.
    @Sendable func formSwipe(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let (room, deck) = try await lookup(context) else { throw ApiError.room(.notFound) }
        let form = try await Self.form(SwipeForm.self, request)
        var req = SwipeRequest(card: form.card, direction: form.direction, input: SwipeInput.button.rawValue)
        req.room = room.code
        do {
            _ = try await swipes.submit(
                deck: deck.slug, req, key: nil, fingerprint: UUID().uuidString, cookies: context.cookies,
                network: context.network, now: clock())
        } catch ApiError.alreadySwiped {
            // A double submit of the same form: the first one counted; just show the next card.
        }
        return .redirect(to: "/r/\(room.code)", type: .normal)
    }

    struct CreateForm: Decodable {
        var name: String?
        var rule: String?
        var count: String?
        var percent: String?
        /// A checkbox: present ("on") when ticked.
        var likedFirst: String?
        /// A checkbox: present ("on") when ticked.
        var endOnFirstMatch: String?
    }

    /// "Decide together" without scripts: a room with the picked rule and options, then its page.
    @Sendable func formCreate(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await catalog.deck(try context.parameters.require("deck"))
        let form = try await Self.form(CreateForm.self, request)
        var settings = RoomSettings()
        let amount = Int((form.rule == "share" ? form.percent : form.count)?.trimmingCharacters(in: .whitespaces) ?? "")
        switch (form.rule, amount) {
        case ("atLeast", let k?) where k >= 1 && k <= settings.maxMembers: settings.rule = .atLeast(k)
        case ("share", let p?) where p >= 1 && p <= 100: settings.rule = .share(percent: p)
        case ("all", _), (nil, _): settings.rule = .all
        default:
            throw ApiError.invalidField(
                code: "invalid_room_rule",
                message: "Pick everyone, at least 1 to \(settings.maxMembers) members, or a share from 1 to 100 %.")
        }
        settings.likedFirst = form.likedFirst != nil
        settings.endOnFirstMatch = form.endOnFirstMatch != nil
        let now = clock()
        let participant = try swipes.identity(nil, cookies: context.cookies, deck: deck, now: now).id
        let room = try await rooms.create(
            deck: deck, creator: participant, name: try RoomsController.name(form.name), settings: settings, now: now)
        return .redirect(to: "/r/\(room.code)", type: .normal)
    }

    /// A URL-encoded form body (at most 16 kB, as the deck page's forms).
    static func form<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let body = try await request.body.collect(upTo: 16 * 1024)
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: String(buffer: body))
        } catch {
            throw ApiError.invalidField(code: "invalid_form", message: "The form is incomplete: try again.")
        }
    }
}
