/// The network a client address belongs to, as the join (mint) budget counts them: one person
/// can hold many addresses of one network (a phone's IPv6 privacy addresses change daily and an
/// ISP hands out whole /64s; one host can bind a /24's worth of IPv4 aliases), so a budget per
/// exact address is one per attempt.
public enum ClientNetwork {
    /// The IPv4 /24 (`203.0.113.0/24`) or IPv6 /64 (`2001:db8:1:2::/64`) of `address`; an
    /// IPv4-mapped IPv6 address counts as its IPv4 address. Anything unparsable is its own key.
    public static func key(_ address: String) -> String {
        var a = Substring(address)
        if a.hasPrefix("::ffff:"), a.contains(".") { a = a.dropFirst(7) }
        if !a.contains(":") {
            let parts = a.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 4 else { return String(a) }
            return parts[0..<3].joined(separator: ".") + ".0/24"
        }
        // Expand `::` to learn the first four groups.
        let halves = a.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false).map {
            $0.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        }
        var groups = halves[0]
        if halves.count == 2 {
            let tail = halves[1]
            groups += Array(repeating: "0", count: max(0, 8 - groups.count - tail.count)) + tail
        }
        guard groups.count >= 4 else { return String(a) }
        return groups[0..<4].map { g in
            let trimmed = g.lowercased().drop { $0 == "0" }
            return trimmed.isEmpty ? "0" : String(trimmed)
        }.joined(separator: ":") + "::/64"
    }
}
