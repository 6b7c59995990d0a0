import Foundation
import SwipePhysics

/// Template context of the results page, including the geometry of the server-rendered SVG
/// bar chart (numbers only; titles stay escaped text in the template).
///
/// The chart has no viewBox: it is as wide as its box (CSS `width: 100%`, a phone's width or
/// less), and its text keeps its CSS size instead of shrinking with the chart. Vertical positions
/// are CSS pixels; horizontal ones are percent of the chart's width. A row is a line with the
/// card's title (left, clipped to `labelShare`) and like rate (right), above a full-width track
/// holding the like-rate bar and the thin bar of the Wilson 95% interval.
enum ResultsView {
    /// Height of one chart row, CSS px: the 20 px title line, 2 px, the 16 px bar, 8 px to the next row.
    static let rowHeight = 46.0
    /// Fraction of the chart's width the title may take; the like rate is right-aligned in the rest.
    static let labelShare = 0.8
    /// Longest title shown in the chart, in characters (grapheme clusters): about what fits the
    /// title's share of the chart on a 390 px wide phone at 14 px. The table shows whole titles.
    static let labelCharacters = 30
    /// Opacity of a bar at a 0% like rate, rising linearly to 1 at 100%: every bar on one colour
    /// scale (results-view.js BAR_MIN_OPACITY).
    static let barMinOpacity = 0.35
    /// Narrowest interval bar, a fraction of the chart's width, so an interval of width 0 still shows.
    static let minIntervalWidth = 0.004

    /// Rows of the ranked table per page: a 1,000-card deck's page stays far under 100 KB of HTML.
    static let pageSize = 100

    /// - Parameter page: 1-based page of the ranked table; out of range is clamped.
    static func context(_ r: ResultsReport, deck: Deck, page: Int = 1) -> [String: Any] {
        let shown = Array(r.cards.filter { $0.total > 0 }.prefix(12))  // a card nobody judged has no rate to draw
        let bars = shown.enumerated().map { i, c -> [String: Any] in
            let y = Double(i) * rowHeight
            return [
                "title": c.title, "label": label(c.title), "y": y, "ty": y + 15, "by": y + 22, "cy": y + 28,
                "fw": percent(c.likeRate), "fo": String(format: "%.2f", barMinOpacity + (1 - barMinOpacity) * c.likeRate), "cix": percent(c.wilson.lower),
                "ciw": percent(max(minIntervalWidth, c.wilson.upper - c.wilson.lower)),
                "pct": "\(Int((c.likeRate * 100).rounded()))%",
            ]
        }
        let pageCount = max(1, (r.cards.count + pageSize - 1) / pageSize)
        let current = min(max(page, 1), pageCount)
        let start = (current - 1) * pageSize
        let rows = r.cards[start..<min(start + pageSize, r.cards.count)].map { c -> [String: Any] in
            [
                "rank": c.rank, "title": c.title, "image": c.image, "hasImage": !c.image.isEmpty, "accent": c.accent, "likes": c.likes, "total": c.total,
                "rate": c.total > 0 ? "\(Int((c.likeRate * 100).rounded()))%" : "–",
                "lower": String(format: "%.2f", c.wilson.lower), "upper": String(format: "%.2f", c.wilson.upper),
                "left": c.counts["left", default: 0], "right": c.counts["right", default: 0],
                "other": c.total - c.counts["left", default: 0] - c.counts["right", default: 0],
                "kinds": SwipeKind.allCases.map { ["count": c.kinds[$0.rawValue, default: 0]] }, "archived": c.archived,
            ]
        }
        let rejections = r.rejections.sorted { $0.key < $1.key }.map {
            ["code": $0.key, "reason": reason($0.key), "count": $0.value] as [String: Any]
        }
        let median = r.medianDecisionMs.map { String(format: "%.1f s", $0 / 1000) } ?? "–"
        return [
            "bars": bars, "chartHeight": Double(shown.count) * rowHeight, "labelWidth": percent(labelShare), "rows": rows, "participants": r.participants,
            "swipes": r.swipes, "suspect": r.suspectExcluded, "median": median, "rejections": rejections,
            "hasRejections": !rejections.isEmpty, "rejectedTotal": r.rejections.values.reduce(0, +),
            "likes": r.directionTotals.filter { ResultsReport.isLike($0.key) }.values.reduce(0, +),
            "passes": r.directionTotals.filter { !ResultsReport.isLike($0.key) }.values.reduce(0, +),
            "hasSwipes": r.swipes > 0,
            "kindNames": SwipeKind.allCases.map { ["name": kindName($0), "key": $0.rawValue] },
            "kindTotals": SwipeKind.allCases.map { ["name": kindName($0), "key": $0.rawValue, "count": r.swipesByKind[$0.rawValue, default: 0]] },
            "counting": r.countedInputs.compactMap { CountedInput(rawValue: $0) }.map(countedName).joined(separator: ", "),
            "allSwipes": r.allSwipes, "excludedParticipants": r.excludedParticipants, "excludedSwipes": r.excludedSwipes,
            "hasExcluded": r.excludedParticipants > 0,
            "rejectionReasons": PageRenderer.scriptSafeJSON(Dictionary(uniqueKeysWithValues: SwipeRejection.allCases.map { ($0.rawValue, $0.message) })),
            "rowStart": start, "pageSize": pageSize, "paged": pageCount > 1,
            "showing": "\(start + 1)–\(start + rows.count) of \(r.cards.count)",
            "hasPrev": current > 1, "prevPage": "?page=\(current - 1)", "hasNext": current < pageCount, "nextPage": "?page=\(current + 1)",
        ]
    }

    /// What a rejection code means, as people read it (the code itself when unknown).
    static func reason(_ code: String) -> String {
        SwipeRejection(rawValue: code)?.message ?? code
    }

    /// A kind's column heading.
    static func kindName(_ kind: SwipeKind) -> String {
        switch kind {
        case .drag: return "Drag"
        case .suspectDrag: return "Suspect drag"
        case .button: return "Button/key"
        case .suspectButton: return "Suspect button"
        case .api: return "API"
        }
    }

    /// How the counting setting reads in a sentence.
    static func countedName(_ input: CountedInput) -> String {
        switch input {
        case .drag: return "validated drags"
        case .button: return "buttons and keys"
        case .api: return "API swipes without a trace"
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
