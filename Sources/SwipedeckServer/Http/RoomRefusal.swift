import HTTPTypes

/// Why a match room refused a request (`ApiError.room`); the raw value is the error code.
public enum RoomRefusal: String, Sendable, Equatable {
    /// 404: no room has this code.
    case notFound = "room_not_found"
    /// 403: only the room's current members read it, follow it and swipe in it.
    case notMember = "not_a_room_member"
    /// 409: the room has as many members as its creator allowed.
    case full = "room_full"
    /// 409: the room finished or expired: no more swipes in it, nobody joins.
    case finished = "room_finished"
    /// 403: the deck's owner does not allow rooms on it.
    case roomsOff = "rooms_off"

    public var status: HTTPResponse.Status {
        switch self {
        case .notFound: return .notFound
        case .notMember, .roomsOff: return .forbidden
        case .full, .finished: return .conflict
        }
    }

    public var message: String {
        switch self {
        case .notFound: return "No room has this code."
        case .notMember:
            return "Only the room's members can do this: join it first (POST /api/v1/rooms/{code}/members)."
        case .full: return "This room is full."
        case .finished: return "This room has finished: it takes no more swipes or members."
        case .roomsOff: return "This deck's owner does not allow rooms on it."
        }
    }
}
