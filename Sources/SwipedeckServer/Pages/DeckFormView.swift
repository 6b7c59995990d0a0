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
    let adaptive: Bool
    /// The stop rule's fields as shown: percentages for rates and widths (`StopRule` keeps fractions).
    var stop = StopFields(rule: .none)
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
    var stopRuleError: String?

    /// The stop rule's part of the form (Mustache reads stored properties only).
    struct StopFields {
        let none: Bool
        let threshold: Bool
        let votes: Bool
        let width: Bool
        let thresholdPercent: String
        let errorPercent: String
        let votesNeeded: String
        let widthPercent: String
        let cap: String
        let topK: String
        let keepDecided: Bool
        let closeWhenDecided: Bool

        init(rule: StopRule) {
            none = rule.kind == .none
            threshold = rule.kind == .threshold
            votes = rule.kind == .votes
            width = rule.kind == .width
            thresholdPercent = Self.percent(rule.threshold)
            errorPercent = Self.percent(rule.errorRate)
            votesNeeded = String(rule.votes)
            widthPercent = Self.percent(rule.width)
            cap = rule.votesCap.map(String.init) ?? ""
            topK = rule.topK.map(String.init) ?? ""
            keepDecided = rule.keepDecided
            closeWhenDecided = rule.closeWhenDecided
        }

        /// The fields as the owner typed them (shown again with an error).
        init(form: FormFields) {
            let kind = StopRuleKind(rawValue: form["stopKind"] ?? "") ?? .none
            none = kind == .none
            threshold = kind == .threshold
            votes = kind == .votes
            width = kind == .width
            thresholdPercent = form["stopThreshold"] ?? ""
            errorPercent = form["stopErrorRate"] ?? ""
            votesNeeded = form["stopVotes"] ?? ""
            widthPercent = form["stopWidth"] ?? ""
            cap = form["stopCap"] ?? ""
            topK = form["stopTopK"] ?? ""
            keepDecided = form.checked("keepDecided")
            closeWhenDecided = form.checked("closeWhenDecided")
        }

        /// 0.05 → "5", 0.125 → "12.5".
        static func percent(_ fraction: Double) -> String {
            let value = (fraction * 1000).rounded() / 10
            return value == value.rounded() ? String(Int(value)) : String(value)
        }
    }

    /// The quality control fieldset (known-answer cards).
    var quality = QualityForm(QualitySettings())

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
        case .stopRule: form.stopRuleError = problem.sentence
        case .quality(let field): form.quality = quality.showing(field: field, problem.sentence)
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
        stop = StopFields(rule: deck.stopRule)
        quality = QualityForm(deck.qualitySettings)
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
        stop = StopFields(form: form)
        quality = QualityForm(form: form)
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
        shuffled = order == CardOrder.shuffled.rawValue
        adaptive = order == CardOrder.adaptive.rawValue
        listed = !shuffled && !adaptive
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
                "People expected must be a whole number, or empty for the server's budget."))
        if form["stopKind"] != nil { patch.stopRule = try stopRule(form) }
        patch.quality = try QualityForm.patch(form)
        return patch
    }

    /// The stop rule's fields as a rule (checked by `StopRule.problem` when the patch applies).
    /// - Throws: the field's `invalid_stop_*` when a number is not one.
    static func stopRule(_ form: FormFields) throws(ApiError) -> StopRule {
        guard let kind = StopRuleKind(rawValue: form["stopKind"] ?? "") else {
            throw .invalidField(code: "invalid_stop_kind", message: "Pick when a card is decided.")
        }
        /// A percentage field as a fraction; empty: `fallback`.
        func fraction(_ name: String, _ fallback: Double, code: String) throws(ApiError) -> Double {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "%", with: "")
            if text.isEmpty { return fallback }
            guard let value = Double(text), value.isFinite else {
                throw .invalidField(code: code, message: "\(name) must be a number.")
            }
            return value / 100
        }
        var rule = StopRule(kind: kind)
        rule.threshold = try fraction("stopThreshold", StopRule.defaultThreshold, code: "invalid_stop_threshold")
        rule.errorRate = try fraction("stopErrorRate", StopRule.defaultErrorRate, code: "invalid_stop_error_rate")
        rule.width = try fraction("stopWidth", StopRule.defaultWidth, code: "invalid_stop_width")
        rule.votes =
            try wholeNumber(form["stopVotes"], code: "invalid_stop_votes", "stopVotes must be a whole number.")
            ?? StopRule.defaultVotes
        rule.votesCap = try wholeNumber(
            form["stopCap"], code: "invalid_stop_votes_cap", "stopCap must be a whole number.")
        rule.topK = try wholeNumber(form["stopTopK"], code: "invalid_stop_top_k", "stopTopK must be a whole number.")
        rule.keepDecided = form.checked("keepDecided")
        rule.closeWhenDecided = form.checked("closeWhenDecided")
        return rule
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
