import Foundation
import Logging

/// Match rooms: creating, joining and leaving them, checking a swipe made in one, evaluating the
/// rooms a member's decision may change, and reading a room as its members see it.
public struct RoomService: Sendable {
    public let store: any Store
    public let catalog: Catalog
    /// Where matches are posted (`room.matched`), after the commit that made them.
    public let notices: any DeckNoticeSink
    /// Where a room that could not be evaluated after a decision is reported.
    public let logger: Logger

    public init(
        store: any Store, catalog: Catalog, notices: any DeckNoticeSink,
        logger: Logger = Logger(label: "swipedeck.rooms")
    ) {
        self.store = store
        self.catalog = catalog
        self.notices = notices
        self.logger = logger
    }

    /// Draws of a fresh code before giving up: with 31⁶ codes a collision is already rare.
    static let codeAttempts = 8

    /// A new room on `deck`, its creator its first member.
    /// - Throws: `rooms_off`, `deck_closed`.
    public func create(deck: Deck, creator: String, name: String?, settings: RoomSettings, now: Double) async throws
        -> Room
    {
        if !deck.rooms { throw ApiError.room(.roomsOff) }
        if !deck.isOpen { throw ApiError.deckClosed }
        for _ in 0..<Self.codeAttempts {
            if let room = try await store.createRoom(
                deckId: deck.id, code: RoomCode.random(), settings: settings, participant: creator,
                name: name ?? "Member 1", now: now)
            {
                return room
            }
        }
        throw ApiError.internalError
    }

    /// The room with this code (any case).
    /// - Throws: `room_not_found`.
    public func room(_ code: String) async throws -> Room {
        guard let normalized = RoomCode.normalized(code), let room = try await store.room(code: normalized) else {
            throw ApiError.room(.notFound)
        }
        return room
    }

    /// Joins `participant` to the room; true when they were a member already.
    /// - Throws: `room_finished` (finished or expired), `room_full`, `rooms_off`.
    public func join(_ room: Room, deck: Deck, participant: String, name: String?, now: Double) async throws -> Bool {
        if !deck.rooms { throw ApiError.room(.roomsOff) }
        if room.status(now: now) != .open {
            let snapshot = try await store.roomSnapshot(roomId: room.id)
            if snapshot.members.contains(where: { $0.participant == participant && $0.leftAt == nil }) { return true }
            throw ApiError.room(.finished)
        }
        switch try await store.joinRoom(roomId: room.id, participant: participant, name: name, now: now) {
        case .already: return true
        case .full: throw ApiError.room(.full)
        case .joined:
            try await post(try await store.evaluateRoom(roomId: room.id, now: now), room: room, now: now)
            return false
        }
    }

    /// Leaves the room. - Throws: `not_a_room_member`.
    public func leave(_ room: Room, participant: String, now: Double) async throws {
        guard try await store.leaveRoom(roomId: room.id, participant: participant, now: now) else {
            throw ApiError.room(.notMember)
        }
        try await post(try await store.evaluateRoom(roomId: room.id, now: now), room: room, now: now)
    }

    /// Checks a swipe that names room `code`: the room exists, is on `deck`, the swiper is one of
    /// its current members, and it is open.
    /// - Throws: `room_not_found`, `not_a_room_member`, `room_finished`.
    public func checkSwipe(code: String, deck: Deck, participant: String, now: Double) async throws {
        let room = try await self.room(code)
        if room.deckId != deck.id { throw ApiError.room(.notMember) }
        let snapshot = try await store.roomSnapshot(roomId: room.id)
        guard snapshot.members.contains(where: { $0.participant == participant && $0.leftAt == nil }) else {
            throw ApiError.room(.notMember)
        }
        if room.status(now: now) != .open { throw ApiError.room(.finished) }
    }

    /// Evaluates every open room of the deck `participant` is a member of, after their decision
    /// (a swipe, an undo, a flip) committed; posts the matches it made. A failure is the room's,
    /// not the decision's: it is logged, the decision stands and the next one evaluates again.
    public func decided(deckId: Int64, participant: String, now: Double) async {
        do {
            for room in try await store.memberRooms(deckId: deckId, participant: participant) {
                try await post(try await store.evaluateRoom(roomId: room.id, now: now), room: room, now: now)
            }
        } catch {
            logger.error(
                "room not evaluated after a decision", metadata: ["deck": "\(deckId)", "error": "\(error)"])
        }
    }

    /// Posts a `room.matched` notice for each match among `events`.
    func post(_ events: [RoomEvent], room: Room, now: Double) async throws {
        let matches = events.filter { $0.kind == .match }
        if matches.isEmpty { return }
        var notices: [DeckNotice] = []
        for event in matches {
            guard let stored = try? JSONDecoder().decode(StoredMatch.self, from: Data(event.data.utf8)) else {
                continue  // Written by `RoomEvaluation` a moment ago: always decodes.
            }
            notices.append(
                try DeckNotice(
                    kind: .roomMatched, deckId: room.deckId, at: now,
                    payload: MatchNotice(room: room.code, card: stored.card, likes: stored.likedBy.count)))
        }
        await self.notices.post(notices)
    }

    /// A `match` event as stored.
    struct StoredMatch: Decodable {
        var card: Int64
        var at: Double
        var likedBy: [Int64]
    }

    /// The data of a `room.matched` notice: the room, the card and how many members liked it.
    struct MatchNotice: Encodable {
        var room: String
        var card: Int64
        var likes: Int
    }
}

extension RoomService {
    /// The room's deal for `participant`: the round's cards in the room's order (the same for
    /// every member) without the ones they decided; with `likedFirst`, the cards other current
    /// members like come first (most likes first, then the room's order).
    public func deal(_ snapshot: RoomSnapshot, participant: String) -> [Int64] {
        let current = Set(snapshot.members.filter { $0.leftAt == nil }.map(\.participant))
        var mine = Set<Int64>()
        var othersLikes: [Int64: Int] = [:]
        for s in snapshot.swipes {
            if s.participant == participant {
                mine.insert(s.card)
            } else if s.like && current.contains(s.participant) {
                othersLikes[s.card, default: 0] += 1
            }
        }
        let open = snapshot.cards.filter { !mine.contains($0) }
        guard snapshot.room.settings.likedFirst else { return open }
        let index = Dictionary(uniqueKeysWithValues: open.enumerated().map { ($1, $0) })
        return open.sorted {
            (-(othersLikes[$0] ?? 0), index[$0]!) < (-(othersLikes[$1] ?? 0), index[$1]!)
        }
    }

    /// Whether `participant` is a current member of the room in `snapshot`.
    public func isMember(_ snapshot: RoomSnapshot, _ participant: String) -> Bool {
        snapshot.members.contains { $0.participant == participant && $0.leftAt == nil }
    }
}
