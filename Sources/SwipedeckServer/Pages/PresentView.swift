/// What the big screen (`/d/{deck}/present`) shows of a deck's results (present-view.js
/// `presentedCards`, `presentedStats`, which redraw it from the live results). Hidden, every
/// card is listed in the deck's order (ids ascending: nothing about its standing) with its
/// votes and whether the stop rule decided it; revealed, in the ranking with its share of likes
/// and its verdict.
enum PresentView {
    /// How the big screen lays out `cards` cards so a projector shows them all without scrolling
    /// (present.css; present-view.js `presentDensity`): one column up to 4, two up to 10, then three.
    static func density(cards: Int) -> String {
        cards <= 4 ? "one" : cards <= 10 ? "two" : "three"
    }

    /// One card on the big screen.
    struct Card: Equatable {
        var id: Int64
        var title: String
        /// "1 vote", "12 votes".
        var votes: String
        /// The like rate, "64%"; "" hidden or without votes.
        var share: String
        /// The bar's width, "64.0%"; "0.0%" hidden.
        var width: String
        /// Revealed: `ResultsView.verdict`; hidden, under a stop rule: "Decided" (yes or no, not
        /// which), "Settled" (which has no side) or "Deciding"; "" without a rule.
        var state: String
        /// The verdict's key (`CardVerdict` raw value) when revealed, else "".
        var verdict: String
    }

    /// The active cards as the screen lists them.
    static func presentedCards(_ r: ResultsReport, revealed: Bool) -> [Card] {
        let active = r.cards.filter { !$0.archived }
        let ordered = revealed ? active : active.sorted { $0.cardId < $1.cardId }
        return ordered.map { c in
            let hiddenState = c.state.map(hiddenWord) ?? ""
            return Card(
                id: c.cardId, title: c.title, votes: ResultsView.votes(c.total),
                share: revealed && c.total > 0 ? ResultsView.ratePercent(c.likeRate) : "",
                width: ResultsView.percent(revealed ? c.likeRate : 0),
                state: revealed ? ResultsView.verdict(c) : hiddenState,
                verdict: revealed ? c.state?.rawValue ?? "" : "")
        }
    }

    /// A verdict as the hidden screen words it: the same word as revealed, less the side.
    static func hiddenWord(_ state: CardVerdict) -> String {
        switch state {
        case .yes, .no: return "Decided"
        case .settled: return "Settled"
        case .deciding: return "Deciding"
        }
    }

    /// The counts the screen shows in both states.
    struct Stats: Equatable {
        /// People with a counted decision: "1 person", "31 people".
        var people: String
        /// Counted decisions: "1 decision", "120 decisions".
        var decisions: String
        /// `ResultsView.decision`, revealed; hidden, how many cards are decided only.
        var decision: String
    }

    static func presentedStats(_ r: ResultsReport, revealed: Bool) -> Stats {
        var decision = ""
        if let d = r.decision {
            decision =
                revealed
                ? ResultsView.decision(r)
                : "\(d.decidedCards) of \(d.activeCards) cards decided."
        }
        return Stats(
            people: r.participants == 1 ? "1 person" : "\(r.participants) people",
            decisions: r.swipes == 1 ? "1 decision" : "\(r.swipes) decisions", decision: decision)
    }
}
