/// What joining a room gave (`RoomStore.joinRoom`).
public enum RoomJoin: Sendable, Hashable {
    /// A new member (or a member who had left, back again).
    case joined(RoomMember)
    /// The participant is a member already.
    case already(RoomMember)
    /// The room has `maxMembers` current members.
    case full
}

/// A member whose decision in a deck may change their rooms (`RoomStore.evaluateRooms`).
public struct RoomDecider: Sendable, Hashable {
    public var deckId: Int64
    public var participant: String

    public init(deckId: Int64, participant: String) {
        self.deckId = deckId
        self.participant = participant
    }
}

/// One room evaluated by `RoomStore.evaluateRooms`: the room as read before, the events appended.
public struct RoomEvaluated: Sendable {
    public var room: Room
    public var events: [RoomEvent]
}

/// Match rooms: rooms, their members, matches and events (files `+Rooms`).
///
/// A member's decisions are their live swipes in the deck (one per card, whichever route made
/// it); every change is evaluated by `RoomEvaluation` inside the transaction that stores it, so
/// both engines agree, and appended to the room's event log (`roomEvents`), which every server
/// reads by id.
public protocol RoomStore: Sendable {
    /// Stores a new room with its creator as first member (a `member` event).
    /// - Returns: nil when the code is taken (the caller draws another).
    func createRoom(
        deckId: Int64, code: String, settings: RoomSettings, participant: String, name: String, now: Double
    ) async throws -> Room?
    /// The room with this code (upper case).
    func room(code: String) async throws -> Room?
    /// Rooms of the deck that `participant` created (its first member) and that are open at
    /// `now`: not finished, not expired (`RoomBudget`).
    func openRoomsCreated(deckId: Int64, participant: String, now: Double) async throws -> Int
    /// Adds `participant` (or brings a member who left back), under the cap, with a `member` event.
    /// The caller evaluates the room next (n changed).
    func joinRoom(roomId: Int64, participant: String, name: String?, now: Double) async throws -> RoomJoin
    /// Marks the member left (a `member` event); false for a non-member. The caller evaluates the room next.
    func leaveRoom(roomId: Int64, participant: String, now: Double) async throws -> Bool
    /// Everything the room's evaluation reads, as stored now.
    func roomSnapshot(roomId: Int64) async throws -> RoomSnapshot
    /// The room's stored matches: card, since when, and the member ids who liked it.
    func roomMatches(roomId: Int64) async throws -> [RoomMatching.Match]
    /// Evaluates the room (`RoomEvaluation`) and stores the changes and their events in one
    /// transaction; returns the events appended.
    func evaluateRoom(roomId: Int64, now: Double) async throws -> [RoomEvent]
    /// Evaluates, in ONE transaction, the rooms `roomIds` and the open rooms each of `deciders`
    /// is a current member of (each as `evaluateRoom`, in id order); returns every room evaluated
    /// with the events appended (possibly none). `RoomHub` calls it once per group commit.
    func evaluateRooms(roomIds: Set<Int64>, deciders: Set<RoomDecider>, now: Double) async throws -> [RoomEvaluated]
    /// The id of the room's latest event, 0 for none (where a new events stream starts).
    func lastRoomEventId(roomId: Int64) async throws -> Int64
    /// Whether `participant` is a current member of the room (one indexed read).
    func isRoomMember(roomId: Int64, participant: String) async throws -> Bool
    /// The open rooms of the deck `participant` is a current member of (to evaluate after their
    /// decisions).
    func memberRooms(deckId: Int64, participant: String) async throws -> [Room]
    /// Up to `limit` events of the room after id `after`, oldest first.
    func roomEvents(roomId: Int64, after: Int64, limit: Int) async throws -> [RoomEvent]
    /// Starts the next round on `cards` (a `round` event); false unless the room is finished
    /// without a match and not expired.
    func startRound(roomId: Int64, cards: [Int64], now: Double) async throws -> Bool
    /// Per card of the deck, how many rooms have it as a match now.
    func roomMatchCounts(deckId: Int64) async throws -> [Int64: Int]
    /// Participants who were ever members of the room (the owner's results by room).
    func roomParticipants(roomId: Int64) async throws -> [String]
}
