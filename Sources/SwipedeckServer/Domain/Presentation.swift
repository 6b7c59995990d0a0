/// A deck on a big screen (`/d/{deck}/present`): the short code people type at `/j` to reach it,
/// and whether the screen shows the results or the counts only. A deck has one, made the first
/// time its owner opens the presenter page, and keeps its code from then on (a code on a printed
/// slide must keep working).
public struct Presentation: Sendable, Hashable {
    public var deckId: Int64
    /// The join code: `RoomCode`'s alphabet and length, in a namespace of its own (`/j/{code}`).
    public var joinCode: String
    /// The screen shows the results (the chart per card), not only how many joined and decided.
    /// Hidden by default: early votes shown to a room sway the rest.
    public var revealed: Bool
    /// When a reveal timer the presenter set runs out (the results show from then on, as if
    /// revealed); nil without a timer. Revealing or hiding clears it.
    public var revealAt: Double?
    /// Host-paced or not, and where the presenter is (`Pacing.off`: each person at their own pace).
    public var pacing: Pacing
    /// The link that lets someone other than the owner run the screen and the remote (`PresenterLink`).
    public var presenterLink: PresenterLink
    public var createdAt: Double
    /// When the presenter last revealed or hid the results, or paced the deck (or the presentation was made).
    public var updatedAt: Double

    public init(
        deckId: Int64, joinCode: String, revealed: Bool, revealAt: Double? = nil, pacing: Pacing = .off,
        presenterLink: PresenterLink = .none, createdAt: Double, updatedAt: Double
    ) {
        self.deckId = deckId
        self.joinCode = joinCode
        self.revealed = revealed
        self.revealAt = revealAt
        self.pacing = pacing
        self.presenterLink = presenterLink
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether the results show at `now`: revealed, or a reveal timer that has run out.
    public func isRevealed(at now: Double) -> Bool {
        revealed || (revealAt.map { now >= $0 } ?? false)
    }

    /// The reveal timers a presenter picks from, in seconds (the presenter page offers these).
    public static let revealTimers = [15, 30, 60, 120, 300]
}

/// A deck's presenter link (`Presentation.presenterLink`): whoever opens it runs the deck's big
/// screen and its remote — reveal, lock, pace — without the owner's password, and nothing else of
/// the deck (not its settings, cards, codes or people). The owner makes it on the share panel and
/// revokes it there; a revoked link never works again, and a new one is another link.
///
/// Nothing secret is stored: the link's key is HMAC-SHA256 of the server's secret key over the
/// deck and the link's `generation` (`SecretPurpose.presenter`), so a backup or a copied database
/// opens no screen, the owner can show the link again at any time, and a key rotation revokes it.
public struct PresenterLink: Sendable, Hashable {
    /// How many links the deck has had: each new link is the next, so a revoked key never returns.
    public var generation: Int
    /// The latest link works (made, not revoked).
    public var active: Bool

    public init(generation: Int, active: Bool) {
        self.generation = generation
        self.active = active
    }

    /// No link was ever made.
    public static let none = PresenterLink(generation: 0, active: false)

    /// A new link: the next generation, working.
    public func made() -> PresenterLink { PresenterLink(generation: generation + 1, active: true) }

    /// The link revoked: its key opens nothing from now on.
    public func revoked() -> PresenterLink { PresenterLink(generation: generation, active: false) }

    /// The key of the working link of deck `deckId` (64 hex digits); nil when none works.
    public func key(deckId: Int64, secretKey: SecretKey) -> String? {
        active ? secretKey.derive("\(deckId):\(generation)", for: .presenter) : nil
    }

    /// Whether `key` is the key of the deck's working link (compared in constant time).
    public func opens(with key: String, deckId: Int64, secretKey: SecretKey) -> Bool {
        guard let expected = self.key(deckId: deckId, secretKey: secretKey) else { return false }
        return Secret.constantTimeEqual(key, expected)
    }
}

/// A deck's pace on the big screen (`Presentation.pacing`). Self-paced (the default), each person
/// swipes the deck in their own time. Host-paced, the presenter shows one card at a time ("Next")
/// and every phone shows that card only: it alone takes decisions — and undos — until the
/// presenter moves on or the card's timer ends. The one rule the swipe path (`SwipeService`),
/// the deal (`Dealer`) and the stage (`DeckStage`) read.
public struct Pacing: Sendable, Hashable, Codable {
    /// Host-paced: the presenter sets the pace.
    public var hosted: Bool
    /// The presenter's card; nil before the first "Next" and after the last card.
    public var cardId: Int64?
    /// How many times the presenter pressed "Next" since host-paced began: the card shown is the
    /// deck's `step`th active card in its listed order (1 is the first); past the count, the end.
    public var step: Int
    /// When the card stops taking decisions (its timer ran out); nil: until the presenter moves on.
    public var closesAt: Double?
    /// The timer each "Next" starts, in seconds (one of `cardTimers`); nil: none.
    public var cardSeconds: Int?

    public init(hosted: Bool, cardId: Int64? = nil, step: Int = 0, closesAt: Double? = nil, cardSeconds: Int? = nil) {
        self.hosted = hosted
        self.cardId = cardId
        self.step = step
        self.closesAt = closesAt
        self.cardSeconds = cardSeconds
    }

    /// Self-paced: every card at each person's own pace.
    public static let off = Pacing(hosted: false)

    /// The per-card timers a presenter picks from, in seconds.
    public static let cardTimers = [10, 20, 30, 60, 120]

    /// Whether a decision on `card` — or the undo of one — counts at `now`: any card self-paced;
    /// host-paced, only the presenter's card, before its timer runs out.
    public func takes(card: Int64, at now: Double) -> Bool {
        !hosted || (card == cardId && isCardOpen(at: now))
    }

    /// Whether the presenter's card (if any) still takes decisions at `now`.
    public func isCardOpen(at now: Double) -> Bool {
        cardId != nil && (closesAt.map { now < $0 } ?? true)
    }

    /// After the presenter's "Next" at `now`, with the deck's active cards in their listed order:
    /// the card after the one shown (none past the last), its timer started.
    public func next(in listed: [Int64], now: Double) -> Pacing {
        var next = self
        next.step = min(step + 1, listed.count + 1)
        next.cardId = next.step <= listed.count ? listed[next.step - 1] : nil
        next.closesAt = next.cardId == nil ? nil : cardSeconds.map { now + Double($0) }
        return next
    }
}

/// The state a presented deck is in, as every screen and phone shows it: whether it takes votes,
/// whether its results show, how long until a reveal timer shows them, and, host-paced, the
/// presenter's card. The one rule both the big screen (`/d/{deck}/present/state`) and the phones'
/// stream (`/d/{deck}/stage`) answer with.
public struct DeckStage: Sendable, Equatable, Codable {
    /// The deck takes decisions (not locked or closed).
    public var open: Bool
    /// The results show: on the big screen, and to every phone as "you and the room".
    public var revealed: Bool
    /// Whole seconds (rounded up) until a reveal timer shows the results; nil without a running timer.
    public var revealIn: Int?
    /// Host-paced (`Pacing`): the phones show the presenter's card only.
    public var paced: Bool
    /// Host-paced, the presenter's card (nil before the first and after the last).
    public var card: Int64?
    /// Host-paced, the presenter's card still takes decisions (its timer has not run out).
    public var cardOpen: Bool
    /// Host-paced, which card the presenter is on (1 is the first; past `steps`, the end) of `steps`.
    public var step: Int
    /// Host-paced, the deck's active cards.
    public var steps: Int
    /// Whole seconds (rounded up) until the card's timer ends; nil without a running one.
    public var cardClosesIn: Int?

    public init(
        open: Bool, revealed: Bool, revealIn: Int?, paced: Bool = false, card: Int64? = nil, cardOpen: Bool = false,
        step: Int = 0, steps: Int = 0, cardClosesIn: Int? = nil
    ) {
        self.open = open
        self.revealed = revealed
        self.revealIn = revealIn
        self.paced = paced
        self.card = card
        self.cardOpen = cardOpen
        self.step = step
        self.steps = steps
        self.cardClosesIn = cardClosesIn
    }

    /// The stage of a deck that is `open` or not, with `presentation` (nil: never presented, so
    /// hidden and self-paced) and `steps` active cards, at `now`.
    public static func of(open: Bool, presentation: Presentation?, steps: Int = 0, now: Double) -> DeckStage {
        let revealed = presentation?.isRevealed(at: now) ?? false
        var revealIn: Int?
        if !revealed, let at = presentation?.revealAt {
            revealIn = Int((at - now).rounded(.up))
        }
        let pacing = presentation?.pacing ?? .off
        guard pacing.hosted else { return DeckStage(open: open, revealed: revealed, revealIn: revealIn) }
        let cardOpen = pacing.isCardOpen(at: now)
        return DeckStage(
            open: open, revealed: revealed, revealIn: revealIn, paced: true, card: pacing.cardId, cardOpen: cardOpen,
            step: pacing.step, steps: steps,
            cardClosesIn: cardOpen ? pacing.closesAt.map { Int(($0 - now).rounded(.up)) } : nil)
    }
}
