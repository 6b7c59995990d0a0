import Foundation

// Rows the store returns that are not domain models: the same on both engines (`Store`).

/// A deck with how many cards it has (deck list).
public struct DeckSummary: Sendable, Hashable {
    public var deck: Deck
    /// Active cards: archived ones are not swiped and not counted.
    public var cardCount: Int
    /// The first active card's image, or "".
    public var cover: String

    /// Whether the front page (`/`) lists the deck: open, listed, for anyone with the link, and
    /// with at least one active card (a deck with nothing to swipe is a dead end).
    public var isOnFrontPage: Bool {
        deck.access == .link && deck.listed && deck.isOpen && cardCount > 0
    }
}

/// A swipe joined with its card, for the history page.
public struct HistoryEntry: Sendable, Hashable {
    public var swipe: Swipe
    public var card: Card
}

/// An API token as its owner sees it (the token itself is shown once, at creation).
public struct ApiTokenSummary: Sendable, Hashable {
    public var id: Int64
    public var name: String
    /// The token's first characters, to recognise it.
    public var prefix: String
    public var createdAt: Double
    public var revokedAt: Double?
}

/// A participant on the deck's trust list (`TrustStore.flaggedParticipants`).
public struct FlaggedParticipant: Sendable, Hashable {
    public var id: String
    public var suspect: Int
    public var live: Int
    /// The most frequent suspect reason.
    public var reason: String?
    public var excluded: Bool
}

/// One row of the owner's dashboard.
public struct DeckActivity: Sendable, Hashable {
    public var deck: Deck
    /// Active cards (archived ones are out of the deck swipers see).
    public var cards: Int
    /// Live swipes (not undone), all kinds.
    public var swipes: Int
    /// Distinct participants with a live swipe.
    public var participants: Int
    /// Live swipes stored in the last hour: what `swipes` counts, so it is never more.
    public var lastHour: Int
}
