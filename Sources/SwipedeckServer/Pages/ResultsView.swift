import Foundation

/// Template context of the results page, including the geometry of the server-rendered SVG
/// bar chart (numbers only; titles stay escaped text in the template).
enum ResultsView {
    static func context(_ r: ResultsReport, deck: Deck) -> [String: Any] {
        let shown = Array(r.cards.filter { $0.total > 0 }.prefix(12))  // a card nobody judged has no rate to draw
        let rowH = 34.0, labelW = 220.0, barW = 300.0
        let bars = shown.enumerated().map { i, c -> [String: Any] in
            let y = Double(i) * rowH
            return [
                "title": c.title, "y": y, "ty": y + 21, "x": labelW, "bw": barW,
                "fw": (barW * c.likeRate).rounded(), "cix": labelW + barW * c.wilson.lower,
                "ciw": max(1, barW * (c.wilson.upper - c.wilson.lower)), "vx": labelW + barW + 8,
                "pct": "\(Int((c.likeRate * 100).rounded()))%", "by": y + 8, "cy": y + 15,
            ]
        }
        let rows = r.cards.map { c -> [String: Any] in
            [
                "rank": c.rank, "title": c.title, "image": c.image, "hasImage": !c.image.isEmpty, "likes": c.likes, "total": c.total,
                "rate": c.total > 0 ? "\(Int((c.likeRate * 100).rounded()))%" : "–",
                "lower": String(format: "%.2f", c.wilson.lower), "upper": String(format: "%.2f", c.wilson.upper),
                "left": c.counts["left", default: 0], "right": c.counts["right", default: 0],
                "other": c.total - c.counts["left", default: 0] - c.counts["right", default: 0],
            ]
        }
        let rejections = r.rejections.sorted { $0.key < $1.key }.map { ["code": $0.key, "count": $0.value] as [String: Any] }
        let median = r.medianDecisionMs.map { String(format: "%.1f s", $0 / 1000) } ?? "–"
        return [
            "bars": bars, "chartHeight": Double(shown.count) * rowH, "rows": rows, "participants": r.participants,
            "swipes": r.swipes, "suspect": r.suspectExcluded, "median": median, "rejections": rejections,
            "hasRejections": !rejections.isEmpty, "rejectedTotal": r.rejections.values.reduce(0, +),
            "likes": r.directionTotals.filter { ResultsReport.isLike($0.key) }.values.reduce(0, +),
            "passes": r.directionTotals.filter { !ResultsReport.isLike($0.key) }.values.reduce(0, +),
            "hasSwipes": r.swipes > 0,
        ]
    }
}
