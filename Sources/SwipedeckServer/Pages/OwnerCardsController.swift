import Foundation
import Hummingbird

/// The owner's card forms: add, edit (a new revision), archive or restore, move up or down
/// (the keyboard and no-JavaScript alternative to dragging), and import from CSV or JSON with a
/// preview of every row before one all-or-nothing transaction.
struct OwnerCardsController: Sendable {
    let database: any SwipeStore
    let catalog: Catalog
    let access: DeckAccess
    let renderer: PageRenderer
    let clock: @Sendable () -> Double

    func register(on router: Router<AppRequestContext>) {
        let cards = router.group("/owner/decks/:deck/cards")
        cards.post(use: addCard)
        cards.get("/:card", use: editPage)
        cards.post("/:card", use: saveCard)
        cards.post("/:card/archive", use: archive)
        cards.post("/:card/restore", use: restore)
        cards.post("/:card/up", use: moveUp)
        cards.post("/:card/down", use: moveDown)
        router.post("/owner/decks/:deck/import", use: importPreview)
        router.post("/owner/decks/:deck/import/confirm", use: importConfirm)
    }

    /// A card's fields as the form shows them.
    struct CardFields {
        let title: String
        let subtitle: String
        let body: String
        /// The card's images, one per line, the cover first.
        let images: String
        let link: String
        let accent: String
    }

    struct CardFormView {
        let kind = "owner"
        let pageTitle: String
        let owner: String
        let csrf: String
        let slug: String
        let deckTitle: String
        let action: String
        let isNew: Bool
        let revision: Int
        let card: CardFields
        let error: String?
    }

    func cardForm(_ deck: Deck, _ context: AppRequestContext, card: Card?, form: FormFields?, error: String?,
                  status: HTTPResponse.Status = .ok) -> Response {
        let view = CardFormView(
            pageTitle: card == nil ? "New card" : "Edit card", owner: OwnerDashboardController.signedIn(context)?.name ?? "",
            csrf: OwnerForms.csrfToken(context), slug: deck.slug, deckTitle: deck.title,
            action: card.map { "/owner/decks/\(deck.slug)/cards/\($0.id ?? 0)" } ?? "/owner/decks/\(deck.slug)/cards",
            isNew: card == nil, revision: card?.revision ?? 1,
            card: CardFields(
                title: form?["title"] ?? card?.title ?? "", subtitle: form?["subtitle"] ?? card?.subtitle ?? "",
                body: form?["body"] ?? card?.body ?? "", images: form?["images"] ?? card?.images.joined(separator: "\n") ?? "", link: form?["link"] ?? card?.link ?? "",
                accent: form?["accent"] ?? card?.accent ?? "#6C5CE7"),
            error: error)
        return renderer.page("owner-card", view, status: status)
    }

    /// The form as a card patch; an empty accent means the default colour; `images` holds one
    /// image per line (blank lines and spaces around each are ignored).
    static func patch(_ form: FormFields) -> CardPatch {
        let accent = form["accent"].flatMap { $0.isEmpty ? nil : $0 }
        let images = form["images"].map { text in
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        return CardPatch(
            title: form["title"], subtitle: form["subtitle"], body: form["body"], images: images, link: form["link"], accent: accent)
    }

    @Sendable func addCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context)
        do {
            let blank = Card(deckId: deck.id ?? 0, position: 0, title: "")
            let card = try Self.patch(form).applied(to: blank)
            _ = try await database.addCard(card, deckId: deck.id ?? 0, by: context.owner?.ownerId, now: clock())
        } catch let error as ApiError {
            return cardForm(deck, context, card: nil, form: form, error: error.message, status: error.status)
        }
        return .redirect(to: "/owner/decks/\(deck.slug)#cards", type: .normal)
    }

    /// The deck the request manages and its card `:card` (404 for another deck's card).
    func managedCard(_ context: AppRequestContext) async throws -> (Deck, Card) {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        guard let id = Int64(try context.parameters.require("card")), let card = try await database.card(id: id), card.deckId == deck.id else {
            throw ApiError.notFound("card")
        }
        return (deck, card)
    }

    @Sendable func editPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let (deck, card) = try await managedCard(context)
        return cardForm(deck, context, card: card, form: nil, error: nil)
    }

    @Sendable func saveCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let (deck, card) = try await managedCard(context)
        let form = try await OwnerForms.fields(request, context)
        do {
            _ = try await database.editCard(try Self.patch(form).applied(to: card), by: context.owner?.ownerId, now: clock())
        } catch let error as ApiError {
            return cardForm(deck, context, card: card, form: form, error: error.message, status: error.status)
        }
        return .redirect(to: "/owner/decks/\(deck.slug)#card-\(card.id ?? 0)", type: .normal)
    }

    @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await change(request, context) { deck, card in
            _ = try await database.setArchived(cardId: card.id ?? 0, true, by: context.owner?.ownerId, now: clock())
        }
    }

    @Sendable func restore(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await change(request, context) { deck, card in
            _ = try await database.setArchived(cardId: card.id ?? 0, false, by: context.owner?.ownerId, now: clock())
        }
    }

    @Sendable func moveUp(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await move(by: -1, request, context)
    }

    @Sendable func moveDown(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await move(by: 1, request, context)
    }

    func move(by step: Int, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        try await change(request, context) { deck, card in
            let order = try await database.allCards(deckId: deck.id ?? 0).map(\.id)
            guard let index = order.firstIndex(of: card.id) else { return }
            try await database.moveCard(cardId: card.id ?? 0, to: max(0, index + step), by: context.owner?.ownerId, now: clock())
        }
    }

    /// Checks the session and form token, applies `body`, and goes back to the card in the editor.
    func change(_ request: Request, _ context: AppRequestContext, _ body: (Deck, Card) async throws -> Void) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let (deck, card) = try await managedCard(context)
        _ = try await OwnerForms.fields(request, context)
        try await body(deck, card)
        return .redirect(to: "/owner/decks/\(deck.slug)#card-\(card.id ?? 0)", type: .normal)
    }

    struct ImportView {
        let kind = "owner"
        let pageTitle: String
        let owner: String
        let csrf: String
        let slug: String
        let deckTitle: String
        let text: String
        let rows: [CardImport.Row]
        let count: Int
        let errors: Int
        let problem: String?
        let canConfirm: Bool
    }

    /// Largest pasted or uploaded import, bytes.
    static let importLimit = 2 * 1024 * 1024

    func importPage(_ deck: Deck, _ context: AppRequestContext, text: String, status: HTTPResponse.Status) -> Response {
        let parsed = CardImport(text: text)
        let view = ImportView(
            pageTitle: "Import cards · \(deck.title)", owner: OwnerDashboardController.signedIn(context)?.name ?? "",
            csrf: OwnerForms.csrfToken(context), slug: deck.slug, deckTitle: deck.title, text: text, rows: parsed.rows,
            count: parsed.rows.count, errors: parsed.errorCount, problem: parsed.problem,
            canConfirm: parsed.problem == nil && parsed.errorCount == 0 && !parsed.cards.isEmpty)
        return renderer.page("owner-import", view, status: status)
    }

    @Sendable func importPreview(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context, limit: Self.importLimit)
        return importPage(deck, context, text: form["text"] ?? "", status: .ok)
    }

    @Sendable func importConfirm(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard OwnerDashboardController.signedIn(context) != nil else { return OwnerDashboardController.signInRedirect(request) }
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context, limit: Self.importLimit)
        let text = form["text"] ?? ""
        let parsed = CardImport(text: text)
        // Nothing is written while any row has an error: the owner fixes the file and previews again.
        guard parsed.problem == nil, parsed.errorCount == 0, !parsed.cards.isEmpty else {
            return importPage(deck, context, text: text, status: .unprocessableContent)
        }
        _ = try await database.addCards(parsed.cards, deckId: deck.id ?? 0, by: context.owner?.ownerId, now: clock())
        return .redirect(to: "/owner/decks/\(deck.slug)?imported=\(parsed.cards.count)#cards", type: .normal)
    }
}
