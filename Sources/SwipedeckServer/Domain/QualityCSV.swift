/// The quality report as CSV (`QualityReport`): one file of participants, one of cards; the
/// deck's κ and α with their intervals are in the JSON (`…/quality`). Text cells are guarded as in
/// `ResultsCSV`; shares are 0…1, an empty cell is no value.
public enum QualityCSV {
    public static let participantsHeader =
        "participant,swipes,known_answers,correct,accuracy,accuracy_at_least,accuracy_at_most,majority_compared,"
        + "majority_agreement,median_decision_ms,drags,reversal_share,flagged,excluded"

    public static func participants(_ r: QualityReport) -> String {
        var out = participantsHeader + "\r\n"
        for p in r.participants {
            let fields = [
                ResultsCSV.cell(p.participant), String(p.swipes), String(p.knownAnswers), String(p.correct),
                number(p.accuracy), number(p.accuracyInterval?.lower), number(p.accuracyInterval?.upper),
                String(p.majorityCompared), number(p.majorityAgreement), number(p.medianDecisionMs), String(p.drags),
                number(p.reversalShare), p.flagged ? "1" : "0", p.excluded ? "1" : "0",
            ]
            out += fields.joined(separator: ",") + "\r\n"
        }
        return out
    }

    public static let cardsHeader = "card_id,title,answer,answer_label,ratings,agreement"

    /// `names`: the deck's labels, naming each answer as the swiper saw it.
    public static func cards(_ r: QualityReport, names: DirectionNames) -> String {
        var out = cardsHeader + "\r\n"
        for c in r.cards {
            let fields = [
                String(c.cardId), ResultsCSV.cell(c.title), c.answer?.rawValue ?? "",
                ResultsCSV.cell(c.answer.map { names.name($0.rawValue) } ?? ""), String(c.ratings),
                number(c.agreement),
            ]
            out += fields.joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func number(_ v: Double?) -> String { v.map { String($0) } ?? "" }
}
