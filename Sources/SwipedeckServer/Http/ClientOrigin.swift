import Foundation
import HTTPTypes

/// Who sent a request and how it reached the server: the client's address, whether it came over
/// HTTPS and the host it asked for. From a trusted proxy (`TrustedProxies`) these come from its
/// forwarding headers; from anyone else, from the socket and the request itself, and forwarding
/// headers are ignored (a client cannot claim another address by sending them).
public struct ClientOrigin: Sendable, Equatable {
    /// The client's IP address: the socket peer, or the one a trusted proxy forwarded for.
    public var address: String?
    /// The client reached the server over HTTPS: the public URL is https, or a trusted proxy says so.
    public var https: Bool
    /// The host (and port) the client asked for: `Host`, or a trusted proxy's forwarded host.
    public var host: String?

    /// Resolves a request's origin.
    ///
    /// - The client address is the rightmost forwarded address that is not itself a trusted
    ///   proxy (`X-Forwarded-For` if present, else `Forwarded: for=`): each proxy appends the
    ///   peer it saw, so entries left of the first untrusted one are the client's own claims.
    ///   When every entry is trusted, the leftmost; an entry that is no IP address (`unknown`,
    ///   an obfuscated name) leaves the socket peer.
    /// - The scheme and host are the nearest proxy's (the last `X-Forwarded-Proto` /
    ///   `X-Forwarded-Host` value, else the last `proto=`/`host=` of `Forwarded`).
    ///
    /// The `X-Forwarded-*` headers win because the common proxies (nginx, Caddy, Traefik, HAProxy)
    /// set them and pass a client's own `Forwarded` on untouched: a `Forwarded` header is read only
    /// when the proxy sent no `X-Forwarded-*` one, so a client cannot speak past its proxy with it.
    ///
    /// - Parameters:
    ///   - peer: the socket peer's address (nil in router tests).
    ///   - authority: the host the request names (`Host`, or HTTP/2's `:authority`).
    ///   - publicHTTPS: the configured public URL is https (every request then counts as HTTPS).
    public static func resolve(
        peer: String?, authority: String?, headers: HTTPFields, trusted: TrustedProxies, publicHTTPS: Bool
    ) -> ClientOrigin {
        var origin = ClientOrigin(address: peer, https: publicHTTPS, host: authority)
        guard let peer, trusted.contains(peer) else { return origin }
        let xForwardedFor = headers[values: .xForwardedFor]
        let xProto = Self.lastValue(headers[values: .xForwardedProto])
        let xHost = Self.lastValue(headers[values: .xForwardedHost])
        let proxySetX = !xForwardedFor.isEmpty || xProto != nil || xHost != nil
        let forwarded = proxySetX ? [] : headers[values: .forwarded].flatMap(Self.elements)
        let chain =
            proxySetX
            ? xForwardedFor.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            : forwarded.compactMap { $0["for"] }.map(Self.stripPort)
        if let client = chain.reversed().first(where: { !trusted.contains($0) }) ?? chain.first {
            origin.address = TrustedProxies.bytes(client) == nil ? peer : client
        }
        if let proto = xProto ?? forwarded.last?["proto"] {
            origin.https = publicHTTPS || proto.lowercased() == "https"
        }
        if let host = xHost ?? forwarded.last?["host"], !host.isEmpty {
            origin.host = host
        }
        return origin
    }

    /// The elements of one `Forwarded` field (RFC 7239), each its parameters by lower-cased name,
    /// quotes removed.
    static func elements(_ field: String) -> [[String: String]] {
        field.split(separator: ",").map { element in
            var parameters: [String: String] = [:]
            for pair in element.split(separator: ";") {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
                var value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                parameters[name] = value
            }
            return parameters
        }
    }

    /// `[2001:db8::1]:4711` → `2001:db8::1`; `192.0.2.43:47011` → `192.0.2.43`; anything else as is.
    static func stripPort(_ node: String) -> String {
        if node.hasPrefix("["), let close = node.firstIndex(of: "]") {
            return String(node[node.index(after: node.startIndex)..<close])
        }
        if node.filter({ $0 == ":" }).count == 1, let colon = node.firstIndex(of: ":") { return String(node[..<colon]) }
        return node
    }

    /// The last comma-separated value over all of a header's fields, trimmed.
    static func lastValue(_ fields: [String]) -> String? {
        fields.flatMap { $0.split(separator: ",") }.last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
}

extension HTTPField.Name {
    static let forwarded = HTTPField.Name("Forwarded")!
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let xForwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    static let xForwardedHost = HTTPField.Name("X-Forwarded-Host")!
}
