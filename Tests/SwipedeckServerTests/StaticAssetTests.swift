import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// Issue 13, served lean: static files under content-hashed, immutable URLs, precompressed; large
/// HTML and JSON gzipped when the client takes it; the results table paged.
@Suite("Static files and compression")
struct StaticAssetTests {
    static let gzip: HTTPFields = [.acceptEncoding: "gzip, deflate, br"]

    static func gunzip(_ response: TestResponse) throws -> String {
        var body = response.body
        return String(buffer: try body.decompress(with: .gzip()))
    }

    /// The hashed URLs a page names for its stylesheets and scripts.
    static func assetURLs(_ html: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: #"(?:href|src)="(/(?:css|js)/[^"]+)""#)
        return regex.matches(in: html, range: NSRange(html.startIndex..., in: html)).map {
            String(html[Range($0.range(at: 1), in: html)!])
        }
    }

    @Test("the deck page names hashed URLs only, physics.js and queue.js preloaded; each is immutable and gzipped")
    func hashedURLs() async throws {
        try await withApp { client, _ in
            let html = try await client.get("/d/getaways").text
            let urls = Self.assetURLs(html)
            #expect(urls.count >= 7, "\(urls)")
            for url in urls {
                #expect(
                    url.range(of: #"\.[0-9a-f]{10}\.(css|js)$"#, options: .regularExpression) != nil,
                    "not hashed: \(url)")
                let r = try await client.get(url, headers: Self.gzip)
                #expect(r.status == .ok, "\(url)")
                #expect(r.headers[.cacheControl] == "public, max-age=31536000, immutable", "\(url)")
                if r.headers[.contentEncoding] == "gzip" {
                    #expect(r.headers[.vary] == "Accept-Encoding", "\(url)")
                    let plain = try await client.get(url)
                    #expect(plain.headers[.contentEncoding] == nil)
                    #expect(try Self.gunzip(r) == plain.text, "\(url)")
                    #expect(r.body.readableBytes < plain.body.readableBytes)
                    #expect(r.headers[.eTag] != plain.headers[.eTag], "one ETag per encoding")
                }
            }
            #expect(html.contains(#"<link rel="modulepreload" href="/js/physics."#))
            #expect(html.contains(#"<link rel="modulepreload" href="/js/queue."#))
            #expect(!html.contains(#"href="/css/app.css""#) && !html.contains(#"src="/js/deck.js""#))
            let gzipped = try await client.get(
                try #require(urls.first { $0.hasPrefix("/js/deck.") }), headers: Self.gzip)
            #expect(gzipped.headers[.contentEncoding] == "gzip")
        }
    }

    @Test("a hashed script imports its modules by their hashed URLs; a stylesheet names hashed images")
    func rewrittenReferences() async throws {
        try await withApp { client, _ in
            let html = try await client.get("/d/getaways").text
            let deck = try #require(Self.assetURLs(html).first { $0.hasPrefix("/js/deck.") })
            let script = try await client.get(deck).text
            let queue = try #require(Self.assetURLs(html).first { $0.hasPrefix("/js/queue.") })
            #expect(script.contains("from './\(queue.dropFirst(4))';"), "deck.js imports \(queue)")
            #expect(!script.contains("'./queue.js'"))
            let css = try #require(Self.assetURLs(html).first { $0.hasPrefix("/css/app.") })
            let sheet = try await client.get(css).text
            // Relative to the stylesheet (`/css/`), so a server under `--base-path` serves it too.
            #expect(sheet.range(of: #"url\(\.\./img/empty\.[0-9a-f]{10}\.svg\)"#, options: .regularExpression) != nil)
        }
    }

    @Test("plain URLs still work, revalidated: no-cache, an ETag and 304 on a match; unknown static paths are 404")
    func plainURLs() async throws {
        try await withApp { client, _ in
            let r = try await client.get("/js/deck.js")
            #expect(r.status == .ok)
            #expect(r.headers[.cacheControl] == "no-cache")
            #expect(r.contentType == "text/javascript; charset=utf-8")
            let etag = try #require(r.headers[.eTag])
            let again = try await client.get("/js/deck.js", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            let head = try await client.execute(uri: "/css/app.css", method: .head, headers: Self.gzip)
            #expect(head.status == .ok && head.body.readableBytes == 0 && head.headers[.contentEncoding] == "gzip")
            for uri in ["/js/nope.js", "/css/stack/nope.css", "/img/nope.svg"] {
                #expect(try await client.get(uri).status == .notFound, "\(uri)")
            }
            // Pages get the HTML error page, the API its JSON error; neither reads a file.
            for uri in ["/img/../Package.swift", "/js/%2E%2E/%2e%2e/etc/passwd", "/d/./getaways"] {
                let r = try await client.get(uri)
                #expect(r.status == .badRequest, "\(uri)")
                #expect(!r.text.contains("PackageDescription") && !r.text.contains("root:"))
            }
            expectAPIError(try await client.get("/api/v1/decks/../decks"), .badRequest, "invalid_path")
            let stack = try await client.get("/css/stack/standard.css")
            #expect(stack.status == .ok && stack.text.contains(".card{touch-action:none}"))
        }
    }

    @Test("HTML and JSON over 1 KB are gzipped when accepted (q=0 refuses); small answers and streams are not")
    func compression() async throws {
        try await withApp { client, _ in
            let page = try await client.get("/d/getaways", headers: Self.gzip)
            #expect(page.headers[.contentEncoding] == "gzip")
            #expect(page.headers[.vary]?.contains("Accept-Encoding") == true)
            let plain = try await client.get("/d/getaways")
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(try Self.gunzip(page) == plain.text)
            let refused = try await client.get("/d/getaways", headers: [.acceptEncoding: "gzip;q=0, identity"])
            #expect(refused.headers[.contentEncoding] == nil)
            let cards = try await client.get("/api/v1/decks/getaways/cards?limit=20", headers: Self.gzip)
            #expect(cards.headers[.contentEncoding] == "gzip")
            #expect(try JSONSerialization.jsonObject(with: Data(Self.gunzip(cards).utf8)) is [String: Any])
            let health = try await client.get("/healthz", headers: Self.gzip)
            #expect(health.headers[.contentEncoding] == nil, "a small answer stays as it is")
        }
    }

    @Test("Accept-Encoding: gzip or * with a quality above 0")
    func acceptEncoding() {
        #expect(AcceptEncoding.allowsGzip("gzip"))
        #expect(AcceptEncoding.allowsGzip("deflate, gzip;q=0.5"))
        #expect(AcceptEncoding.allowsGzip("*"))
        #expect(!AcceptEncoding.allowsGzip(nil))
        #expect(!AcceptEncoding.allowsGzip("identity"))
        #expect(!AcceptEncoding.allowsGzip("gzip;q=0"))
        #expect(!AcceptEncoding.allowsGzip("*, gzip;q=0"))
        #expect(!AcceptEncoding.allowsGzip("br, *;q=0"))
    }

    @Test("a 1,000-card deck's results page is under 100 KB of HTML: the table is paged")
    func resultsPaged() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck(
                "big", titles: (1...1000).map { "Card number \($0) with a title of some length" })
            let patch = try await client.execute(
                uri: "/api/v1/decks/big", method: .patch, headers: merged(admin, jsonType),
                body: ByteBuffer(string: #"{"resultsPublic":true}"#))
            #expect(patch.status == .ok, "\(patch.text)")
            let first = try await client.get("/d/big/results")
            #expect(first.status == .ok)
            #expect(first.body.readableBytes < 100_000, "\(first.body.readableBytes) bytes")
            #expect(first.text.components(separatedBy: #"<td class="rank">"#).count - 1 == ResultsView.pageSize)
            #expect(first.text.contains("Cards 1–100 of 1000"))
            #expect(first.text.contains(#"href="?page=2" rel="next""#))
            let last = try await client.get("/d/big/results?page=10")
            #expect(last.text.contains("Cards 901–1000 of 1000"))
            #expect(!last.text.contains(#"rel="next""#))
            #expect(last.text.contains(#"data-start="900""#))
            let clamped = try await client.get("/d/big/results?page=99")
            #expect(clamped.text.contains("Cards 901–1000 of 1000"))
            #expect(ids.count == 1000)
        }
    }
}
