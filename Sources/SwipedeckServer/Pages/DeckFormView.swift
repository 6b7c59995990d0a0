import SwipePhysics

/// The deck form of the owner's pages (new deck and deck settings): its fields as entered or
/// stored, and how each profile feels, in words.
struct DeckFormView {
    struct ProfileOption {
        let name: String
        let feel: String
        let selected: Bool
        /// The profile decides up and down too: the form shows the Up and Down labels only then
        /// (stored: Mustache reads stored properties only).
        let vertical: Bool

        init(name: String, feel: String, selected: Bool) {
            self.name = name
            self.feel = feel
            self.selected = selected
            vertical = SwipeProfile.named(name).map { !Set($0.directions).isDisjoint(with: [.up, .down]) } ?? true
        }
    }

    let slug: String
    let title: String
    let description: String
    let left: String
    let right: String
    let up: String
    let down: String
    let profiles: [ProfileOption]
    let open: Bool
    let resultsPublic: Bool
    let allowButtons: Bool
    let countDrag: Bool
    let countButton: Bool
    let countApi: Bool
    let quota: String
    let listed: Bool
    let shuffled: Bool
    struct AccessOption {
        let value: String
        let words: String
        let selected: Bool
    }
    let accessModes: [AccessOption]
    let joinLimit: String
    /// The slug can be chosen only when the deck is made (links to it are out there afterwards).
    var slugEditable = false
    /// Whether the front page lists the deck (`Deck.listed`; form field `frontPage`).
    var frontPage = true
    /// Whether groups may decide together in rooms (`Deck.rooms`; form field `rooms`).
    var rooms = true
    /// The refusal of the last save, next to its field (`showing(_:)`; Mustache reads stored properties only).
    var titleError: String?
    var slugError: String?
    var descriptionError: String?
    var labelsError: String?
    var countedError: String?
    var quotaError: String?
    var joinLimitError: String?

    /// The form with `problem`'s sentence next to its field (nil for a problem of no field: the
    /// page says it at the top).
    func showing(_ problem: DeckFormProblem) -> DeckFormView {
        var form = self
        switch problem.field {
        case .title: form.titleError = problem.sentence
        case .slug: form.slugError = problem.sentence
        case .description: form.descriptionError = problem.sentence
        case .labels: form.labelsError = problem.sentence
        case .counted: form.countedError = problem.sentence
        case .quota: form.quotaError = problem.sentence
        case .joinLimit: form.joinLimitError = problem.sentence
        case .other: break
        }
        return form
    }

    /// How each stack profile feels to swipe (the list rows' profiles, `reveal` and `springList`,
    /// are for the history page, not for a deck).
    /// Each is the profile's own `summary`: what the swiper must do, in one place.
    static let feels: [(String, String)] = [SwipeProfile.standard, .classic, .zone, .eightway].map {
        ($0.name, $0.summary)
    }

    init(deck: NewDeck) {
        self.init(
            slug: deck.slug, title: deck.title, description: deck.description,
            labels: (deck.leftLabel, deck.rightLabel, deck.upLabel, deck.downLabel),
            profile: deck.profile, open: deck.isOpen, resultsPublic: deck.resultsPublic,
            allowButtons: deck.allowButtons,
            counted: deck.countedInputs, quota: deck.quota.map(String.init) ?? "", order: deck.cardOrder.rawValue,
            access: deck.access.rawValue,
            joinLimit: deck.joinLimit.map(String.init) ?? "")
        frontPage = deck.listed
        rooms = deck.rooms
    }

    /// The form as the owner filled it in (to show it again with an error).
    init(form: FormFields) {
        let counted = Set(form.all("counted").compactMap(CountedInput.init(rawValue:)))
        self.init(
            slug: form["slug"] ?? "", title: form["title"] ?? "", description: form["description"] ?? "",
            labels: (
                form["left"] ?? Deck.defaultLabels.left, form["right"] ?? Deck.defaultLabels.right,
                form["up"] ?? Deck.defaultLabels.up, form["down"] ?? Deck.defaultLabels.down
            ),
            profile: form["profile"] ?? Deck.defaultProfile, open: form.checked("open"),
            resultsPublic: form.checked("resultsPublic"),
            allowButtons: form.checked("allowButtons"), counted: counted, quota: form["quota"] ?? "",
            order: form["order"] ?? CardOrder.listed.rawValue,
            access: form["access"] ?? DeckAccessMode.link.rawValue, joinLimit: form["joinLimit"] ?? "")
        frontPage = form.checked("frontPage")
        rooms = form.checked("rooms")
    }

    init(
        slug: String, title: String, description: String, labels: (String, String, String, String), profile: String,
        open: Bool,
        resultsPublic: Bool, allowButtons: Bool, counted: Set<CountedInput>, quota: String, order: String,
        access: String, joinLimit: String
    ) {
        self.slug = slug
        self.title = title
        self.description = description
        (left, right, up, down) = labels
        var options = Self.feels.map { ProfileOption(name: $0.0, feel: $0.1, selected: $0.0 == profile) }
        if !options.contains(where: \.selected) {
            options.append(ProfileOption(name: profile, feel: "A seed profile.", selected: true))
        }
        profiles = options
        self.open = open
        self.resultsPublic = resultsPublic
        self.allowButtons = allowButtons
        countDrag = counted.contains(.drag)
        countButton = counted.contains(.button)
        countApi = counted.contains(.api)
        self.quota = quota
        listed = order != CardOrder.shuffled.rawValue
        shuffled = order == CardOrder.shuffled.rawValue
        accessModes = DeckAccessMode.allCases.map {
            AccessOption(value: $0.rawValue, words: $0.words, selected: $0.rawValue == access)
        }
        self.joinLimit = joinLimit
    }

    /// The settings part of the form as a patch (checked by `DeckPatch.applied(to:)`).
    /// - Throws: `invalid_quota` when the quota is not a whole number.
    static func patch(_ form: FormFields) throws(ApiError) -> DeckPatch {
        var patch = DeckPatch()
        patch.title = form["title"]
        patch.description = form["description"] ?? ""
        patch.profile = form["profile"]
        patch.labels = DeckInput.Labels(left: form["left"], right: form["right"], up: form["up"], down: form["down"])
        patch.open = form.checked("open")
        patch.resultsPublic = form.checked("resultsPublic")
        patch.allowButtons = form.checked("allowButtons")
        patch.order = form["order"]
        patch.countedInputs = form.all("counted")
        patch.quota = .some(
            try wholeNumber(
                form["quota"], code: "invalid_quota", "Cards per person must be a whole number, or empty for no limit.")
        )
        patch.access = form["access"]
        patch.listed = form.checked("frontPage")
        patch.rooms = form.checked("rooms")
        patch.joinLimit = .some(
            try wholeNumber(
                form["joinLimit"], code: "invalid_join_limit",
                "People who may join at once must be a whole number, or empty for the server's budget."))
        return patch
    }

    /// A field holding a whole number or nothing (nil).
    /// - Throws: `invalidField(code, message)` for anything else.
    static func wholeNumber(_ field: String?, code: String, _ message: String) throws(ApiError) -> Int? {
        let text = (field ?? "").trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return nil }
        guard let n = Int(text) else { throw .invalidField(code: code, message: message) }
        return n
    }
}
