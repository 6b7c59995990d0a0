import SwipePhysics

/// The body of `POST /api/v1/decks/{deck}/swipes` (and each item of a batch).
public struct SwipeRequest: Sendable, Hashable, Codable {
    /// Card id; must belong to the deck.
    public var card: Int64
    /// Claimed direction (a `Decision` raw value other than `none`).
    public var direction: String
    /// `drag`, `button`, `key` or `api` (default `api`).
    public var input: String?
    /// Pointer trace; required for `drag`, optional for `api`, ignored for `button`/`key`.
    public var trace: Trace?
    /// API clients may name the participant; browsers are identified by their cookie.
    public var participant: String?
    /// Time the card was on top before the decision, ms (0…86,400,000).
    public var decisionMs: Double?
    /// Batch items only: the item's idempotency key (the header names single swipes).
    public var idempotencyKey: String?
    /// The code of the match room the swipe is made in; the swiper must be a current member of
    /// that room on this deck, and the room open (`RoomService.checkSwipe`).
    public var room: String? = nil
}
