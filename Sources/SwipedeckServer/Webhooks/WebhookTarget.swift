import Foundation
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A webhook URL as the server may call it: `http` or `https`, a host, no user or password,
/// and — unless the server runs with `--webhook-allow-private` — no address that reaches the
/// server's own side of the network (`IPAddress.refusal`), neither as written nor as its name
/// resolves. Checked at registration and again before every attempt (a name may be re-pointed
/// at an internal address after registration: DNS rebinding).
public struct WebhookTarget: Sendable, Hashable {
    public var url: URL
    public var scheme: String
    public var host: String
    public var port: Int

    /// Longest URL accepted, characters.
    public static let maxLength = 2000

    /// Why a URL cannot be a hook's target; `code` names the rule (an `ApiError` field code).
    public enum Problem: Error, Sendable, Hashable {
        case malformed
        case scheme
        case credentials
        case unresolvable(String)
        case refused(host: String, address: String, range: IPAddress.Range)

        public var code: String {
            switch self {
            case .malformed: return "invalid_url"
            case .scheme: return "webhook_url_scheme"
            case .credentials: return "webhook_url_credentials"
            case .unresolvable: return "webhook_host_unresolvable"
            case .refused: return "webhook_private_address"
            }
        }

        /// The problem in a sentence, for the API and next to the form's field.
        public var message: String {
            switch self {
            case .malformed:
                return
                    "Give the URL in full, such as https://example.org/hooks/swipedeck (at most \(WebhookTarget.maxLength) characters)."
            case .scheme: return "The URL must start with http:// or https://."
            case .credentials: return "The URL must not carry a user name or password; the signature proves the sender."
            case .unresolvable(let host): return "The host \(host) cannot be resolved to an address."
            case .refused(let host, let address, let range):
                // A name is not followed by the address it resolved to: the answer would map the
                // server's inside for whoever registers names pointing at it.
                let resolved = host == address ? address : "\(host) resolves to an address that"
                return
                    "\(resolved) is \(range.words): webhooks reach public addresses only, unless the server runs with --webhook-allow-private."
            }
        }
    }

    /// Parses `text` as a target (no address checks: `check`).
    public init(parsing text: String) throws(Problem) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= Self.maxLength, let components = URLComponents(string: trimmed),
            let url = components.url
        else { throw .malformed }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .scheme
        }
        guard components.user == nil, components.password == nil else { throw .credentials }
        guard var host = components.host, !host.isEmpty else { throw .malformed }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.url = url
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
        guard (1...65535).contains(port) else { throw .malformed }
    }

    /// The addresses the target's host stands for, each allowed (`allowPrivate` skips the
    /// ranges, not the resolution).
    /// - Throws: `.unresolvable`, or `.refused` naming the first address in a refused range.
    public func check(resolver: any HostResolver, allowPrivate: Bool) async throws(Problem) -> [IPAddress] {
        let addresses: [IPAddress]
        if let literal = IPAddress(host) {
            addresses = [literal]
        } else {
            do {
                addresses = try await resolver.addresses(of: host, port: port)
            } catch {
                throw .unresolvable(host)
            }
        }
        guard !addresses.isEmpty else { throw .unresolvable(host) }
        if !allowPrivate {
            for address in addresses {
                if let range = address.refusal {
                    throw .refused(host: host, address: address.description, range: range)
                }
            }
        }
        return addresses
    }

    /// The URL to connect to for an `http` target: the host replaced by `address`, so the
    /// connection goes to the address just checked and a second lookup cannot be re-pointed
    /// (the `Host` header keeps the name). `https` keeps its name: the certificate must match it,
    /// which an internal address re-pointed to cannot present.
    public func pinned(to address: IPAddress) -> (url: String, host: String?) {
        guard scheme == "http", IPAddress(host) == nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return (url.absoluteString, nil) }
        components.host = address.isV6 ? "[\(address)]" : address.description
        let defaultPort = port == 80
        return (components.url?.absoluteString ?? url.absoluteString, defaultPort ? host : "\(host):\(port)")
    }
}

/// Looks host names up (`getaddrinfo`); tests pass their own.
public protocol HostResolver: Sendable {
    func addresses(of host: String, port: Int) async throws -> [IPAddress]
}

/// The system's resolver (`getaddrinfo`, which blocks), run on NIO's thread pool so it never
/// holds a thread of the concurrency pool.
public struct SystemResolver: HostResolver {
    public init() {}

    struct Failure: Error { let code: Int32 }

    public func addresses(of host: String, port: Int) async throws -> [IPAddress] {
        try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else { throw Failure(code: status) }
            defer { freeaddrinfo(first) }
            var found: [IPAddress] = []
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let info = next {
                if let address = info.pointee.ai_addr, let ip = IPAddress(sockaddr: address) { found.append(ip) }
                next = info.pointee.ai_next
            }
            return found
        }
    }
}

/// An IPv4 or IPv6 address, and the ranges a webhook may not reach.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    case v4(UInt32)
    /// 16 bytes, network order.
    case v6([UInt8])

    /// A refused range, named for the message.
    public enum Range: String, Sendable, Hashable, CaseIterable {
        case unspecified, loopback, privateNetwork, sharedAddressSpace, linkLocal, metadata, multicast, reserved,
            uniqueLocal, siteLocal

        /// The range in words ("a private address").
        public var words: String {
            switch self {
            case .unspecified: return "an unspecified address"
            case .loopback: return "a loopback address"
            case .privateNetwork: return "a private address"
            case .sharedAddressSpace: return "a carrier-grade NAT address (100.64.0.0/10)"
            case .linkLocal: return "a link-local address"
            case .metadata: return "a cloud metadata address"
            case .multicast: return "a multicast or broadcast address"
            case .reserved: return "a reserved address"
            case .uniqueLocal: return "a unique local IPv6 address (fc00::/7)"
            case .siteLocal:
                return "a site-local IPv6 address (fec0::/10, deprecated but still routed inside some sites)"
            }
        }
    }

    /// Parses a literal address (dotted quad or IPv6 text, without brackets); nil otherwise.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = .v4(UInt32(bigEndian: v4.s_addr))
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    init?(sockaddr pointer: UnsafeMutablePointer<sockaddr>) {
        switch Int32(pointer.pointee.sa_family) {
        case AF_INET:
            let address = pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            self = .v4(UInt32(bigEndian: address.s_addr))
        case AF_INET6:
            var address = pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self = .v6(withUnsafeBytes(of: &address) { Array($0) })
        default:
            return nil
        }
    }

    public var isV6: Bool { if case .v6 = self { return true } else { return false } }

    public var description: String {
        switch self {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
        case .v6(let bytes):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { raw in
                for (i, byte) in bytes.prefix(16).enumerated() { raw[i] = byte }
            }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else { return "?" }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The refused range the address lies in; nil for a public address. IPv4-mapped
    /// (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible, NAT64
    /// (`64:ff9b::/96`) and 6to4 (`2002::/16`) IPv6 addresses are judged by the IPv4 address they
    /// carry.
    public var refusal: Range? {
        switch self {
        case .v4(let a): return Self.refusal(v4: a)
        case .v6(let b):
            let prefix96 = b.prefix(12)
            let embedded = UInt32(b[12]) << 24 | UInt32(b[13]) << 16 | UInt32(b[14]) << 8 | UInt32(b[15])
            // ::ffff:0:0/96 (mapped), ::ffff:0:0:0/96 (translated), 64:ff9b::/96 (NAT64).
            if prefix96.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF])
                || prefix96.elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0])
                || prefix96.elementsEqual([0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0])
            {
                return Self.refusal(v4: embedded)
            }
            // 2002::/16 (6to4): the IPv4 address in bytes 2–5.
            if b[0] == 0x20 && b[1] == 0x02 {
                let v4 = UInt32(b[2]) << 24 | UInt32(b[3]) << 16 | UInt32(b[4]) << 8 | UInt32(b[5])
                return Self.refusal(v4: v4)
            }
            // 64:ff9b:1::/48 (local-use NAT64, translating to whatever the site chose),
            // 100::/64 (discard-only), 2001:db8::/32 (documentation), 2001::/23 (IETF protocol
            // assignments, Teredo's embedded IPv4 among them): IANA's special-purpose registry.
            if b.prefix(6).elementsEqual([0, 0x64, 0xFF, 0x9B, 0, 0x01])
                || b.prefix(8).elementsEqual([0x01, 0, 0, 0, 0, 0, 0, 0])
                || b.prefix(4).elementsEqual([0x20, 0x01, 0x0D, 0xB8])
                || (b[0] == 0x20 && b[1] == 0x01 && b[2] & 0xFE == 0)
            {
                return .reserved
            }
            if b.allSatisfy({ $0 == 0 }) { return .unspecified }
            if b.prefix(15).allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
            // ::a.b.c.d (deprecated IPv4-compatible): the IPv4 address it carries.
            if prefix96.allSatisfy({ $0 == 0 }) { return Self.refusal(v4: embedded) ?? .reserved }
            // fd00:ec2::254, AWS's IPv6 instance metadata (inside fc00::/7, named apart).
            if b == [0xFD, 0, 0x0E, 0xC2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54] { return .metadata }
            if b[0] & 0xFE == 0xFC { return .uniqueLocal }
            if b[0] == 0xFE && b[1] & 0xC0 == 0x80 { return .linkLocal }
            // fec0::/10: site-local, deprecated by RFC 3879 yet still configured on some internal networks.
            if b[0] == 0xFE && b[1] & 0xC0 == 0xC0 { return .siteLocal }
            if b[0] == 0xFF { return .multicast }
            return nil
        }
    }

    /// IPv4 ranges (RFC 6890's special-purpose registry, the parts that reach inwards).
    static func refusal(v4 a: UInt32) -> Range? {
        func within(_ network: UInt32, _ bits: UInt32) -> Bool {
            let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
            return a & mask == network
        }
        if a == 0xA9FE_A9FE { return .metadata }  // 169.254.169.254
        if within(0x0000_0000, 8) { return .unspecified }  // 0.0.0.0/8 ("this network")
        if within(0x7F00_0000, 8) { return .loopback }  // 127.0.0.0/8
        if within(0x0A00_0000, 8) || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) { return .privateNetwork }
        if within(0x6440_0000, 10) { return .sharedAddressSpace }  // 100.64.0.0/10
        if within(0xA9FE_0000, 16) { return .linkLocal }  // 169.254.0.0/16
        if within(0xE000_0000, 4) || a == 0xFFFF_FFFF { return .multicast }  // 224.0.0.0/4, broadcast
        // 192.0.0.0/24 (protocol assignments), 198.18.0.0/15 (benchmarking), 240.0.0.0/4 (reserved).
        if within(0xC000_0000, 24) || within(0xC612_0000, 15) || within(0xF000_0000, 4) { return .reserved }
        // TEST-NET-1, -2, -3 (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24: documentation).
        if within(0xC000_0200, 24) || within(0xC633_6400, 24) || within(0xCB00_7100, 24) { return .reserved }
        return nil
    }
}

/// The target check as the API and the owner's page run it at registration: parse, resolve,
/// and refuse inward addresses unless `allowPrivate`.
struct WebhookTargetCheck: Sendable {
    let resolver: any HostResolver
    let allowPrivate: Bool

    /// The target `text` names, checked. - Throws: `WebhookTarget.Problem`.
    func check(_ text: String) async throws(WebhookTarget.Problem) -> WebhookTarget {
        let target = try WebhookTarget(parsing: text)
        _ = try await target.check(resolver: resolver, allowPrivate: allowPrivate)
        return target
    }
}
