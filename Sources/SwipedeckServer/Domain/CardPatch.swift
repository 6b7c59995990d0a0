/// A card's new content (`POST/PATCH …/cards`, the owner's card form). For a new card every
/// absent field takes its default; for an edit it keeps the current value.
public struct CardPatch: Sendable, Codable {
    public var title: String?
    public var subtitle: String?
    public var body: String?
    /// One image: the card's images become this one (an empty string: none).
    public var image: String?
    /// The card's images, the cover first; replaces the whole list.
    public var images: [String]?
    public var link: String?
    public var accent: String?
    /// The known answer, a direction's wire name; "" makes the card an ordinary one again.
    public var answer: String?

    public init(
        title: String? = nil, subtitle: String? = nil, body: String? = nil, image: String? = nil,
        images: [String]? = nil,
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

    /// `card` with the patch applied, checked by the same rules as an imported card.
    /// - Throws: `ApiError.invalidField` (`invalid_card_title`, `invalid_card_text`, `invalid_image`,
    ///   `too_many_images`, `image_conflict`, `invalid_link`, `invalid_accent`, `invalid_answer`).
    public func applied(to card: Card) throws(ApiError) -> Card {
        Card(id: card.id, try applied(to: card.content))
    }

    /// `card`'s content with the patch applied, by the rules of `applied(to:)` above.
    public func applied(to card: NewCard) throws(ApiError) -> NewCard {
        let input = DeckInput.CardInput(
            title: title ?? card.title, subtitle: subtitle ?? card.subtitle, body: body ?? card.body,
            image: image, images: image == nil && images == nil ? card.images : images,
            link: link ?? card.link, accent: accent ?? card.accent,
            answer: answer ?? card.answer?.rawValue)
        var checked = try input.validated(position: card.position, label: "card")
        checked.deckId = card.deckId
        checked.revision = card.revision
        checked.archivedAt = card.archivedAt
        return checked
    }
}
