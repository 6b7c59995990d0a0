import Foundation
import SwipePhysics

/// Template context of the results page, including the geometry of the server-rendered SVG
/// bar chart (numbers only; titles stay escaped text in the template).
///
/// The chart has no viewBox: it is as wide as its box (CSS `width: 100%`, a phone's width or
/// less), and its text keeps its CSS size instead of shrinking with the chart. Vertical positions
/// are CSS pixels; horizontal ones are percent of the chart's width. A row is a line with the
/// card's title (left, clipped to `labelShare`) and like rate with its votes (right), above a
/// full-width track holding a solid bar up to the Wilson 95% interval's lower bound (the share
/// the card surely has), a pale bar on to its upper bound (what it may have) and a mark at the
/// observed rate: few votes draw a short solid bar and a long pale one. Archived cards are
/// ranked apart (a table of their own, unranked); the ranking numbers the active ones 1, 2, …
/// (results-view.js mirrors all of it for the live page).
enum ResultsView {
    /// Height of one chart row, CSS px: the 20 px title line, 2 px, the 16 px bar, 8 px to the next row.
    static let rowHeight = 46.0
    /// Fraction of the chart's width the title may take; the like rate and its votes ("100% · 12
    /// votes", about 120 px at 14 px) are right-aligned in the rest, also on a 320 px phone.
    static let labelShare = 0.52
    /// Longest title shown in the chart, in characters (grapheme clusters): about what fits the
    /// title's share of the chart on a 390 px wide phone at 14 px. The table shows whole titles.
    static let labelCharacters = 22
    /// Narrowest interval bar, a fraction of the chart's width, so an interval of width 0 still shows.
    static let minIntervalWidth = 0.004
    /// Width of the mark at the observed rate, a fraction of the chart's width (results-view.js MARK_WIDTH).
    static let markWidth = 0.006
    /// Cards drawn in the chart at most (results-view.js CHART_CARDS).
    static let chartCards = 12

    /// Rows of the ranked table per page: a 1,000-card deck's page stays far under 100 KB of HTML.
    static let pageSize = 100

    /// "1 vote", "12 votes" (results-view.js votesText).
    static func votes(_ total: Int) -> String { total == 1 ? "1 vote" : "\(total) votes" }

    /// A rate as the page prints it: 0.456 → "46%".
    static func ratePercent(_ rate: Double) -> String { "\(Int((rate * 100).rounded()))%" }

    /// Where the like rate surely lies, in words; "–" without votes (results-view.js rangeText).
    static func range(_ c: ResultsReport.CardResult) -> String {
        c.total == 0 ? "–" : "between \(ratePercent(c.wilson.lower)) and \(ratePercent(c.wilson.upper))"
    }

    /// How sure the ranking is of a card, from its interval's width (results-view.js certaintyText):
    /// half the scale or wider is a guess, 30 % unsure, 15 % fairly sure, narrower sure; "" without
    /// votes, and "" for a card the stop rule decided (yes, no or settled): its verdict is the row's
    /// word, and "unsure" beside "Decided: yes" would contradict it.
    static func certainty(_ c: ResultsReport.CardResult) -> String {
        guard c.total > 0, c.state?.isDecided != true else { return "" }
        let width = c.wilson.upper - c.wilson.lower
        if width >= 0.5 { return "too few votes to tell" }
        if width >= 0.3 { return "unsure" }
        if width >= 0.15 { return "fairly sure" }
        return "sure"
    }

    /// A card's state under the deck's stop rule, in words (results-view.js verdictText): "Decided:
    /// yes", "Decided: no", "Settled", "Deciding · needs about 12 more votes" (or just "Deciding"
    /// when the estimate is unknown); "" without a rule.
    static func verdict(_ c: ResultsReport.CardResult) -> String {
        switch c.state {
        case nil: return ""
        case .yes?: return "Decided: yes"
        case .no?: return "Decided: no"
        case .settled?: return "Settled"
        case .deciding?:
            guard let n = c.votesNeeded else { return "Deciding" }
            return "Deciding · needs about \(n == 1 ? "1 more vote" : "\(n) more votes")"
        }
    }

    /// Where the deck stands under its stop rule, in words (results-view.js decisionText):
    /// "Decided: every card has its verdict (3 of 3 cards decided).", "Decided: the top 2 are
    /// known (…)." or "Deciding: 2 of 3 cards decided."; "" without a rule.
    static func decision(_ r: ResultsReport) -> String {
        guard let d = r.decision else { return "" }
        let counted = "\(d.decidedCards) of \(d.activeCards) cards decided"
        guard d.deckDecided else { return "Deciding: \(counted)." }
        if let top = d.topKnown { return "Decided: the top \(top.count) are known (\(counted))." }
        return "Decided: every card has its verdict (\(counted))."
    }

    /// One row of the ranked (or archived) table; `place` is the card's number among the active ones.
    static func row(_ c: ResultsReport.CardResult, place: Int) -> [String: Any] {
        [
            "rank": place, "title": c.title, "image": c.image, "hasImage": !c.image.isEmpty, "accent": c.accent,
            "total": c.total,
            "likes": c.total > 0 ? "\(c.likes) of \(c.total)" : "no votes yet",
            "rate": c.total > 0 ? ratePercent(c.likeRate) : "–", "range": range(c), "certainty": certainty(c),
            "verdict": verdict(c), "state": c.state?.rawValue ?? "", "rooms": rooms(c),
        ]
    }

    /// How many match rooms have the card as a match, "" for none (results-view.js roomsText).
    static func rooms(_ c: ResultsReport.CardResult) -> String {
        c.roomMatches > 0 ? String(c.roomMatches) : ""
    }

    /// - Parameter page: 1-based page of the ranked table; out of range is clamped.
    static func context(_ r: ResultsReport, deck: Deck, page: Int = 1) -> [String: Any] {
        let active = r.cards.filter { !$0.archived }
        let archived = r.cards.filter(\.archived)
        // A card nobody judged has no rate to draw.
        let shown = Array(active.filter { $0.total > 0 }.prefix(chartCards))
        let bars = shown.enumerated().map { i, c -> [String: Any] in
            let y = Double(i) * rowHeight
            return [
                "title": c.title, "label": label(c.title), "y": y, "ty": y + 15, "by": y + 22,
                "sw": percent(c.wilson.lower), "rx": percent(c.wilson.lower),
                "rw": percent(max(minIntervalWidth, c.wilson.upper - c.wilson.lower)),
                "mx": percent(min(c.likeRate, 1 - markWidth)),
                "pct": "\(ratePercent(c.likeRate)) · \(votes(c.total))",
            ]
        }
        let pageCount = max(1, (active.count + pageSize - 1) / pageSize)
        let current = min(max(page, 1), pageCount)
        let start = (current - 1) * pageSize
        let rows = active[start..<min(start + pageSize, active.count)].enumerated().map { i, c in
            row(c, place: start + i + 1)
        }
        let rejections = r.rejections.sorted { $0.key < $1.key }.map {
            ["code": $0.key, "reason": reason($0.key), "count": $0.value] as [String: Any]
        }
        let median = r.medianDecisionMs.map { String(format: "%.1f s", $0 / 1000) } ?? "–"
        let labels = DirectionLabels(deck: deck)
        return [
            "bars": bars, "chartHeight": Double(shown.count) * rowHeight, "labelWidth": percent(labelShare),
            "rows": rows, "participants": r.participants,
            "participantsLabel": r.participants == 1 ? "participant" : "participants",
            "archivedRows": archived.map { row($0, place: 0) }, "hasArchived": !archived.isEmpty,
            "archivedCount": archived.count,
            // Every live swipe is counted or not: automated-looking, of a kind the deck does not
            // count, or a left-out person's (their swipes are outside allSwipes).
            "swipes": r.swipes, "suspect": r.suspectExcluded, "notCounted": r.allSwipes - r.swipes + r.excludedSwipes,
            "median": median, "rejections": rejections,
            "hasRejections": !rejections.isEmpty, "rejectedTotal": r.rejections.values.reduce(0, +),
            "likes": r.directionTotals.filter { ResultsReport.isLike($0.key) }.values.reduce(0, +),
            "passes": r.directionTotals.filter { !ResultsReport.isLike($0.key) }.values.reduce(0, +),
            "likeWords": labels.likeWords, "passWords": labels.passWords,
            "hasSwipes": r.swipes > 0,
            "kindTotals": SwipeKind.allCases.map {
                ["name": kindName($0), "key": $0.rawValue, "count": r.swipesByKind[$0.rawValue, default: 0]]
            },
            "counting": r.countedInputs.compactMap { CountedInput(rawValue: $0) }.map(countedName).joined(
                separator: ", "),
            "allSwipes": r.allSwipes, "excludedParticipants": r.excludedParticipants,
            "excludedSwipes": r.excludedSwipes,
            "hasExcluded": r.excludedParticipants > 0,
            "rejectionReasons": PageRenderer.scriptSafeJSON(
                Dictionary(uniqueKeysWithValues: SwipeRejection.allCases.map { ($0.rawValue, $0.message) })),
            "rowStart": start, "pageSize": pageSize, "paged": pageCount > 1,
            "showing": "\(start + 1)–\(start + rows.count) of \(active.count)",
            "decision": decision(r), "hasDecision": r.decision != nil, "deckDecided": r.decision?.deckDecided == true,
            "hasPrev": current > 1, "prevPage": "?page=\(current - 1)", "hasNext": current < pageCount,
            "nextPage": "?page=\(current + 1)",
        ]
    }

    /// The deck's own words for the two sides of a decision: likes are right and up
    /// (`ResultsReport.isLike`), passes the rest; up and down are named only when the deck's
    /// profile has them.
    struct DirectionLabels {
        let likeWords: String
        let passWords: String

        init(deck: Deck) {
            let directions = deck.swipeProfile.directions
            likeWords = directions.contains(.up) ? "\(deck.rightLabel) or \(deck.upLabel)" : deck.rightLabel
            passWords = directions.contains(.down) ? "\(deck.leftLabel) or \(deck.downLabel)" : deck.leftLabel
        }
    }

    /// What a rejection code means, as people read it (the code itself when unknown).
    static func reason(_ code: String) -> String {
        SwipeRejection(rawValue: code)?.message ?? code
    }

    /// A kind's name, as an owner reads it.
    static func kindName(_ kind: SwipeKind) -> String {
        switch kind {
        case .drag: return "Dragged"
        case .suspectDrag: return "Drags that looked automated"
        case .button: return "Buttons or keys"
        case .suspectButton: return "Presses too fast to have read the card"
        case .api: return "Sent by a program"
        }
    }

    /// How the counting setting reads in a sentence.
    static func countedName(_ input: CountedInput) -> String {
        switch input {
        case .drag: return "drags on the card"
        case .button: return "button presses and keys"
        case .api: return "decisions sent by programs"
        }
    }

    /// `title` as the chart shows it: unchanged up to `labelCharacters` characters; longer, cut
    /// to `labelCharacters - 1` characters, trailing spaces dropped, then "…".
    static func label(_ title: String) -> String {
        guard title.count > labelCharacters else { return title }
        var kept = title.prefix(labelCharacters - 1)
        while kept.last?.isWhitespace == true { kept.removeLast() }
        return kept + "…"
    }

    /// A fraction (0…1) as an SVG length in percent of the chart's width, e.g. 0.5 → "50.0%".
    static func percent(_ fraction: Double) -> String {
        String(format: "%.1f%%", fraction * 100)
    }
}
