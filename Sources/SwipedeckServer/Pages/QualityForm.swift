/// The quality control fieldset of the deck form: known-answer cards, their mode and the flag
/// rule (`QualitySettings`), as entered or stored, with a refusal next to its field. Shares are
/// shown and typed as whole percentages.
struct QualityForm {
    let knownShare: String
    let silent: Bool
    let feedback: Bool
    let training: Bool
    let trainingCards: String
    let threshold: String
    let minKnown: String
    let exclude: Bool
    var knownShareError: String?
    var trainingCardsError: String?
    var thresholdError: String?
    var minKnownError: String?

    init(_ s: QualitySettings) {
        knownShare = Self.percent(s.knownShare)
        silent = s.mode == .silent
        feedback = s.mode == .feedback
        training = s.mode == .training
        trainingCards = String(s.trainingCards)
        threshold = Self.percent(s.accuracyThreshold)
        minKnown = String(s.minKnownSwipes)
        exclude = s.excludeFlagged
    }

    /// The fieldset as the owner filled it in.
    init(form: FormFields) {
        let mode = form["qualityMode"].flatMap(KnownAnswerMode.init(rawValue:)) ?? .silent
        knownShare = form["knownShare"] ?? ""
        silent = mode == .silent
        feedback = mode == .feedback
        training = mode == .training
        trainingCards = form["trainingCards"] ?? ""
        threshold = form["accuracyThreshold"] ?? ""
        minKnown = form["minKnownSwipes"] ?? ""
        exclude = form.checked("excludeFlagged")
    }

    /// A share as a whole percentage ("10" for 0.1).
    static func percent(_ share: Double) -> String { String(Int((share * 100).rounded())) }

    /// The fieldset with `sentence` next to `field` (a `QualitySettings` field name).
    func showing(field: String, _ sentence: String) -> QualityForm {
        var form = self
        switch field {
        case "knownShare": form.knownShareError = sentence
        case "trainingCards": form.trainingCardsError = sentence
        case "accuracyThreshold": form.thresholdError = sentence
        default: form.minKnownError = sentence
        }
        return form
    }

    /// The fieldset as a patch; nil for a form without it (`quality` is its hidden marker), which
    /// leaves the deck's settings as they are.
    /// - Throws: `invalid_quality` ("quality.<field>: <sentence>") for a field that is no whole number.
    static func patch(_ form: FormFields) throws(ApiError) -> QualityPatch? {
        guard form["quality"] != nil else { return nil }
        func whole(_ name: String, _ sentence: String) throws(ApiError) -> Int {
            let text = (form[name] ?? "").trimmingCharacters(in: .whitespaces)
            guard let n = Int(text) else {
                throw .invalidField(code: "invalid_quality", message: "quality.\(name): \(sentence)")
            }
            return n
        }
        var patch = QualityPatch()
        patch.knownShare =
            Double(try whole("knownShare", "Write the share of known-answer cards as a whole percentage, 0 to 100."))
            / 100
        patch.mode = form["qualityMode"].flatMap(KnownAnswerMode.init(rawValue:))
        patch.trainingCards = try whole("trainingCards", "Write how many training cards come first, 0 to 100.")
        patch.accuracyThreshold =
            Double(try whole("accuracyThreshold", "Write the accuracy threshold as a whole percentage, 0 to 100."))
            / 100
        patch.minKnownSwipes = try whole(
            "minKnownSwipes", "Write how many known-answer cards someone decides before they can be flagged, 1 to 1000."
        )
        patch.excludeFlagged = form.checked("excludeFlagged")
        return patch
    }
}
