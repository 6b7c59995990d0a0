import Foundation

/// Why the deck form (new deck, deck settings) was refused, as a sentence an owner reads next to
/// the field it concerns; `DeckFormView.showing(_:)` places it.
struct DeckFormProblem: Sendable, Equatable {
    enum Field: Sendable, Equatable {
        case title, slug, description, labels, counted, quota, joinLimit, stopRule, other
        /// A field of the quality control fieldset, named as in `QualitySettings` (`knownShare`, …).
        case quality(String)
    }

    let field: Field
    let sentence: String

    init(field: Field, sentence: String) {
        self.field = field
        self.sentence = sentence
    }

    /// The field and sentence for `error`, a refusal of the deck form (the API's messages name
    /// the rule; these say what to do); `slug` is the slug typed.
    init(_ error: ApiError, slug: String) {
        switch error.code {
        case "invalid_title":
            self.init(field: .title, sentence: "Give the deck a title of at most \(Deck.maxTitleLength) characters.")
        case "invalid_slug":
            self.init(
                field: .slug,
                sentence: "Use only lower-case letters, digits and dashes, at most 64, for example team-lunch.")
        case "slug_taken":
            self.init(field: .slug, sentence: "A deck at /d/\(slug) exists already; pick another address.")
        case "invalid_description":
            self.init(field: .description, sentence: "Keep the description to 2,000 characters or fewer.")
        case "invalid_label":
            self.init(
                field: .labels, sentence: "Give each direction a label of 1 to \(Deck.maxLabelLength) characters.")
        case "invalid_counted_inputs":
            self.init(field: .counted, sentence: "Tick at least one kind of swipe for the ranking to count.")
        case "invalid_quota":
            self.init(
                field: .quota,
                sentence: "Write how many cards each person decides, as a whole number, or leave it empty for no limit."
            )
        case "invalid_join_limit":
            self.init(
                field: .joinLimit,
                sentence: "Write a whole number of people, or leave it empty for the server's budget.")
        case "invalid_stop_kind":
            self.init(field: .stopRule, sentence: "Pick when a card is decided.")
        case "invalid_stop_threshold":
            self.init(
                field: .stopRule,
                sentence: "Write the threshold as a like rate above 0 % and below 100 %, for example 50.")
        case "invalid_stop_error_rate":
            self.init(
                field: .stopRule,
                sentence: "Write the error rate as a percentage above 0 and at most 50, for example 5.")
        case "invalid_stop_votes":
            self.init(
                field: .stopRule,
                sentence: "Write the votes that settle a card as a whole number from 1 to \(StopRule.maxVotes).")
        case "invalid_stop_width":
            self.init(
                field: .stopRule, sentence: "Write the width as a percentage above 0 and below 100, for example 20.")
        case "invalid_stop_votes_cap":
            self.init(
                field: .stopRule,
                sentence:
                    "Write the most votes per card as a whole number from 1 to \(StopRule.maxVotes), or leave it empty."
            )
        case "invalid_stop_top_k":
            self.init(
                field: .stopRule,
                sentence:
                    "Write how many best cards to know as a whole number of cards, or leave it empty."
            )
        case "invalid_quality":
            // The message is "quality.<field>: <sentence>" (`DeckPatch`, `QualityForm.patch`).
            let parts = error.message.split(separator: ":", maxSplits: 1)
            let field = parts.first.map { String($0.dropFirst("quality.".count)) } ?? ""
            let sentence = parts.count == 2 ? parts[1].trimmingCharacters(in: .whitespaces) : error.message
            self.init(field: .quality(field), sentence: sentence)
        default: self.init(field: .other, sentence: error.message)
        }
    }
}
