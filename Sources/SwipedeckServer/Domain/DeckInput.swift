import Foundation
import SwipePhysics

/// A deck with its cards as clients send it (`POST /api/v1/decks`, `swipedeck import`).
/// `validated(now:)` checks every field and names the first broken rule.
public struct DeckInput: Sendable, Codable {
    public struct Labels: Sendable, Codable {
        public var left: String?
        public var right: String?
        public var up: String?
        public var down: String?
    }

    public struct CardInput: Sendable, Codable {
        public var title: String
        public var subtitle: String?
        public var body: String?
        /// One image: accepted as a one-image list (`images: [image]`).
        public var image: String?
        /// The card's images, the cover first (the detail page's gallery); at most
        /// `Card.maxImages`. With `image` too, `image` must be the first of them.
        public var images: [String]?
        public var link: String?
        public var accent: String?
        /// The known answer, a direction's wire name (`Decision`, not `none`); absent or "" for none.
        public var answer: String?

        public init(
            title: String, subtitle: String? = nil, body: String? = nil, image: String? = nil, images: [String]? = nil,
            link: String? = nil, accent: String? = nil, answer: String? = nil
        ) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.image = image
            self.images = images
            self.link = link
            self.accent = accent
            self.answer = answer
        }

        /// The card row (without ids) at `position`, if every rule holds; `label` names the card
        /// in messages ("card 3").
        public func validated(position: Int, label at: String) throws(ApiError) -> NewCard {
            func fail(_ code: String, _ message: String) -> ApiError { .invalidField(code: code, message: message) }
            let (title, subtitle, body) = (
                DeckInput.lines(title), DeckInput.lines(subtitle ?? ""), DeckInput.lines(body ?? "")
            )
            if !DeckInput.isText(title, max: Card.maxTitleLength, required: true) {
                throw fail("invalid_card_title", "\(at): title must be 1–\(Card.maxTitleLength) characters.")
            }
            if !DeckInput.isText(subtitle, max: Card.maxSubtitleLength, required: false) {
                throw fail(
                    "invalid_card_text",
                    "\(at): the subtitle must be at most \(Card.maxSubtitleLength) characters, without control characters."
                )
            }
            if !DeckInput.isText(body, max: Card.maxBodyLength, required: false) {
                throw fail(
                    "invalid_card_text", "\(at): the text must be at most 5,000 characters, without control characters."
                )
            }
            let images = try imageList(label: at)
            let link = link ?? ""
            if !link.isEmpty && !DeckInput.isLink(link) {
                throw fail("invalid_link", "\(at): link must be a /path or an http(s) URL.")
            }
            let accent = accent ?? Card.defaultAccent
            if !DeckInput.isHexColor(accent) { throw fail("invalid_accent", "\(at): accent must be #RRGGBB.") }
            return NewCard(
                deckId: 0, position: position, title: title, subtitle: subtitle, body: body,
                image: images.first ?? "", moreImages: Array(images.dropFirst()), link: link, accent: accent,
                answer: try Self.answer(answer, label: at))
        }

        /// The known answer named by `text`: nil for nil or "", else a direction's wire name.
        /// - Throws: `ApiError.invalidField` `invalid_answer` for anything else (`none` included).
        static func answer(_ text: String?, label at: String) throws(ApiError) -> Decision? {
            guard let text, !text.isEmpty else { return nil }
            guard let d = Decision(rawValue: text), d != .none else {
                let names = Decision.directions.map(\.rawValue).joined(separator: ", ")
                throw .invalidField(code: "invalid_answer", message: "\(at): the answer must be one of \(names).")
            }
            return d
        }

        /// The card's images from `images`, or from `image` as a one-image list.
        /// - Throws: `ApiError.invalidField`: `invalid_image` (an entry that is not a /path on this
        ///   server or an https URL, empty entries included), `too_many_images` (over
        ///   `Card.maxImages`), `image_conflict` (`image` given and not the first of `images`).
        func imageList(label at: String) throws(ApiError) -> [String] {
            func fail(_ code: String, _ message: String) -> ApiError { .invalidField(code: code, message: message) }
            let single = image ?? ""
            guard let images else {
                if !single.isEmpty && !DeckInput.isImage(single) {
                    throw fail("invalid_image", "\(at): image must be a /path on this server or an https URL.")
                }
                return single.isEmpty ? [] : [single]
            }
            if images.count > Card.maxImages {
                throw fail("too_many_images", "\(at): a card holds at most \(Card.maxImages) images.")
            }
            for (i, entry) in images.enumerated() where !DeckInput.isImage(entry) {
                throw fail("invalid_image", "\(at): image \(i + 1) must be a /path on this server or an https URL.")
            }
            if !single.isEmpty && single != images.first {
                throw fail("image_conflict", "\(at): image must be the first of images (or leave image out).")
            }
            return images
        }
    }

    public var slug: String
    public var title: String
    public var description: String?
    public var profile: String?
    public var allowButtons: Bool?
    public var labels: Labels?
    public var cards: [CardInput]

    public init(
        slug: String, title: String, description: String? = nil, profile: String? = nil, allowButtons: Bool? = nil,
        labels: Labels? = nil, cards: [CardInput]
    ) {
        self.slug = slug
        self.title = title
        self.description = description
        self.profile = profile
        self.allowButtons = allowButtons
        self.labels = labels
        self.cards = cards
    }

    /// Most cards in one deck.
    public static let maxCards = 100_000

    /// The deck row and card rows (without ids) if every rule holds.
    /// - Throws: `ApiError.invalidField` whose code names the rule (`invalid_slug`, `invalid_title`,
    ///   `unknown_profile`, `invalid_label`, `no_cards`, `too_many_cards`, `invalid_card_title`,
    ///   `invalid_card_text`, `invalid_image`, `too_many_images`, `image_conflict`, `invalid_link`,
    ///   `invalid_accent`), with the card index.
    public func validated(now: Double) throws(ApiError) -> (NewDeck, [NewCard]) {
        func fail(_ code: String, _ message: String) -> ApiError { .invalidField(code: code, message: message) }
        if !Self.isValidSlug(slug) { throw fail("invalid_slug", "slug must be 1–64 characters of a–z, 0–9 and '-'.") }
        if !Self.isText(title, max: Deck.maxTitleLength, required: true) {
            throw fail("invalid_title", "title must be 1–\(Deck.maxTitleLength) characters.")
        }
        let description = description.map(Self.lines)
        if !Self.isText(description ?? "", max: Deck.maxDescriptionLength, required: false) {
            throw fail("invalid_description", "description must be at most 2,000 characters.")
        }
        let profileName = profile ?? Deck.defaultProfile
        if SwipeProfile.named(profileName) == nil {
            throw fail(
                "unknown_profile", "profile must be one of: \(SwipeProfile.all.map(\.name).joined(separator: ", ")).")
        }
        for l in [labels?.left, labels?.right, labels?.up, labels?.down] {
            if let l, !Self.isText(l, max: Deck.maxLabelLength, required: true) {
                throw fail("invalid_label", "labels must be 1–\(Deck.maxLabelLength) characters.")
            }
        }
        if cards.isEmpty { throw fail("no_cards", "a deck needs at least one card.") }
        if cards.count > Self.maxCards { throw fail("too_many_cards", "a deck holds at most \(Self.maxCards) cards.") }
        var deck = NewDeck(
            slug: slug, title: title, description: description ?? "", profile: profileName,
            allowButtons: allowButtons ?? true,
            leftLabel: labels?.left ?? Deck.defaultLabels.left, rightLabel: labels?.right ?? Deck.defaultLabels.right,
            upLabel: labels?.up ?? Deck.defaultLabels.up, downLabel: labels?.down ?? Deck.defaultLabels.down,
            createdAt: now)
        deck.accessSecret = Secret.token()
        var rows: [NewCard] = []
        rows.reserveCapacity(cards.count)
        for (i, c) in cards.enumerated() {
            rows.append(try c.validated(position: i, label: "card \(i + 1)"))
        }
        return (deck, rows)
    }

    public static func isValidSlug(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }

    /// `s` with every line break as one line feed: browsers send a textarea's line breaks as CR LF
    /// (and old Macs' files as CR), which would otherwise count as control characters.
    public static func lines(_ s: String) -> String {
        s.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    /// Non-empty when required, at most `max` characters, and no control characters but newline/tab.
    static func isText(_ s: String, max: Int, required: Bool) -> Bool {
        if required && s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return false }
        if s.count > max { return false }
        return !s.unicodeScalars.contains { $0.value < 32 && $0 != "\n" && $0 != "\t" || $0.value == 127 }
    }

    /// A local path (`LocalPath`: no `//`, `/\`, control characters or whitespace, even
    /// percent-encoded; at most 500 characters) or an `https://` URL of at most 2,000.
    static func isImage(_ s: String) -> Bool {
        if s.hasPrefix("/") { return LocalPath.isSafe(s, maxLength: 500) }
        return s.hasPrefix("https://") && s.count <= 2000 && URL(string: s) != nil
    }

    /// A local path (`LocalPath`, at most 500 characters) or an `http(s)://` URL of at most 2,000.
    static func isLink(_ s: String) -> Bool {
        if s.hasPrefix("/") { return LocalPath.isSafe(s, maxLength: 500) }
        return (s.hasPrefix("https://") || s.hasPrefix("http://")) && s.count <= 2000 && URL(string: s) != nil
    }

    static func isHexColor(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 7 && u[0] == 35
            && u[1...].allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 70) || ($0 >= 97 && $0 <= 102) }
    }
}
