/// The card detail page's template data (`detail.mustache`).
struct DetailView {
    /// One photo of the gallery.
    struct Photo {
        /// The image URL as served (content-hashed for files in `Public/`).
        let url: String
        /// 1-based, as the position indicator and the photo's label count.
        let number: Int
        /// Only the first photo loads with the page; the others when paged towards.
        let lazy: Bool
    }

    /// A paragraph of the card's body.
    struct Paragraph {
        let text: String
    }

    /// The card's fields the page shows.
    struct CardFields {
        let id: String
        let title: String
        let subtitle: String
        let accent: String
    }

    let kind = "detail"
    let pageTitle: String
    let slug: String
    let showResults: Bool
    let card: CardFields
    let paragraphs: [Paragraph]
    let link: String
    let hasLink: Bool
    /// 1-based position of the card in its deck.
    let position: Int
    let deckTitle: String
    let cardCount: Int
    let gallery: [Photo]
    let hasImage: Bool
    /// More than one photo: the page shows the position indicator and the paging controls.
    let hasGallery: Bool
    let imageCount: Int

    /// - Parameter url: the URL a browser fetches for an image path (content-hashed for assets).
    init(card: Card, deck: Deck, cardCount: Int, showResults: Bool, url: (String) -> String) {
        pageTitle = card.title
        slug = deck.slug
        self.showResults = showResults
        self.card = CardFields(id: String(card.id), title: card.title, subtitle: card.subtitle, accent: card.accent)
        paragraphs = card.body.split(separator: "\n", omittingEmptySubsequences: true).map {
            Paragraph(text: String($0))
        }
        link = card.link
        hasLink = !card.link.isEmpty
        position = card.position + 1
        deckTitle = deck.title
        self.cardCount = cardCount
        gallery = card.images.enumerated().map { Photo(url: url($1), number: $0 + 1, lazy: $0 > 0) }
        hasImage = !gallery.isEmpty
        hasGallery = gallery.count > 1
        imageCount = gallery.count
    }
}
