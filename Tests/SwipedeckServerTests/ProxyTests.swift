import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// Behind a reverse proxy: whose forwarding headers are believed, what the client's address,
/// scheme and host are, and what HTTPS does to cookies.
@Suite("Trusted proxies")
struct ProxyTests {
    @Test("ranges parse as CIDR or single addresses, IPv4 and IPv6; anything else is refused in a sentence")
    func ranges() throws {
        let proxies = try TrustedProxies(parsing: ["10.0.0.0/8", " 192.168.1.7 ", "fd00::/8", "::1", ""])
        #expect(proxies.contains("10.200.3.4"))
        #expect(!proxies.contains("11.0.0.1"))
        #expect(proxies.contains("192.168.1.7") && !proxies.contains("192.168.1.8"))
        #expect(proxies.contains("fd12:3456::1") && !proxies.contains("fe80::1"))
        #expect(proxies.contains("::1") && !proxies.contains("::2"))
        #expect(proxies.contains("::ffff:10.1.2.3"))
        #expect(!proxies.contains("not an address"))
        #expect(!TrustedProxies.none.contains("127.0.0.1"))
        #expect(try TrustedProxies(parsing: ["0.0.0.0/0"]).contains("203.0.113.9"))
        for bad in ["10.0.0.0/33", "example.org", "10.0.0/8", "::1/129", "1.2.3.4/x"] {
            let error = #expect(throws: TrustedProxies.Invalid.self) { try TrustedProxies(parsing: [bad]) }
            #expect(error?.description.contains("is not an IP address or a CIDR range") == true)
        }
    }

    static let proxy = try! TrustedProxies(parsing: ["127.0.0.0/8", "10.0.0.0/8"])

    static func origin(peer: String, _ fields: HTTPFields, publicHTTPS: Bool = false) -> ClientOrigin {
        ClientOrigin.resolve(
            peer: peer, authority: "inner:8080", headers: fields, trusted: proxy, publicHTTPS: publicHTTPS)
    }

    @Test("forwarding headers count from a trusted proxy only; the client is the rightmost address that is no proxy")
    func resolution() {
        let xff = HTTPField.Name("X-Forwarded-For")!
        let proto = HTTPField.Name("X-Forwarded-Proto")!
        let host = HTTPField.Name("X-Forwarded-Host")!
        // From anyone else, the headers are ignored.
        let forged = Self.origin(peer: "198.51.100.9", [xff: "203.0.113.1", proto: "https", host: "evil.example"])
        #expect(forged == ClientOrigin(address: "198.51.100.9", https: false, host: "inner:8080"))
        // A client's own claim left of the proxy's entry gains nothing.
        let chained = Self.origin(
            peer: "127.0.0.1", [xff: "1.2.3.4, 203.0.113.7, 10.0.0.2", proto: "https", host: "decks.example.org"])
        #expect(chained == ClientOrigin(address: "203.0.113.7", https: true, host: "decks.example.org"))
        // Every entry a proxy: the leftmost; an entry that is no address: the peer.
        #expect(Self.origin(peer: "127.0.0.1", [xff: "10.1.1.1, 10.0.0.2"]).address == "10.1.1.1")
        #expect(Self.origin(peer: "127.0.0.1", [xff: "unknown"]).address == "127.0.0.1")
        // RFC 7239, with a quoted IPv6 node and a port, from a proxy that sets only it.
        let forwarded = Self.origin(
            peer: "10.9.9.9", [.init("Forwarded")!: #"for="[2001:db8::17]:4711";proto=https;host=decks.example.org"#])
        #expect(forwarded == ClientOrigin(address: "2001:db8::17", https: true, host: "decks.example.org"))
        // A proxy that sets X-Forwarded-* passes a client's own Forwarded on: it is not read (field test).
        let smuggled = Self.origin(
            peer: "127.0.0.1",
            [.init("Forwarded")!: "for=10.77.1.2;proto=http;host=evil.example", xff: "203.0.113.50", proto: "https"])
        #expect(smuggled == ClientOrigin(address: "203.0.113.50", https: true, host: "inner:8080"))
        #expect(
            Self.origin(peer: "127.0.0.1", [.init("Forwarded")!: "for=192.0.2.60:8080, for=10.0.0.3"]).address
                == "192.0.2.60")
        // The nearest proxy's scheme; an https public URL makes every request https.
        #expect(!Self.origin(peer: "127.0.0.1", [proto: "https, http"]).https)
        #expect(Self.origin(peer: "198.51.100.9", [:], publicHTTPS: true).https)
    }

    @Test(
        "behind a trusted proxy, two clients have two join budgets; a client forging X-Forwarded-For to the server gains nothing"
    )
    func budgetsPerForwardedClient() async throws {
        // 0.05 joins a second: 3 at once.
        try await withApp(
            {
                $0.port = 0
                $0.mintRateLimit = 0.05
                $0.trustedProxies = Self.proxy
            }, testing: .live
        ) { client, _ in
            _ = try await client.makeDeck("event", titles: ["a"])
            let xff = HTTPField.Name("X-Forwarded-For")!
            func join(_ address: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/api/v1/decks/event/participants", method: .post, headers: [xff: address]
                ).status
            }
            var first: [HTTPResponse.Status] = []
            for _ in 0..<4 { first.append(try await join("203.0.113.5")) }
            #expect(first == [.created, .created, .created, .tooManyRequests])
            #expect(try await join("198.51.100.20") == .created)
        }
        try await withApp(
            {
                $0.port = 0
                $0.mintRateLimit = 0.05
            }, testing: .live
        ) { client, _ in
            _ = try await client.makeDeck("event", titles: ["a"])
            var statuses: [HTTPResponse.Status] = []
            for i in 0..<8 {
                statuses.append(
                    try await client.execute(
                        uri: "/api/v1/decks/event/participants", method: .post,
                        headers: [.init("X-Forwarded-For")!: "203.0.113.\(i)"]
                    ).status)
            }
            // `makeDeck`'s reads took none; the socket peer's budget runs out whatever the header says.
            #expect(statuses.filter { $0 == .created }.count <= 3)
            #expect(statuses.last == .tooManyRequests)
        }
    }

    static func setCookies(_ r: TestResponse) -> [String] {
        r.headers[values: .setCookie]
    }

    @Test(
        "with an https public URL, cookies are __Host- and Secure, read back by that name only; --hsts adds Strict-Transport-Security"
    )
    func secureCookies() async throws {
        try await withApp({
            $0.publicBaseURL = "https://decks.example.org"
            $0.hsts = true
        }) { client, env in
            let ids = try await client.makeDeck("s", titles: ["a", "b"])
            let page = try await client.get("/d/s")
            let set = try #require(Self.setCookies(page).first)
            #expect(set.hasPrefix("__Host-sd_pid=") && set.hasSuffix("; Secure") && set.contains("Path=/"), "\(set)")
            #expect(page.headers[.strictTransportSecurity] == "max-age=31536000")
            let token = String(set.dropFirst("__Host-sd_pid=".count).prefix { $0 != ";" })
            let body = try swipeBody(card: ids[0], direction: "right", participant: nil)
            let ok = try await client.execute(
                uri: "/api/v1/decks/s/swipes", method: .post,
                headers: merged(jsonType, [.cookie: "__Host-sd_pid=\(token)"]),
                body: ByteBuffer(string: body))
            #expect(ok.status == .created)
            // The bare name, as a plain-HTTP page or a sibling domain could plant it, is not read.
            let bare = try await client.execute(
                uri: "/api/v1/decks/s/swipes", method: .post, headers: merged(jsonType, [.cookie: "sd_pid=\(token)"]),
                body: ByteBuffer(string: try swipeBody(card: ids[1], direction: "right", participant: nil)))
            #expect(bare.status == .badRequest)
            // Nor after a tab, which the cookie parser trims as it trims a space (field test).
            let tabbed = try await client.execute(
                uri: "/api/v1/decks/s/swipes", method: .post,
                headers: merged(jsonType, [.cookie: "a=b;\tsd_pid=\(token)"]),
                body: ByteBuffer(string: try swipeBody(card: ids[1], direction: "right", participant: nil)))
            #expect(tabbed.status == .badRequest)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 1)
        }
        try await withApp { client, _ in
            let page = try await client.get("/")
            let set = try #require(Self.setCookies(page).first)
            #expect(set.hasPrefix("sd_pid=") && !set.contains("Secure"))
            #expect(page.headers[.strictTransportSecurity] == nil)
        }
    }

    @Test("a trusted proxy's X-Forwarded-Proto: https makes cookies Secure; the same header from anyone else does not")
    func forwardedHTTPS() async throws {
        let proto: HTTPFields = [.init("X-Forwarded-Proto")!: "https"]
        try await withApp(
            {
                $0.port = 0
                $0.trustedProxies = Self.proxy
                $0.hsts = true
            }, testing: .live
        ) { client, _ in
            let page = try await client.get("/", headers: proto)
            #expect(Self.setCookies(page).first?.hasPrefix("__Host-sd_pid=") == true)
            #expect(Self.setCookies(page).first?.hasSuffix("; Secure") == true)
            #expect(page.headers[.strictTransportSecurity] != nil)
        }
        try await withApp(
            {
                $0.port = 0
                $0.hsts = true
            }, testing: .live
        ) { client, _ in
            let page = try await client.get("/", headers: proto)
            #expect(Self.setCookies(page).first?.hasPrefix("sd_pid=") == true)
            #expect(page.headers[.strictTransportSecurity] == nil)
        }
    }

    @Test(
        "a browser POST is same-origin for the forwarded host and for the public URL's host, and cross-origin otherwise"
    )
    func sameOrigin() async throws {
        try await withApp(
            {
                $0.port = 0
                $0.trustedProxies = Self.proxy
                $0.publicBaseURL = "https://decks.example.org"
            }, testing: .live
        ) { client, _ in
            let ids = try await client.makeDeck("o", titles: ["a", "b", "c"])
            func post(_ card: Int64, _ fields: HTTPFields) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: "/api/v1/decks/o/swipes", method: .post, headers: merged(jsonType, fields),
                    body: ByteBuffer(string: try swipeBody(card: card, direction: "right", participant: "o1"))
                ).status
            }
            #expect(try await post(ids[0], [.origin: "https://decks.example.org"]) == .created)
            #expect(
                try await post(
                    ids[1], [.origin: "https://other.example:8443", .init("X-Forwarded-Host")!: "other.example:8443"])
                    == .created)
            #expect(try await post(ids[2], [.origin: "https://evil.example"]) == .forbidden)
        }
    }
}
