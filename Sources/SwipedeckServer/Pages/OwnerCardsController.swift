import Foundation
import Hummingbird

/// The owner's card forms: add, edit (a new revision), archive or restore, move up or down
/// (the keyboard and no-JavaScript alternative to dragging), and import from CSV or JSON with a
/// preview of every row before one all-or-nothing transaction.
struct OwnerCardsController: Sendable {
    let store: any Store
    let access: DeckAccess
    let renderer: PageRenderer
    let clock: @Sendable () -> Double

    /// Registers the pages on `pages`, the owner pages' group (`SessionOwnerMiddleware`: signed-in owners only).
    func register(on pages: RouterGroup<AppRequestContext>) {
        let cards = pages.group("/owner/decks/:deck/cards")
        cards.post(use: addCard)
        cards.get("/:card", use: editPage)
        cards.post("/:card", use: saveCard)
        cards.post("/:card/archive", use: archive)
        cards.post("/:card/restore", use: restore)
        cards.post("/:card/up", use: moveUp)
        cards.post("/:card/down", use: moveDown)
        pages.post("/owner/decks/:deck/import", use: importPreview)
        pages.post("/owner/decks/:deck/import/confirm", use: importConfirm)
    }

    /// A card's fields as the form shows them, with the refusal of the last save, if any, next
    /// to the one field it concerns (stored properties: Mustache reads no computed ones).
    struct CardFields {
        let title: String
        let subtitle: String
        let body: String
        /// The card's images, one per line, the cover first.
        let images: String
        /// The same images as a list (the editor's thumbnails).
        let imageList: [String]
        let link: String
        let accent: String
        let titleError: String?
        let subtitleError: String?
        let bodyError: String?
        let imagesError: String?
        let linkError: String?
        let accentError: String?
        /// The known-answer choice (`NewCard.answer`): none, or one of the deck's directions;
        /// empty where the form does not offer it.
        var answerOptions: [AnswerOption] = [] {
            didSet { offersAnswer = !answerOptions.isEmpty }
        }
        /// Whether the form offers the choice (stored: Mustache reads stored properties only).
        private(set) var offersAnswer = false
        var answerError: String?

        struct AnswerOption {
            /// A `Decision`'s wire name, "" for none.
            let value: String
            let words: String
            let selected: Bool
        }

        /// The choices for a deck judged by `profile` and labelled by `names`, `answer` selected.
        static func answerOptions(_ deck: Deck, answer: String) -> [AnswerOption] {
            let names = DirectionNames(deck: deck)
            let none = AnswerOption(value: "", words: "No known answer", selected: answer.isEmpty)
            return [none]
                + deck.swipeProfile.directions.map {
                    AnswerOption(
                        value: $0.rawValue, words: "\(names.name($0.rawValue)) (\($0.rawValue))",
                        selected: $0.rawValue == answer)
                }
        }

        init(
            title: String, subtitle: String, body: String, images: String, link: String, accent: String,
            problem: CardFormProblem? = nil
        ) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
            self.images = images
            self.imageList = images.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            self.link = link
            self.accent = accent
            titleError = problem?.sentence(for: .title)
            subtitleError = problem?.sentence(for: .subtitle)
            bodyError = problem?.sentence(for: .body)
            imagesError = problem?.sentence(for: .images)
            linkError = problem?.sentence(for: .link)
            accentError = problem?.sentence(for: .accent)
            answerError = problem?.sentence(for: .answer)
        }
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

    /// The card form's fields, as `CardFormProblem` names the one a refusal concerns.
    enum CardField: Sendable {
        case title, subtitle, body, images, link, accent, answer
    }

    /// Why a card form was refused, in a sentence an owner reads next to the field it concerns.
    struct CardFormProblem: Sendable {
        let field: CardField
        let sentence: String

        func sentence(for field: CardField) -> String? { field == self.field ? sentence : nil }

        /// The field and sentence for `error`, a refusal of `CardPatch.applied` for `form`
        /// (the API's messages name the rule; these say what to do).
        init(_ error: ApiError, form: FormFields) {
            let code = error.code
            switch code {
            case "invalid_card_title":
                let blank = (form["title"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                self.init(
                    field: .title,
                    sentence: blank
                        ? "Give the card a title." : "Keep the title to \(Card.maxTitleLength) characters or fewer.")
            case "invalid_card_text" where (form["subtitle"] ?? "").count > Card.maxSubtitleLength:
                self.init(
                    field: .subtitle, sentence: "Keep the subtitle to \(Card.maxSubtitleLength) characters or fewer.")
            case "invalid_card_text" where (form["body"] ?? "").count > Card.maxBodyLength:
                self.init(field: .body, sentence: "Keep the details to 5,000 characters or fewer.")
            case "invalid_card_text":
                self.init(
                    field: .body,
                    sentence: "Remove the invisible control characters from the text (pasted from another app?).")
            case "too_many_images":
                self.init(field: .images, sentence: "A card can show at most \(Card.maxImages) images; remove some.")
            case "invalid_image", "image_conflict":
                self.init(field: .images, sentence: "Each image must be uploaded here or be an https:// address.")
            case "invalid_link":
                self.init(
                    field: .link,
                    sentence:
                        "The link must start with https:// or http://, or be a path on this server such as /about.")
            case "invalid_accent":
                self.init(
                    field: .accent,
                    sentence: "Pick the accent colour with the colour picker (a colour such as \(Card.defaultAccent)).")
            case "invalid_answer":
                self.init(field: .answer, sentence: "Pick the known answer from the list, or no known answer.")
            default:
                self.init(field: .title, sentence: error.message)
            }
        }

        init(field: CardField, sentence: String) {
            self.field = field
            self.sentence = sentence
        }
    }

    func cardForm(
        _ deck: Deck, _ context: AppRequestContext, card: Card?, form: FormFields?, error: ApiError?,
        status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let problem = error.map { CardFormProblem($0, form: form ?? FormFields("")) }
        var fields = CardFields(
            title: form?["title"] ?? card?.title ?? "", subtitle: form?["subtitle"] ?? card?.subtitle ?? "",
            body: form?["body"] ?? card?.body ?? "",
            images: form?["images"] ?? card?.images.joined(separator: "\n") ?? "",
            link: form?["link"] ?? card?.link ?? "",
            accent: form?["accent"] ?? card?.accent ?? Card.defaultAccent, problem: problem)
        fields.answerOptions = CardFields.answerOptions(
            deck, answer: form?["answer"] ?? card?.answer?.rawValue ?? "")
        let view = CardFormView(
            pageTitle: card == nil ? "New card" : "Edit card", owner: context.sessionOwner?.name ?? "",
            csrf: OwnerForms.csrfToken(context), slug: deck.slug, deckTitle: deck.title,
            action: card.map { "/owner/decks/\(deck.slug)/cards/\($0.id)" } ?? "/owner/decks/\(deck.slug)/cards",
            isNew: card == nil, revision: card?.revision ?? 1,
            card: fields,
            error: problem.map { _ in "The card was not saved: see the field marked below." })
        return try renderer.page("owner-card", view, status: status)
    }

    /// The form as a card patch; an empty accent means the default colour, and an accent is
    /// upper-cased (a colour picker sends `#6c5ce7`: the same colour, no new revision); `images`
    /// holds one image per line (blank lines and spaces around each are ignored).
    static func patch(_ form: FormFields) -> CardPatch {
        let accent = form["accent"].flatMap { $0.isEmpty ? nil : $0.uppercased() }
        let images = form["images"].map { text in
            text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
        return CardPatch(
            title: form["title"], subtitle: form["subtitle"], body: form["body"], images: images, link: form["link"],
            accent: accent, answer: form["answer"])
    }

    @Sendable func addCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context)
        do {
            let blank = NewCard(deckId: deck.id, position: 0, title: "")
            let card = try Self.patch(form).applied(to: blank)
            let added = try await store.addCard(card, deckId: deck.id, by: context.owner?.ownerId, now: clock())
            return .redirect(to: "/owner/decks/\(deck.slug)?added=\(added.id)#card-\(added.id)", type: .normal)
        } catch {
            guard let error = ApiError.of(error) else { throw error }
            return try cardForm(deck, context, card: nil, form: form, error: error, status: error.status)
        }
    }

    /// The deck the request manages and its card `:card` (404 for another deck's card).
    func managedCard(_ context: AppRequestContext) async throws -> (Deck, Card) {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        guard let id = Int64(try context.parameters.require("card")), let card = try await store.card(id: id),
            card.deckId == deck.id
        else {
            throw ApiError.notFound("card")
        }
        return (deck, card)
    }

    @Sendable func editPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (deck, card) = try await managedCard(context)
        return try cardForm(deck, context, card: card, form: nil, error: nil)
    }

    @Sendable func saveCard(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (deck, card) = try await managedCard(context)
        let form = try await OwnerForms.fields(request, context)
        do {
            _ = try await store.editCard(
                try Self.patch(form).applied(to: card), by: context.owner?.ownerId, now: clock())
        } catch {
            guard let error = ApiError.of(error) else { throw error }
            return try cardForm(deck, context, card: card, form: form, error: error, status: error.status)
        }
        return .redirect(to: "/owner/decks/\(deck.slug)?edited=\(card.id)#card-\(card.id)", type: .normal)
    }

    @Sendable func archive(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await change(request, context, confirming: "archived") { deck, card in
            _ = try await store.setArchived(cardId: card.id, true, by: context.owner?.ownerId, now: clock())
        }
    }

    @Sendable func restore(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await change(request, context, confirming: "restored") { deck, card in
            _ = try await store.setArchived(cardId: card.id, false, by: context.owner?.ownerId, now: clock())
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
            let all = try await store.allCards(deckId: deck.id)
            guard let index = Self.steppedIndex(of: card, by: step, in: all) else { return }
            try await store.moveCard(cardId: card.id, to: index, by: context.owner?.ownerId, now: clock())
        }
    }

    /// The deck-order index (`allCards`, archived included) that moves `card` one active card up
    /// (`step` -1) or down (+1): the place of the active neighbour it passes, so an archived card
    /// between them (listed apart, in its own section) never eats a press. Nil when `card` is
    /// archived or already first or last.
    static func steppedIndex(of card: Card, by step: Int, in all: [Card]) -> Int? {
        let active = all.filter { $0.archivedAt == nil }
        guard let at = active.firstIndex(where: { $0.id == card.id }), active.indices.contains(at + step),
            let neighbour = all.firstIndex(where: { $0.id == active[at + step].id })
        else { return nil }
        // moveCard removes the card before inserting it: the neighbour's old index lands the card
        // before an earlier neighbour and after a later one.
        return neighbour
    }

    /// Checks the session and form token, applies `body`, and goes back to the card in the editor,
    /// which confirms the change when `confirming` names it (`OwnerDecksController.Confirmation`).
    func change(
        _ request: Request, _ context: AppRequestContext, confirming: String? = nil,
        _ body: (Deck, Card) async throws -> Void
    ) async throws -> Response {
        let (deck, card) = try await managedCard(context)
        _ = try await OwnerForms.fields(request, context)
        try await body(deck, card)
        let query = confirming.map { "?\($0)=\(card.id)" } ?? ""
        return .redirect(to: "/owner/decks/\(deck.slug)\(query)#card-\(card.id)", type: .normal)
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
        /// Whether any row has an error (Mustache shows a section for any number, 0 included).
        let hasErrors: Bool
        /// "1 row", "3 rows"; "1 with an error", "2 with errors".
        let rowWords: String
        let errorWords: String
        /// The confirm button: "Add 1 card", "Add 3 cards".
        let addWords: String
        let problem: String?
        let canConfirm: Bool
    }

    /// Largest pasted or uploaded import, bytes.
    static let importLimit = 2 * 1024 * 1024

    func importPage(_ deck: Deck, _ context: AppRequestContext, text: String, status: HTTPResponse.Status) throws
        -> Response
    {
        let parsed = CardImport(text: text)
        let view = ImportView(
            pageTitle: "Import cards · \(deck.title)", owner: context.sessionOwner?.name ?? "",
            csrf: OwnerForms.csrfToken(context), slug: deck.slug, deckTitle: deck.title, text: text, rows: parsed.rows,
            count: parsed.rows.count, errors: parsed.errorCount, hasErrors: parsed.errorCount > 0,
            rowWords: parsed.rows.count == 1 ? "1 row" : "\(parsed.rows.count) rows",
            errorWords: parsed.errorCount == 1 ? "1 with an error" : "\(parsed.errorCount) with errors",
            addWords: parsed.cards.count == 1 ? "Add 1 card" : "Add \(parsed.cards.count) cards",
            problem: parsed.problem,
            canConfirm: parsed.problem == nil && parsed.errorCount == 0 && !parsed.cards.isEmpty)
        return try renderer.page("owner-import", view, status: status)
    }

    @Sendable func importPreview(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context, limit: Self.importLimit)
        return try importPage(deck, context, text: form["text"] ?? "", status: .ok)
    }

    @Sendable func importConfirm(_ request: Request, context: AppRequestContext) async throws -> Response {
        let deck = try await access.managed(try context.parameters.require("deck"), context)
        let form = try await OwnerForms.fields(request, context, limit: Self.importLimit)
        let text = form["text"] ?? ""
        let parsed = CardImport(text: text)
        // Nothing is written while any row has an error: the owner fixes the file and previews again.
        guard parsed.problem == nil, parsed.errorCount == 0, !parsed.cards.isEmpty else {
            return try importPage(deck, context, text: text, status: .unprocessableContent)
        }
        let count = try await store.addCards(parsed.cards, deckId: deck.id, by: context.owner?.ownerId, now: clock())
        // Imported cards go last: the page confirms on the first of them and scrolls it into view.
        let first = try await store.allCards(deckId: deck.id).suffix(count).first?.id ?? 0
        return .redirect(to: "/owner/decks/\(deck.slug)?imported=\(count)&first=\(first)#card-\(first)", type: .normal)
    }
}
