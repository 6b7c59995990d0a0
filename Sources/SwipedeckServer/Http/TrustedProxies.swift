import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reverse proxies whose forwarding headers are believed (`--trusted-proxy`): address
/// ranges in CIDR notation (`10.0.0.0/8`, `fd00::/8`) or single addresses (`127.0.0.1`, `::1`).
/// An IPv4-mapped IPv6 address (`::ffff:10.1.2.3`) is matched as its IPv4 address.
public struct TrustedProxies: Sendable, Equatable {
    /// One range: the first `prefix` bits of `network` (16 bytes; IPv4 mapped into `::ffff:0:0/96`).
    struct Range: Sendable, Equatable {
        let network: [UInt8]
        let prefix: Int
    }

    let ranges: [Range]

    /// No proxy is trusted: forwarding headers are ignored from everyone (the default).
    public static let none = TrustedProxies(ranges: [])

    init(ranges: [Range]) {
        self.ranges = ranges
    }

    /// Parses ranges such as `127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`; blanks are skipped, so
    /// a comma-separated list with spaces parses whole.
    /// - Throws: `TrustedProxies.Invalid` naming the first entry that is no address or range.
    public init<S: Sequence>(parsing entries: S) throws where S.Element: StringProtocol {
        var ranges: [Range] = []
        for raw in entries {
            let entry = raw.trimmingCharacters(in: .whitespaces)
            if entry.isEmpty { continue }
            let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = Self.bytes(String(parts[0])) else { throw Invalid(entry: entry) }
            let isV4 = !parts[0].contains(":")
            var prefix = 128
            if parts.count == 2 {
                guard let bits = Int(parts[1]), bits >= 0, bits <= (isV4 ? 32 : 128) else {
                    throw Invalid(entry: entry)
                }
                prefix = isV4 ? 96 + bits : bits
            }
            ranges.append(Range(network: Self.masked(bytes, prefix), prefix: prefix))
        }
        self.ranges = ranges
    }

    /// A range that does not parse, in a sentence for the command line.
    public struct Invalid: Error, CustomStringConvertible {
        public let entry: String
        public var description: String {
            "\"\(entry)\" is not an IP address or a CIDR range (such as 10.0.0.0/8 or fd00::/8)."
        }
    }

    /// Whether `address` (an IP address as text) lies in one of the ranges.
    public func contains(_ address: String) -> Bool {
        guard !ranges.isEmpty, let bytes = Self.bytes(address) else { return false }
        return ranges.contains { Self.masked(bytes, $0.prefix) == $0.network }
    }

    /// The 16 bytes of an IPv4 or IPv6 address (IPv4 as `::ffff:a.b.c.d`); nil when it is neither.
    static func bytes(_ text: String) -> [UInt8]? {
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] + withUnsafeBytes(of: &v4) { Array($0) }
        }
        return nil
    }

    /// `bytes` with every bit past the first `prefix` cleared.
    static func masked(_ bytes: [UInt8], _ prefix: Int) -> [UInt8] {
        bytes.enumerated().map { i, byte in
            let kept = min(8, max(0, prefix - 8 * i))
            return kept == 8 ? byte : byte & ~(UInt8(0xFF) >> kept)
        }
    }
}
