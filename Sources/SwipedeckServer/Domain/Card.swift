import Foundation
import SwipePhysics

/// A stored card: its row id (exposed in the API as `id`) and its content (`NewCard`), whose fields
/// read and write through as the card's own (`card.title`). Only storage makes one, from the id
/// its insert returned or a row.
@dynamicMemberLookup
public struct Card: Sendable, Hashable {
    /// Row id.
    public let id: Int64
    /// Everything but the id: what an insert stores.
    public var content: NewCard

    public init(id: Int64, _ content: NewCard) {
        self.id = id
        self.content = content
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<NewCard, T>) -> T {
        get { content[keyPath: keyPath] }
        set { content[keyPath: keyPath] = newValue }
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<NewCard, T>) -> T {
        content[keyPath: keyPath]
    }

    /// Whether `other` shows the same content (`NewCard.hasSameContent`).
    public func hasSameContent(as other: Card) -> Bool {
        content.hasSameContent(as: other.content)
    }
}

/// One card of a deck before it is stored (an import, the owner's card form); storage inserts it
/// and answers the `Card` with its id.
public struct NewCard: Sendable, Hashable, Codable {
    public var deckId: Int64
    /// Order in the deck, from 0.
    public var position: Int
    /// 1–200 characters.
    public var title: String
    /// Up to 300 characters.
    public var subtitle: String
    /// Detail text, up to 5,000 characters.
    public var body: String
    /// The cover: the first of the card's images, shown on the stack; a path on this server
    /// (`/img/...`, `/images/...`) or an https URL; empty when the card has no image.
    public var image: String
    /// The images after the cover, in gallery order (the detail page pages through
    /// `images`). Empty when `image` is; at most `Card.maxImages - 1`.
    public var moreImages: [String] = []
    /// Optional link (http/https), opened by a tap on the card's link.
    public var link: String
    /// CSS hex colour `#RRGGBB` used behind the image.
    public var accent: String
    /// 1 for the card as first added; each edit stores a new revision (older ones stay in
    /// `cardRevisions`, and each swipe names the revision it judged).
    public var revision: Int = 1
    /// When the owner archived the card (seconds since 1970): it is dealt to nobody any more,
    /// its swipes stay. nil while active.
    public var archivedAt: Double?
    /// The card's correct direction on a labelling deck (a known-answer card, `QualitySettings`);
    /// nil for an ordinary card. Not part of the content a swiper sees, so setting it stores no
    /// new revision.
    public var answer: Decision?

    /// Whether `other` shows the same (title, subtitle, body, images, link, accent): an edit
    /// that changes none of them stores no new revision.
    public func hasSameContent(as other: NewCard) -> Bool {
        title == other.title && subtitle == other.subtitle && body == other.body && images == other.images
            && link == other.link && accent == other.accent
    }

    /// Every image of the card, the cover first; empty when it has none.
    public var images: [String] {
        image.isEmpty ? [] : [image] + moreImages
    }

    public init(
        deckId: Int64, position: Int, title: String, subtitle: String = "", body: String = "",
        image: String = "", moreImages: [String] = [], link: String = "", accent: String = Card.defaultAccent,
        answer: Decision? = nil
    ) {
        self.deckId = deckId
        self.position = position
        self.title = title
        self.subtitle = subtitle
        self.body = body
        self.image = image
        self.moreImages = image.isEmpty ? [] : moreImages
        self.link = link
        self.accent = accent
        self.answer = answer
    }
}

extension Card {
    /// The accent of a card whose author picks none: `#RRGGBB`, the app's violet (the database
    /// columns' default too).
    public static let defaultAccent = "#6C5CE7"

    /// Longest title, subtitle and detail text, in characters (`DeckInput.isText`): what the card
    /// face and its detail page have room for.
    public static let maxTitleLength = 200
    public static let maxSubtitleLength = 300
    public static let maxBodyLength = 5000

    /// Most images on one card (the cover included).
    public static let maxImages = 12
}

// MARK: - Stored image list

extension Card {
    /// The JSON text of an image list (`[]` when empty).
    static func encodeImageList(_ list: [String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        // Encoding an array of strings cannot fail (JSONEncoder throws only on non-finite numbers).
        guard !list.isEmpty, let data = try? encoder.encode(list) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The list stored by `encodeImageList`; a missing column (rows read before migration v5,
    /// joins that leave it out) or unreadable text is no extra image.
    static func decodeImageList(_ text: String?) -> [String] {
        // Only `encodeImageList` writes the column, so text that does not decode was not written
        // by this server; its gallery is lost either way, and the card's cover and text still show.
        guard let text, text != "[]", let list = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else {
            return []
        }
        return list
    }
}
