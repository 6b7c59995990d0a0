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
    /// Evaluates rooms in group commits and pushes their events to streams (one per server).
    public let hub: RoomHub

    /// `hub`: the server's; nil makes one of this service's own (tests of the service alone).
    public init(
        store: any Store, catalog: Catalog, notices: any DeckNoticeSink, hub: RoomHub? = nil,
        logger: Logger = Logger(label: "swipedeck.rooms")
    ) {
        self.store = store
        self.catalog = catalog
        self.notices = notices
        self.logger = logger
        self.hub = hub ?? RoomHub(store: store, notices: notices, logger: logger)
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
            if try await store.isRoomMember(roomId: room.id, participant: participant) { return true }
            throw ApiError.room(.finished)
        }
        switch try await store.joinRoom(roomId: room.id, participant: participant, name: name, now: now) {
        case .already: return true
        case .full: throw ApiError.room(.full)
        case .joined:
            await hub.evaluate(roomIds: [room.id], now: now)
            return false
        }
    }

    /// Leaves the room. A finished or expired room changes no more: nobody leaves it.
    /// - Throws: `not_a_room_member`, `room_finished`.
    public func leave(_ room: Room, participant: String, now: Double) async throws {
        if room.status(now: now) != .open { throw ApiError.room(.finished) }
        guard try await store.leaveRoom(roomId: room.id, participant: participant, now: now) else {
            throw ApiError.room(.notMember)
        }
        await hub.evaluate(roomIds: [room.id], now: now)
    }

    /// Checks a swipe that names room `code`: the room exists, is on `deck`, the swiper is one of
    /// its current members, and it is open. Returns the room.
    /// - Throws: `room_not_found`, `not_a_room_member`, `room_finished`.
    public func checkSwipe(code: String, deck: Deck, participant: String, now: Double) async throws -> Room {
        let room = try await self.room(code)
        if room.deckId != deck.id { throw ApiError.room(.notMember) }
        guard try await store.isRoomMember(roomId: room.id, participant: participant) else {
            throw ApiError.room(.notMember)
        }
        if room.status(now: now) != .open { throw ApiError.room(.finished) }
        return room
    }

    /// A room counts only the decisions made since its round began (round 1 begins when the room
    /// is made), so every room starts at nothing for every member, whatever they swiped on the
    /// deck before (alone or in another room), and a later round decides its cards again. So
    /// before a member's swipe on `card` in the room is stored, their live swipe on it from
    /// before the round is undone (kept, marked undone, as every undo): the new swipe takes its
    /// place instead of being refused as `already_swiped`. A swipe made in this round is left alone.
    public func makeRoomForRound(_ room: Room, card: Int64, participant: String, now: Double) async throws {
        // Live swipes only, at most one a card: a deck's cards are the most there can be.
        let live = try await store.history(deckId: room.deckId, participant: participant, limit: DeckInput.maxCards)
        guard let earlier = live.first(where: { $0.swipe.cardId == card && $0.swipe.createdAt < room.roundStartedAt })
        else { return }
        _ = try await store.undoSwipe(id: earlier.swipe.id, participant: participant, at: now)
    }

    /// Evaluates every open room of the deck `participant` is a member of, after their decision
    /// (a swipe, an undo, a flip) committed, in the hub's next group commit; posts the matches it
    /// made. A failure is the room's, not the decision's: it is logged (`RoomHub`), the decision
    /// stands and the next one evaluates again.
    public func decided(deckId: Int64, participant: String, now: Double) async {
        await hub.evaluate(decider: RoomDecider(deckId: deckId, participant: participant), now: now)
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
    /// Whether `participant` is a current member of the room in `snapshot`.
    public func isMember(_ snapshot: RoomSnapshot, _ participant: String) -> Bool {
        snapshot.members.contains { $0.participant == participant && $0.leftAt == nil }
    }
}
