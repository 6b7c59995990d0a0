import Foundation

/// What an owner can be told happened on a deck: the events a webhook subscribes to. The raw
/// value is the event's name on the wire (`X-Swipedeck-Event`, the subscription's `events`).
public enum DeckNoticeKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A card's stop rule reached yes, no or settled, or another verdict than the one told before
    /// (`revision` and `previous` say which).
    case cardDecided = "card.decided"
    /// A card told decided is deciding again.
    case cardUndecided = "card.undecided"
    /// Every card (or the top k) is decided.
    case deckDecided = "deck.decided"
    /// A deck told decided is no longer.
    case deckUndecided = "deck.undecided"
    /// A participant fell under the owner's accuracy threshold on known-answer cards.
    case participantFlagged = "participant.flagged"
    /// A room's match rule held on a card.
    case roomMatched = "room.matched"
    /// Swipes were stored (delivered batched: at most one delivery a second per hook).
    case swipeCreated = "swipe.created"
}

/// One event on one deck, ready to be delivered: its kind, the deck, when it happened and its
/// `data` (the event's JSON object, encoded once by whoever noticed it).
public struct DeckNotice: Sendable, Hashable {
    public var kind: DeckNoticeKind
    public var deckId: Int64
    /// Seconds since 1970 (the app's clock) when it happened.
    public var at: Double
    /// The JSON object delivered as the event's `data`.
    public var data: Data

    public init(kind: DeckNoticeKind, deckId: Int64, at: Double, data: Data) {
        self.kind = kind
        self.deckId = deckId
        self.at = at
        self.data = data
    }

    /// Encodes `payload` with the app's one encoder configuration as the event's `data`.
    public init<Payload: Encodable>(kind: DeckNoticeKind, deckId: Int64, at: Double, payload: Payload) throws {
        self.init(kind: kind, deckId: deckId, at: at, data: try JSONCoding.shared.encode(payload))
    }
}

/// Where the app posts what it noticed, after the commit that made it true (the webhooks'
/// outbox stores it before anything is sent). Posting never fails the write that caused it.
public protocol DeckNoticeSink: Sendable {
    /// Records `notices` for delivery to the hooks subscribed to them; returns once stored.
    func post(_ notices: [DeckNotice]) async
}
