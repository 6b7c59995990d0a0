import Foundation
import Hummingbird

/// The owner's deck pages: a new deck from a form, and a deck's editor (settings, cards, CSV or
/// JSON import). Card forms are `OwnerCardsController`'s. Every page needs a session; another
/// owner's deck is refused (403), never shown.
struct OwnerDecksController: Sendable {
    let database: any SwipeStore
    let catalog: Catalog
    let access: DeckAccess
    let renderer: PageRenderer
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        router.get("/owner/decks/new", use: newDeck)
        router.post("/owner/decks", use: createDeck)
        router.get("/owner/decks/:deck", use: editor)
        router.post("/owner/decks/:deck/settings", use: saveSettings)
    }

    struct NewDeckView {
        let kind = "owner"
        let pageTitle = "New deck"
        let owner: String
        let csrf: String
        let form: DeckFormView
        let error: String?
    }

    @Sendable func newDeck(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let owner = OwnerDashboardController.signedIn(context) else { return OwnerDashboardController.signInRedirect(request) }
        var form = DeckFormView(deck: Deck(slug: "", title: "", createdAt: 0))
        form.slugEditable = true
        return renderer.page("owner-deck-new", NewDeckView(owner: owner.name, csrf: OwnerForms.csrfToken(context), form: form, error: nil))
    }

    @Sendable func createDeck(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let owner = OwnerDashboardController.signedIn(context) else { return OwnerDashboardController.signInRedirect(request) }
        let form = try await OwnerForms.fields(request, context)
        func again(_ message: String, _ status: HTTPResponse.Status) -> Response {
            var entered = DeckFormView(form: form)
            entered.slugEditable = true
            return renderer.page(
                "owner-deck-new", NewDeckView(owner: owner.name, csrf: OwnerForms.csrfToken(context), form: entered, error: message), status: status)
        }
        let slug = (form["slug"] ?? "").trimmingCharacters(in: .whitespaces)
        guard DeckInput.isValidSlug(slug) else {
            return again("The slug (the deck's address, /d/slug) must be 1–64 lower-case letters, digits and '-'.", .badRequest)
        }
        let now = clock()
        var deck = Deck(slug: slug, title: form["title"] ?? "", createdAt: now)
        deck.ownerId = owner.id
        deck.accessSecret = Secret.token()
        do {
            deck = try DeckFormView.patch(form).applied(to: deck)
            deck.title = deck.title.trimmingCharacters(in: .whitespaces)
            _ = try await database.importDeck(deck, cards: [])
        } catch let error as ApiError {
            return again(error == .slugTaken ? "A deck with the slug “\(slug)” exists; pick another." : error.message, error.status)
        }
        return .redirect(to: "/owner/decks/\(slug)", type: .normal)
    }

    struct CardRow {
        let id: Int64
        let number: Int
        let title: String
        let subtitle: String
        let image: String
        let hasImage: Bool
        let revision: Int
        let archived: Bool
        let first: Bool
        let last: Bool
    }

    struct EditorView {
        let kind = "owner"
        let pageTitle: String
        let owner: String
        let csrf: String
        let slug: String
        let deckTitle: String
        let form: DeckFormView
        let cards: [CardRow]
        let hasCards: Bool
        let activeCards: Int
        let error: String?
        let saved: Bool
        /// The empty "Add a card" form.
        let newCard = OwnerCardsController.CardFields(title: "", subtitle: "", body: "", images: "", link: "", accent: "#6C5CE7")
    }

    @Sendable func editor(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let saved = request.uri.queryParameters["saved"] != nil
        return try await editorPage(deck, context, form: DeckFormView(deck: deck), error: nil, saved: saved)
    }

    func editorPage(_ deck: Deck, _ context: AppRequestContext, form: DeckFormView, error: String?, saved: Bool = false,
                    status: HTTPResponse.Status = .ok) async throws -> Response {
        let cards = try await database.allCards(deckId: deck.id ?? 0)
        let rows = cards.enumerated().map { i, c in
            CardRow(id: c.id ?? 0, number: i + 1, title: c.title, subtitle: c.subtitle, image: c.image, hasImage: !c.image.isEmpty,
                    revision: c.revision, archived: c.archivedAt != nil, first: i == 0, last: i == cards.count - 1)
        }
        let view = EditorView(
            pageTitle: "Edit · \(deck.title)", owner: OwnerDashboardController.signedIn(context)?.name ?? "", csrf: OwnerForms.csrfToken(context),
            slug: deck.slug, deckTitle: deck.title, form: form, cards: rows, hasCards: !rows.isEmpty,
            activeCards: cards.filter { $0.archivedAt == nil }.count, error: error, saved: saved)
        return renderer.page("owner-deck", view, status: status)
    }

    @Sendable func saveSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context)
        do {
            let changed = try DeckFormView.patch(form).applied(to: deck)
            _ = try await database.updateDeck(changed, by: context.owner?.ownerId, detail: Self.describe(changed), now: clock())
        } catch let error as ApiError {
            return try await editorPage(deck, context, form: DeckFormView(form: form), error: error.message, status: error.status)
        }
        return .redirect(to: "/owner/decks/\(deck.slug)?saved=1", type: .normal)
    }

    /// The settings as stored in the deck's event log.
    static func describe(_ d: Deck) -> String {
        let quota = d.quota.map(String.init) ?? "null"
        let joinLimit = d.joinLimit.map(String.init) ?? "null"
        return "{\"open\":\(d.isOpen),\"resultsPublic\":\(d.resultsPublic),\"quota\":\(quota),\"order\":\"\(d.cardOrder)\",\"countedInputs\":\"\(d.countedInputs)\","
            + "\"access\":\"\(d.access.rawValue)\",\"joinLimit\":\(joinLimit),\"listed\":\(d.listed)}"
    }
}
