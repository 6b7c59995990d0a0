import Hummingbird
import Logging

/// Who may do what with a deck: swipers may swipe an open deck; its owner (or the admin token)
/// manages it and reads its results; anybody reads results the owner made public.
struct DeckAccess: Sendable {
    let catalog: Catalog
    let store: any Store

    /// The deck as stored now. Ownership and privacy are decided on this row, not on the
    /// catalog's copy: another process (`swipedeck owner add` adopting decks) may have changed
    /// it. A catalog copy of another revision is dropped, so swipes see the change too.
    func current(_ slug: String) async throws -> Deck {
        guard let deck = try await store.deck(slug: slug) else { throw ApiError.notFound("deck") }
        // A catalog that cannot load the deck holds no copy to drop: dropping it anyway is harmless.
        if (try? await catalog.deck(slug))?.revision != deck.revision { catalog.invalidate(slug) }
        return deck
    }

    /// The deck `slug`, which the request's owner identity manages.
    /// - Throws: 404 unknown deck, 401 nobody signed in, 403 `not_your_deck`.
    func managed(_ slug: String, _ context: AppRequestContext) async throws -> Deck {
        let deck = try await current(slug)
        guard let owner = context.owner else { throw ApiError.unauthorized }
        guard owner.manages(deck) else { throw ApiError.notYourDeck }
        return deck
    }

    /// The deck `slug`, whose results the request may read.
    /// - Throws: 404 unknown deck, 401 private results without sign-in, 403 another owner's.
    func results(_ slug: String, _ context: AppRequestContext) async throws -> Deck {
        let deck = try await current(slug)
        if deck.resultsPublic { return deck }
        guard let owner = context.owner else { throw ApiError.unauthorized }
        guard owner.manages(deck) else { throw ApiError.notYourDeck }
        return deck
    }

    /// Whether a viewer who opened a results stream may still read the deck's results now: the
    /// deck as stored now is public, or the viewer still holds their credential and manages it.
    /// The admin token stays valid for the server's life; a session must still be live
    /// (`sessionHash`: not signed out, not expired); an API token (`bearerHash`, its SHA-256) not
    /// revoked. A failure to read is logged and answers false: a stream that cannot be checked
    /// closes (the viewer's page reconnects, and is checked afresh).
    func stillReadsResults(
        slug: String, identity: OwnerIdentity?, bearerHash: String?, now: Double, logger: Logger
    ) async -> Bool {
        do {
            guard let deck = try await store.deck(slug: slug) else { return false }
            if deck.resultsPublic { return true }
            switch identity {
            case nil: return false
            case .admin?: return true
            case .owner(let id, _, let sessionHash)?:
                let holder: Owner?
                if let sessionHash {
                    holder = try await store.sessionOwner(tokenHash: sessionHash, now: now)
                } else if let bearerHash {
                    holder = try await store.tokenOwner(tokenHash: bearerHash)
                } else {
                    return false
                }
                return holder?.id == id && deck.ownerId == id
            }
        } catch {
            logger.error(
                "live results stream closed: access not checked", metadata: ["deck": "\(slug)", "error": "\(error)"])
            return false
        }
    }

    /// Whether the request may see the deck's results (for links on the swiper's pages).
    func canReadResults(_ deck: Deck, _ context: AppRequestContext) -> Bool {
        deck.resultsPublic || (context.owner?.manages(deck) ?? false)
    }
}
