import Foundation

/// The quality section of the owner's results page: the deck's κ and α with their intervals, and
/// each participant's accuracy on known-answer cards, agreement, pace, reversals and flag.
enum QualityView {
    /// How many participants the page lists (lowest accuracy first); the CSV has them all.
    static let shownParticipants = 50

    static func context(_ r: QualityReport) -> [String: Any] {
        func share(_ v: Double?) -> String { v.map { "\(Int(($0 * 100).rounded())) %" } ?? "–" }
        func statistic(_ v: Double?, _ range: ConfidenceRange?) -> String {
            guard let v else { return "not enough ratings yet" }
            let point = String(format: "%.2f", v)
            guard let range else { return point }
            return
                "\(point) (95 % interval \(String(format: "%.2f", range.lower)) to \(String(format: "%.2f", range.upper)))"
        }
        let rows = r.participants.prefix(shownParticipants).map { p -> [String: Any] in
            let accuracy =
                p.accuracy.map { a in
                    let i = p.accuracyInterval ?? WilsonInterval(successes: 0, trials: 0)
                    return "\(share(a)) of \(p.knownAnswers) (\(share(i.lower))–\(share(i.upper)))"
                } ?? "–"
            return [
                "id": p.participant, "short": String(p.participant.prefix(14)) + "…", "accuracy": accuracy,
                "majority": share(p.majorityAgreement),
                "median": p.medianDecisionMs.map { "\(Int(($0 / 100).rounded()) * 100) ms" } ?? "–",
                "reversals": share(p.reversalShare), "flagged": p.flagged, "excluded": p.excluded,
            ]
        }
        let flagged = r.participants.filter(\.flagged).count
        return [
            "kappa": statistic(r.fleissKappa?.value, r.fleissKappaInterval),
            "alpha": statistic(r.krippendorffAlpha, r.krippendorffAlphaInterval),
            "knownAnswerCards": r.knownAnswerCards == 1
                ? "1 known-answer card" : "\(r.knownAnswerCards) known-answer cards",
            "qualityRows": rows, "hasQualityRows": !rows.isEmpty,
            "flaggedPeople": flagged == 1 ? "1 person" : "\(flagged) people",
        ]
    }
}
