/// Results as CSV (RFC 4180 quoting). Cells that a spreadsheet would run as a formula
/// (starting with = + - @ or a tab) are prefixed with a quote.
public enum ResultsCSV {
    /// Counted swipes by direction, then every live swipe by kind (`SwipeKind` order) and their sum.
    public static let header = "rank,card_id,title,likes,total,like_rate,wilson_lower,wilson_upper,left,right,up,down,up_left,up_right,down_left,down_right,"
        + "drag,suspect_drag,button,suspect_button,api,all"

    public static func render(_ r: ResultsReport) -> String {
        var out = header + "\r\n"
        for c in r.cards {
            let dirs = ["left", "right", "up", "down", "up_left", "up_right", "down_left", "down_right"].map { String(c.counts[$0, default: 0]) }
            let kinds = SwipeKind.allCases.map { String(c.kinds[$0.rawValue, default: 0]) } + [String(c.all)]
            let fields = [String(c.rank), String(c.cardId), cell(c.title), String(c.likes), String(c.total), String(c.likeRate), String(c.wilson.lower), String(c.wilson.upper)]
                + dirs + kinds
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
