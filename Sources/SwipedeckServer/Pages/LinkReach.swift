import Foundation

/// Who can open a shared link, judged from its host: only this computer (a loopback address
/// or `localhost`), only devices on the same network (a private or link-local address, a
/// `.local` name), or anyone (any other name or address). The share panel warns for the first two.
enum LinkReach: Equatable, Sendable {
    case thisComputer
    case sameNetwork
    case anyone

    /// The reach of `link`'s host (an absolute http(s) URL); `anyone` when it has none.
    init(link: String) {
        guard let host = URL(string: link)?.host?.lowercased() else {
            self = .anyone
            return
        }
        self.init(host: host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")))
    }

    /// The reach of `host`: a name, a dotted IPv4 address or an IPv6 address without brackets.
    init(host: String) {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0.0.0.0" || host == "::" {
            self = .thisComputer
            return
        }
        if host.hasSuffix(".local") || host.hasSuffix(".lan") || host.hasSuffix(".home.arpa") {
            self = .sameNetwork
            return
        }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        if octets.count == 4, octets.allSatisfy({ $0 != nil }) {
            let (a, b) = (octets[0] ?? 0, octets[1] ?? 0)
            switch (a, b) {
            case (127, _): self = .thisComputer
            // RFC 1918 private ranges, link-local (RFC 3927) and carrier-grade NAT (RFC 6598).
            case (10, _), (172, 16...31), (192, 168), (169, 254), (100, 64...127): self = .sameNetwork
            default: self = .anyone
            }
            return
        }
        // IPv6 unique local (fc00::/7) and link-local (fe80::/10) addresses.
        if host.contains(":"), let first = host.split(separator: ":").first, let word = UInt16(first, radix: 16) {
            self = (word & 0xFE00) == 0xFC00 || (word & 0xFFC0) == 0xFE80 ? .sameNetwork : .anyone
            return
        }
        self = .anyone
    }
}
