import Hummingbird
import SwipePhysics

/// Every error a client can cause, each naming the broken rule. Mapped to an honest HTTP
/// status and a JSON body `{"error":{"code":"…","message":"…"}}` (or the HTML error page).
public enum ApiError: Error, Sendable, Equatable {
    /// 400: the body is not valid JSON or misses a field.
    case malformedJSON(String)
    /// 400: the request's framing is broken (a chunked body with a bad chunk size or missing
    /// CRLF, or other HTTP/1.1 the parser refuses after the head arrived); the connection closes.
    case malformedBody
    /// 400: a field has an invalid value (`code` names the field rule).
    case invalidField(code: String, message: String)
    /// 401: admin token missing or wrong.
    case unauthorized
    /// 401: wrong owner name or password.
    case invalidCredentials
    /// 403: a cookie-authenticated POST from another origin, or an owner form without its token.
    case crossOrigin
    /// 403: a participant credential this server did not issue (invented, forged, altered, or of
    /// the retired format).
    case unknownParticipant
    /// 403: a participant credential past its lifetime.
    case participantExpired
    /// 403: an API participant credential minted for another deck.
    case participantOtherDeck
    /// 403: the deck takes invited people only, and this participant was not admitted (or the
    /// proof of an admission — secret link, code, signed id — was wrong).
    case accessRequired
    /// 403: the signed-in owner (or token) does not manage this deck.
    case notYourDeck
    /// 403: a presenter link the deck's owner revoked (or never made): it opens no screen.
    case presenterLinkRevoked
    /// 403: undoing or flipping somebody else's swipe.
    case notYourSwipe
    /// 404: unknown route, deck, card, profile or swipe (`what` says which).
    case notFound(String)
    /// 404: no deck on a big screen has this join code (`/j/{code}`; budgeted as room lookups are).
    case joinCodeNotFound
    /// 409: this participant already has a live swipe on the card.
    case alreadySwiped
    /// 409: a deck with this slug exists.
    case slugTaken
    /// 409: the swipe was undone already.
    case alreadyUndone
    /// 409: the deck's owner closed it: no new swipes, undos or flips.
    case deckClosed
    /// 409: the card is archived: dealt to nobody and taking no new swipes.
    case cardArchived
    /// 409: the deck is host-paced (`Pacing`) and this card is not the presenter's, or its timer ran out.
    case cardNotCurrent
    /// 409: the participant decided as many cards as the deck's quota allows.
    case quotaReached(Int)
    /// 409: an owner with this name exists.
    case ownerNameTaken
    /// 413: the body is larger than the limit.
    case tooLarge(Int)
    /// 415: a JSON route got another content type.
    case unsupportedMediaType
    /// 422: the trace broke a physics rule; the code is the rule.
    case rejected(SwipeRejection)
    /// 422: the Idempotency-Key was used for a different request.
    case idempotencyMismatch
    /// 422: button/key swipes on a deck that only accepts drags, or a drag without a trace.
    case inputNotAllowed(String)
    /// 429: too many requests; retry after the given seconds.
    case rateLimited(retryAfter: Int)
    /// 429 `rate_limited`: the free join budget is spent (`JoinBudget`); retry after the given
    /// seconds, or pay a join puzzle now (`JoinPuzzles`).
    case joinBudgetSpent(retryAfter: Int)
    /// 429: the client (or the server in all) has as many live results streams open as allowed;
    /// retry after the given seconds.
    case tooManyStreams(retryAfter: Int)
    /// 429: the participant holds as many open rooms on the deck as allowed, or the client's
    /// network created as many rooms this hour as allowed (`RoomBudget`); retry after the given seconds.
    case tooManyRooms(retryAfter: Int)
    /// 503: the server (or this client address) holds as many connections as allowed; sent by
    /// `RefusedConnectionHandler` on a connection it then closes.
    case tooManyConnections(retryAfter: Int)
    /// 503: the request bodies being read hold as much memory as the server allows
    /// (`BodyBudget`); retry after the given seconds.
    case bodiesBusy(retryAfter: Int)
    /// 500: a fault on our side (logged); never caused by what a client sends.
    case internalError
    /// 400 (empty), 415 (not a PNG, JPEG, WebP or GIF) or 422 (damaged, cut short, too many
    /// pixels): an uploaded image was refused; the code is the rule.
    case imageRefused(ImageRefusal)
    /// 403, 404 or 409: a match room's rule was broken (`RoomRefusal`); the code is the rule.
    case room(RoomRefusal)
    /// 400, 403, 409 or 422: a join puzzle's solution earns no credential (`JoinPuzzleRefusal`);
    /// the code is the rule.
    case puzzle(JoinPuzzleRefusal)

    public var status: HTTPResponse.Status {
        switch self {
        case .malformedJSON, .malformedBody, .invalidField: return .badRequest
        case .unauthorized, .invalidCredentials: return .unauthorized
        case .crossOrigin, .notYourSwipe, .unknownParticipant, .participantExpired, .participantOtherDeck,
            .accessRequired, .notYourDeck, .presenterLinkRevoked:
            return .forbidden
        case .notFound, .joinCodeNotFound: return .notFound
        case .alreadySwiped, .slugTaken, .alreadyUndone, .deckClosed, .cardArchived, .cardNotCurrent, .quotaReached,
            .ownerNameTaken:
            return .conflict
        case .tooLarge: return .contentTooLarge
        case .unsupportedMediaType: return .unsupportedMediaType
        case .rejected, .idempotencyMismatch, .inputNotAllowed: return .unprocessableContent
        case .rateLimited, .joinBudgetSpent, .tooManyStreams, .tooManyRooms: return .tooManyRequests
        case .tooManyConnections, .bodiesBusy: return .serviceUnavailable
        case .internalError: return .internalServerError
        case .imageRefused(let refusal):
            switch refusal {
            case .empty: return .badRequest
            case .unsupportedType: return .unsupportedMediaType
            case .unreadable, .tooManyPixels: return .unprocessableContent
            }
        case .room(let refusal): return refusal.status
        case .puzzle(let refusal):
            switch refusal {
            case .malformed: return .badRequest
            case .invalid, .expired: return .forbidden
            case .unsolved: return .unprocessableContent
            case .stale, .used: return .conflict
            }
        }
    }

    /// Seconds the client is asked to wait (`Retry-After`), for the errors that pass with time.
    public var retryAfter: Int? {
        switch self {
        case .rateLimited(let s), .joinBudgetSpent(let s), .tooManyStreams(let s), .tooManyRooms(let s),
            .tooManyConnections(let s), .bodiesBusy(let s):
            return s
        default: return nil
        }
    }

    public var code: String {
        switch self {
        case .malformedJSON: return "malformed_json"
        case .malformedBody: return "malformed_body"
        case .invalidField(let code, _): return code
        case .unauthorized: return "unauthorized"
        case .invalidCredentials: return "invalid_credentials"
        case .crossOrigin: return "cross_origin"
        case .unknownParticipant: return "unknown_participant"
        case .participantExpired: return "participant_expired"
        case .participantOtherDeck: return "participant_other_deck"
        case .accessRequired: return "access_required"
        case .notYourDeck: return "not_your_deck"
        case .presenterLinkRevoked: return "presenter_link_revoked"
        case .deckClosed: return "deck_closed"
        case .cardArchived: return "card_archived"
        case .cardNotCurrent: return "card_not_current"
        case .quotaReached: return "quota_reached"
        case .ownerNameTaken: return "owner_name_taken"
        case .notYourSwipe: return "not_your_swipe"
        case .notFound: return "not_found"
        case .joinCodeNotFound: return "join_code_not_found"
        case .alreadySwiped: return "already_swiped"
        case .slugTaken: return "slug_taken"
        case .alreadyUndone: return "already_undone"
        case .tooLarge: return "body_too_large"
        case .unsupportedMediaType: return "unsupported_media_type"
        case .rejected(let r): return r.rawValue
        case .idempotencyMismatch: return "idempotency_mismatch"
        case .inputNotAllowed: return "input_not_allowed"
        case .rateLimited, .joinBudgetSpent: return "rate_limited"
        case .tooManyStreams: return "too_many_streams"
        case .tooManyRooms: return "too_many_rooms"
        case .tooManyConnections: return "too_many_connections"
        case .bodiesBusy: return "server_busy"
        case .internalError: return "internal"
        case .imageRefused(let refusal): return refusal.code
        case .room(let refusal): return refusal.rawValue
        case .puzzle(let refusal): return refusal.rawValue
        }
    }

    public var message: String {
        switch self {
        case .malformedJSON(let m): return "The body is not valid JSON for this route: \(m)"
        case .malformedBody:
            return
                "The request body is not well-formed HTTP/1.1 (for example a damaged chunked encoding); the connection is closed."
        case .invalidField(_, let m): return m
        case .unauthorized:
            return
                "Sign in as the deck's owner, or send Authorization: Bearer <token> (an owner's API token or the admin token)."
        case .invalidCredentials: return "That owner name and password do not match."
        case .crossOrigin: return "Cross-origin POSTs are not accepted."
        case .unknownParticipant:
            return
                "This participant credential was not issued by this server; get one from POST /api/v1/decks/{deck}/participants."
        case .participantExpired:
            return "This participant credential has expired; get a new one from POST /api/v1/decks/{deck}/participants."
        case .participantOtherDeck:
            return
                "This participant credential was minted for another deck; get one for this deck from POST /api/v1/decks/{deck}/participants."
        case .accessRequired:
            return "This deck takes invited people only: open the link or enter the code you were given."
        case .notYourDeck: return "This deck belongs to another owner."
        case .presenterLinkRevoked:
            return "This presenter link no longer works: the deck's owner revoked it. Ask them for the new one."
        case .deckClosed:
            return "This deck is closed: its owner is not taking swipes now, and decisions made cannot be changed."
        case .cardArchived: return "This card is archived: its owner is not taking swipes on it."
        case .cardNotCurrent:
            return "The presenter sets the pace: only the card on the big screen takes decisions, until its time ends."
        case .quotaReached(let n): return "You have decided \(n) cards, as many as this deck asks of one person."
        case .ownerNameTaken: return "An owner with this name exists."
        case .notYourSwipe: return "Only the participant who made a swipe can change it."
        case .notFound(let what): return "No such \(what)."
        case .joinCodeNotFound: return "No deck has this join code."
        case .alreadySwiped: return "This participant already swiped this card; undo it first."
        case .slugTaken: return "A deck with this slug exists."
        case .alreadyUndone: return "This swipe was undone already."
        case .tooLarge(let limit): return "The body is larger than \(limit) bytes."
        case .unsupportedMediaType: return "Send Content-Type: application/json."
        case .rejected(let r): return r.message
        case .idempotencyMismatch: return "This Idempotency-Key was used for a different request."
        case .inputNotAllowed(let m): return m
        case .rateLimited(let s): return "Too many requests; retry in \(s) s."
        case .joinBudgetSpent(let s):
            return
                "Many people joined from your network just now: retry in \(s) s, or join at once with a solved puzzle (POST /api/v1/decks/{deck}/puzzles)."
        case .tooManyStreams(let s): return "Too many live results streams are open; close one or retry in \(s) s."
        case .tooManyRooms(let s):
            return "Too many rooms: finish or let one of yours expire, or retry in \(s) s."
        case .tooManyConnections(let s): return "The server holds as many connections as it allows; retry in \(s) s."
        case .bodiesBusy(let s): return "The server is reading as many requests as it can hold; retry in \(s) s."
        case .internalError: return "Internal error; it has been logged."
        case .imageRefused(let refusal): return refusal.message
        case .room(let refusal): return refusal.message
        case .puzzle(let refusal): return refusal.message
        }
    }
}
