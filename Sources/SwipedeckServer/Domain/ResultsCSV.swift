import Foundation

/// The results as CSV, one row per card in ranking order: the deck's own labels name the
/// decision columns (`DirectionNames`), archived cards say so in their own column.
public enum ResultsCSV {
    /// The header for a deck with `names`: rank and card, whether it is archived, then the
    /// counted swipes saying yes (right or up), the votes, the rate and its 95 % interval, the
    /// counted swipes by direction (named by the deck's labels), then every live swipe by kind
    /// (`SwipeKind` order) and their sum, then the card's stop-rule state (`CardVerdict`, empty
    /// without a rule) and about how many more votes a deciding card needs (empty when unknown).
    public static func header(_ names: DirectionNames) -> String {
        (["rank", "card_id", "title", "archived", names.likes, "votes", "rate", "rate_at_least", "rate_at_most"]
            .map(cell) + DirectionNames.columns.map { cell(names.name($0)) }).joined(separator: ",")
            + ",drag,suspect_drag,button,suspect_button,api,all,state,votes_needed"
    }

    public static func render(_ r: ResultsReport, names: DirectionNames) -> String {
        var out = header(names) + "\r\n"
        for c in r.cards {
            let dirs = DirectionNames.columns.map { String(c.counts[$0, default: 0]) }
            let kinds = SwipeKind.allCases.map { String(c.kinds[$0.rawValue, default: 0]) } + [String(c.all)]
            let fields =
                [
                    String(c.rank), String(c.cardId), cell(c.title), c.archived ? "1" : "0", String(c.likes),
                    String(c.total), String(c.likeRate),
                    String(c.wilson.lower), String(c.wilson.upper),
                ] + dirs + kinds + [c.state?.rawValue ?? "", c.votesNeeded.map(String.init) ?? ""]
            out += fields.joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func cell(_ s: String) -> String {
        var v = s
        if let f = v.first, "=+-@\t\r".contains(f) { v = "'" + v }
        if v.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || v != s {
            return "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return v
    }
}
