import Foundation
import Hummingbird

/// The owner's deck pages: a new deck from a form, and a deck's editor (settings, cards, CSV or
/// JSON import). Card forms are `OwnerCardsController`'s. Every page needs a session; another
/// owner's deck is refused (403), never shown.
struct OwnerDecksController: Sendable {
    let store: any Store
    let access: DeckAccess
    let renderer: PageRenderer
    let clock: @Sendable () -> Double

    /// Registers the pages on `pages`, the owner pages' group (`SessionOwnerMiddleware`: signed-in owners only).
    func register(on pages: RouterGroup<AppRequestContext>) {
        pages.get("/owner/decks/new", use: newDeck)
        pages.post("/owner/decks", use: createDeck)
        pages.get("/owner/decks/:deck", use: editor)
        pages.post("/owner/decks/:deck/settings", use: saveSettings)
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
        let owner = try context.signedInOwner()
        var form = DeckFormView(deck: NewDeck(slug: "", title: "", createdAt: 0))
        form.slugEditable = true
        return try renderer.page(
            "owner-deck-new",
            NewDeckView(owner: owner.name, csrf: OwnerForms.csrfToken(context), form: form, error: nil))
    }

    @Sendable func createDeck(_ request: Request, context: AppRequestContext) async throws -> Response {
        let owner = try context.signedInOwner()
        let form = try await OwnerForms.fields(request, context)
        func again(_ problem: DeckFormProblem, _ status: HTTPResponse.Status) throws -> Response {
            var entered = DeckFormView(form: form).showing(problem)
            entered.slugEditable = true
            let top =
                problem.field == .other ? problem.sentence : "The deck was not created: see the field marked below."
            return try renderer.page(
                "owner-deck-new",
                NewDeckView(owner: owner.name, csrf: OwnerForms.csrfToken(context), form: entered, error: top),
                status: status)
        }
        let slug = (form["slug"] ?? "").trimmingCharacters(in: .whitespaces)
        guard DeckInput.isValidSlug(slug) else {
            return try again(DeckFormProblem(.invalidField(code: "invalid_slug", message: ""), slug: slug), .badRequest)
        }
        let now = clock()
        var deck = NewDeck(slug: slug, title: form["title"] ?? "", createdAt: now)
        deck.ownerId = owner.id
        deck.accessSecret = Secret.token()
        do {
            deck = try DeckFormView.patch(form).applied(to: deck)
            deck.title = deck.title.trimmingCharacters(in: .whitespaces)
            _ = try await store.importDeck(deck, cards: [])
        } catch {
            guard let error = ApiError.of(error) else { throw error }
            return try again(DeckFormProblem(error, slug: slug), error.status)
        }
        return .redirect(to: "/owner/decks/\(slug)", type: .normal)
    }

    struct CardRow {
        let id: Int64
        /// 1-based among the active cards (the order swipers meet them in); 0 for archived ones.
        let number: Int
        /// The card's index in deck order, archived cards included (what `moveCard` counts).
        let position: Int
        let title: String
        let subtitle: String
        let image: String
        let hasImage: Bool
        let revision: Int
        let archived: Bool
        let first: Bool
        let last: Bool
        /// The confirmation of the change just made to this card (added, edited, archived,
        /// restored), shown in its row: the row the page scrolls to.
        let note: String?
        /// Whether `note` is set (Mustache reads stored properties only).
        let changed: Bool
        /// The name of the card's known answer (its direction, as the deck labels it), nil for none:
        /// the row's badge.
        let knownAnswer: String?
    }

    /// What the editor confirms at its top after a redirect, read from the query
    /// (`added`, `edited`, `archived`, `restored` name a card id; `imported` a count, `first`
    /// the first imported card).
    enum Confirmation: Equatable, Sendable {
        case added(Int64)
        case edited(Int64)
        case archived(Int64)
        case restored(Int64)
        case imported(Int, first: Int64)

        init?(query: [String: String]) {
            if let n = query["imported"].flatMap(Int.init) {
                self = .imported(n, first: query["first"].flatMap(Int64.init) ?? 0)
                return
            }
            for (key, make) in [
                ("added", Self.added), ("edited", Self.edited), ("archived", Self.archived),
                ("restored", Self.restored),
            ] {
                if let id = query[key].flatMap(Int64.init) {
                    self = make(id)
                    return
                }
            }
            return nil
        }

        /// The card it names (for an import, the first imported).
        var card: Int64 {
            switch self {
            case .added(let id), .edited(let id), .archived(let id), .restored(let id), .imported(_, let id): return id
            }
        }

        /// The sentence shown, about the card titled `title` (nil when that card is gone).
        func sentence(title: String?) -> String? {
            switch self {
            case .imported(let n, _):
                return n == 1
                    ? "Imported 1 card: this one, at the end of the list."
                    : "Imported \(n) cards: this one and the ones after it."
            case .added: return title.map { "Added “\($0)” to the deck." }
            case .edited: return title.map { "Saved “\($0)” as a new revision." }
            case .archived:
                return title.map { "Archived “\($0)”: swipers no longer see it. It is listed under Archived cards." }
            case .restored: return title.map { "Restored “\($0)”: swipers see it again." }
            }
        }
    }

    struct EditorView {
        let kind = "owner"
        let pageTitle: String
        let owner: String
        let csrf: String
        let slug: String
        let deckTitle: String
        let form: DeckFormView
        /// The active cards in order, then the archived ones (listed apart, folded away).
        let cards: [CardRow]
        let archivedCards: [CardRow]
        let hasCards: Bool
        let activeCards: Int
        let archivedCount: Int
        let hasArchived: Bool
        /// The archived section opens by itself when the confirmed change concerns one of its cards.
        let archivedOpen: Bool
        /// The deck order of every card id, comma-separated (the drag-to-reorder script mirrors `moveCard` on it).
        let order: String
        let error: String?
        let saved: Bool
        /// A confirmation whose card is gone (shown at the top instead of in its row).
        let confirmation: String?
        /// The empty "Add a card" form (its known-answer choice set by `editorPage`, from the deck).
        var newCard = OwnerCardsController.CardFields(
            title: "", subtitle: "", body: "", images: "", link: "", accent: Card.defaultAccent)
    }

    @Sendable func editor(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let query = request.uri.queryParameters
        let saved = query["saved"] != nil
        var values: [String: String] = [:]
        for key in ["imported", "first", "added", "edited", "archived", "restored"] {
            if let v = query[Substring(key)] { values[key] = String(v) }
        }
        return try await editorPage(
            deck, context, form: DeckFormView(deck: deck.content), error: nil, saved: saved,
            confirmation: Confirmation(query: values))
    }

    func editorPage(
        _ deck: Deck, _ context: AppRequestContext, form: DeckFormView, error: String?, saved: Bool = false,
        confirmation: Confirmation? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let cards = try await store.allCards(deckId: deck.id)
        let active = cards.enumerated().filter { $0.element.archivedAt == nil }
        let names = DirectionNames(deck: deck)
        func row(_ position: Int, _ c: Card, number: Int, count: Int) -> CardRow {
            CardRow(
                id: c.id, number: number, position: position, title: c.title, subtitle: c.subtitle, image: c.image,
                hasImage: !c.image.isEmpty, revision: c.revision, archived: c.archivedAt != nil,
                first: number == 1, last: number == count,
                note: confirmation?.card == c.id ? confirmation?.sentence(title: c.title) : nil,
                changed: confirmation?.card == c.id,
                knownAnswer: c.answer.map { names.name($0.rawValue) })
        }
        let rows = active.enumerated().map { n, pair in
            row(pair.offset, pair.element, number: n + 1, count: active.count)
        }
        let archived = cards.enumerated().filter { $0.element.archivedAt != nil }.map {
            row($0.offset, $0.element, number: 0, count: 0)
        }
        var view = EditorView(
            pageTitle: "Edit · \(deck.title)", owner: context.sessionOwner?.name ?? "",
            csrf: OwnerForms.csrfToken(context),
            slug: deck.slug, deckTitle: deck.title, form: form, cards: rows, archivedCards: archived,
            hasCards: !rows.isEmpty,
            activeCards: rows.count, archivedCount: archived.count, hasArchived: !archived.isEmpty,
            archivedOpen: archived.contains(where: \.changed),
            order: cards.map { String($0.id) }.joined(separator: ","),
            error: error, saved: saved,
            confirmation: confirmation.flatMap { c in cards.contains { $0.id == c.card } ? nil : c.sentence(title: nil)
            })
        view.newCard.answerOptions = OwnerCardsController.CardFields.answerOptions(deck, answer: "")
        return try renderer.page("owner-deck", view, status: status)
    }

    @Sendable func saveSettings(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context)
        do {
            _ = try await store.updateDeck(
                id: deck.id, try DeckFormView.patch(form), by: context.owner?.ownerId, detail: Self.describe,
                now: clock())
        } catch {
            guard let error = ApiError.of(error) else { throw error }
            let problem = DeckFormProblem(error, slug: deck.slug)
            let top =
                problem.field == .other ? problem.sentence : "The settings were not saved: see the field marked below."
            return try await editorPage(
                deck, context, form: DeckFormView(form: form).showing(problem), error: top, status: error.status)
        }
        return .redirect(to: "/owner/decks/\(deck.slug)?saved=1", type: .normal)
    }

    /// The settings as stored in the deck's event log.
    static func describe(_ d: Deck) -> String {
        let quota = d.quota.map(String.init) ?? "null"
        let joinLimit = d.joinLimit.map(String.init) ?? "null"
        return
            "{\"open\":\(d.isOpen),\"resultsPublic\":\(d.resultsPublic),\"quota\":\(quota),\"order\":\"\(d.cardOrder.rawValue)\",\"countedInputs\":\"\(CountedInput.stored(d.countedInputs))\","
            + "\"access\":\"\(d.access.rawValue)\",\"joinLimit\":\(joinLimit),\"listed\":\(d.listed),\"rooms\":\(d.rooms)}"
    }
}
