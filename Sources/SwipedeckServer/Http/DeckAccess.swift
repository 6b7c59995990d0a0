import Hummingbird

/// Who may do what with a deck: swipers may swipe an open deck; its owner (or the admin token)
/// manages it and reads its results; anybody reads results the owner made public.
struct DeckAccess: Sendable {
    let catalog: Catalog

    /// The deck `slug`, which the request's owner identity manages.
    /// - Throws: 404 unknown deck, 401 nobody signed in, 403 `not_your_deck`.
    func managed(_ slug: String, _ context: AppRequestContext) throws -> Deck {
        let deck = try catalog.deck(slug)
        guard let owner = context.owner else { throw ApiError.unauthorized }
        guard owner.manages(deck) else { throw ApiError.notYourDeck }
        return deck
    }

    /// The deck `slug`, whose results the request may read.
    /// - Throws: 404 unknown deck, 401 private results without sign-in, 403 another owner's.
    func results(_ slug: String, _ context: AppRequestContext) throws -> Deck {
        let deck = try catalog.deck(slug)
        if deck.resultsPublic { return deck }
        return try managed(slug, context)
    }

    /// Whether the request may see the deck's results (for links on the swiper's pages).
    func canReadResults(_ deck: Deck, _ context: AppRequestContext) -> Bool {
        deck.resultsPublic || (context.owner?.manages(deck) ?? false)
    }
}
