import Foundation
import SwipePhysics

/// A stored deck: its row id and its content (`NewDeck`), whose fields read and write through as
/// the deck's own (`deck.title`). Only storage makes one, from the id its insert returned or a row.
@dynamicMemberLookup
public struct Deck: Sendable, Hashable {
    /// Row id.
    public let id: Int64
    /// Everything but the id: what an insert stores.
    public var content: NewDeck

    public init(id: Int64, _ content: NewDeck) {
        self.id = id
        self.content = content
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<NewDeck, T>) -> T {
        get { content[keyPath: keyPath] }
        set { content[keyPath: keyPath] = newValue }
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<NewDeck, T>) -> T {
        content[keyPath: keyPath]
    }
}

/// A deck's content before it is stored (an import, the owner's new-deck form, the sample deck):
/// an ordered set of cards people swipe, judged by one physics profile. Storage inserts it and
/// answers the `Deck` with its id.
public struct NewDeck: Sendable, Hashable, Codable {
    /// URL name, `[a-z0-9-]{1,64}`, unique.
    public var slug: String
    /// Display title, 1–200 characters.
    public var title: String
    /// Optional description, up to 2,000 characters.
    public var description: String
    /// Name of a `SwipeProfile` (see `SwipeProfile.all`).
    public var profile: String
    /// Whether pass/like buttons and keyboard swipes (no trace) are accepted.
    public var allowButtons: Bool
    /// Overlay labels per direction family.
    public var leftLabel: String
    public var rightLabel: String
    public var upLabel: String
    public var downLabel: String
    /// Seconds since 1970.
    public var createdAt: Double
    /// The owner who manages the deck; nil for a deck only the admin token manages (the first
    /// owner created adopts those).
    public var ownerId: Int64?
    /// Whether swipes are accepted; a closed deck answers 409 `deck_closed`. Default true.
    public var isOpen: Bool = true
    /// Whether anybody may read the results; otherwise only the owner (or a token). Default false.
    public var resultsPublic: Bool = false
    /// Most cards one participant may decide, or nil for no limit; past it 409 `quota_reached`.
    public var quota: Int?
    /// `listed` (the owner's order), `shuffled` (a fixed random order per participant) or `adaptive`
    /// (the cards that most need votes first, `AdaptiveDeal`).
    public var cardOrder: CardOrder = .listed
    /// The input kinds the ranking counts, never empty; stored as `CountedInput.stored`'s text.
    /// Default `CountedInput.defaultSet`. Suspect swipes never count.
    public var countedInputs: Set<CountedInput> = CountedInput.defaultSet
    /// Increases with every change to the deck or its cards (cache keys include it).
    public var revision: Int = 1
    /// Who may vote. Default `link`: anyone with the deck's link.
    public var access: DeckAccessMode = .link
    /// The secret of the `unlisted` link and the key of `allowList` signatures: 43 characters of
    /// base64url, made when the deck is (or, for an older deck, when its access mode first needs it).
    public var accessSecret: String = ""
    /// The people its owner expects (the share panel's and the settings' "People expected"), for
    /// an event behind one NAT: that many of one network (`ClientNetwork.key`) may join this deck
    /// at once for free (`JoinBudget`: then from a budget of the deck's own), and join puzzles stay at
    /// their base work up to that much pressure (`JoinDifficulty.allowance`); nil: the server's
    /// budget (`--rate-mint`, 60 × rate at once) and `JoinDifficulty.defaultAllowance`.
    public var joinLimit: Int?
    /// Whether the front page (`/`) lists the deck while it is open, has an active card and takes
    /// anyone with the link; an unlisted deck is reached by its link only. Default true.
    public var listed: Bool = true
    /// When its cards, and the deck, are decided (`StopRule`). Default `none`: never.
    public var stopRule: StopRule = .none
    /// Quality control with known-answer cards; nil until the owner sets it (`qualitySettings`
    /// reads the defaults then).
    public var quality: QualitySettings?
    /// Whether groups may decide together in rooms (`Room`) on this deck. Default true for new
    /// decks; decks made before rooms existed have it off until their owner turns it on.
    public var rooms: Bool = true

    public init(
        slug: String, title: String, description: String = "", profile: String = Deck.defaultProfile,
        allowButtons: Bool = true, leftLabel: String = Deck.defaultLabels.left,
        rightLabel: String = Deck.defaultLabels.right, upLabel: String = Deck.defaultLabels.up,
        downLabel: String = Deck.defaultLabels.down, createdAt: Double
    ) {
        self.slug = slug
        self.title = title
        self.description = description
        self.profile = profile
        self.allowButtons = allowButtons
        self.leftLabel = leftLabel
        self.rightLabel = rightLabel
        self.upLabel = upLabel
        self.downLabel = downLabel
        self.createdAt = createdAt
    }
}

extension Deck {
    /// The profile a deck judges swipes with unless its owner picks another: `standard`, the
    /// preset tuned for phones (`SwipeProfile.standard`).
    public static let defaultProfile = SwipeProfile.standard.name

    /// The overlay labels of a deck whose owner names none (the database columns' defaults too).
    public static let defaultLabels = DirectionNames(left: "NOPE", right: "LIKE", up: "SUPER", down: "LATER")

    /// Longest title, description and overlay label, in characters (`DeckInput.isText`): what a
    /// phone's header, the deck page's intro and a label over the card have room for.
    public static let maxTitleLength = 200
    public static let maxDescriptionLength = 2000
    public static let maxLabelLength = 16

    /// Overlay label for a decision (`NewDeck.label(for:)`).
    public func label(for d: Decision) -> String {
        content.label(for: d)
    }
}

extension NewDeck {
    /// The deck's quality control (`quality`, or the defaults).
    public var qualitySettings: QualitySettings { quality ?? QualitySettings() }

    /// The deck's profile (falls back to `standard` for a name no longer known).
    public var swipeProfile: SwipeProfile { SwipeProfile.named(profile) ?? .standard }

    /// Overlay label for a decision.
    public func label(for d: Decision) -> String {
        switch d {
        case .left, .upLeft, .downLeft: return leftLabel
        case .right, .upRight, .downRight: return rightLabel
        case .up: return upLabel
        case .down: return downLabel
        case .none: return ""
        }
    }
}
