import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Headers, origin checks, rate limits, escaping, routing fallbacks and the "no 5xx" promise.
@Suite("Security and HTTP behaviour")
struct SecurityTests {
    static let xss = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    static let xssEscaped = "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;"

    /// Checks the Content-Security-Policy of a response.
    static func expectCSP(_ r: TestResponse, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let csp = r.headers[.contentSecurityPolicy] ?? ""
        #expect(csp.contains("script-src 'self'"), "\(what): \(csp)", sourceLocation: sourceLocation)
        #expect(!csp.contains("unsafe-inline"), "\(what): \(csp)", sourceLocation: sourceLocation)
        #expect(!csp.contains("unsafe-eval"), "\(what): \(csp)", sourceLocation: sourceLocation)
        #expect(r.headers[.xContentTypeOptions] == "nosniff", "\(what)", sourceLocation: sourceLocation)
    }

    @Test("every response carries a strict Content-Security-Policy (pages, API, errors, static files, redirects)")
    func csp() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("c", titles: ["a"])
            let gets = [
                "/", "/d/c", "/d/c/results", "/d/c/history", "/d/c/cards/\(ids[0])", "/css/stack/standard.css",
                "/healthz",
                "/api/v1/profiles", "/api/v1/decks", "/api/v1/decks/c/cards", "/api/v1/decks/c/results",
                "/api/v1/decks/c/results.csv",
                "/js/boot.js", "/d/nope", "/api/v1/nope", "/nope",
            ]
            for uri in gets { Self.expectCSP(try await client.get(uri), uri) }
            Self.expectCSP(
                try await client.postForm("/d/c/swipe", "card=\(ids[0])&direction=right", headers: cookie("csp")),
                "form swipe")
            Self.expectCSP(try await client.postJSON("/api/v1/decks/c/swipes", "{"), "malformed")
            Self.expectCSP(try await client.postJSON("/api/v1/decks", "{}"), "unauthorized")
            Self.expectCSP(
                try await client.postJSON("/api/v1/decks/c/swipes", "{}", headers: [.origin: "http://evil.example"]),
                "cross origin")
        }
    }

    @Test("static files are served from Public/")
    func staticFiles() async throws {
        try await withApp { client, _ in
            let r = try await client.get("/js/boot.js")
            #expect(r.status == .ok)
            #expect(r.contentType.contains("javascript"))
            #expect(try await client.get("/js/physics.js").status == .ok)
        }
    }

    @Test("a cross-origin POST is 403 cross_origin; same origin and no origin pass")
    func crossOrigin() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("o", titles: ["a", "b", "c"])
            let evil: HTTPFields = [.origin: "http://evil.example"]
            expectAPIError(
                try await client.swipe("o", card: ids[0], direction: "right", headers: evil), .forbidden, "cross_origin"
            )
            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/x", method: .delete, headers: evil), .forbidden,
                "cross_origin")
            expectAPIError(
                try await client.swipe("o", card: ids[0], direction: "right", headers: [.origin: "null"]), .forbidden,
                "cross_origin")
            expectAPIError(
                try await client.swipe(
                    "o", card: ids[0], direction: "right", headers: [.init("Sec-Fetch-Site")!: "cross-site"]),
                .forbidden,
                "cross_origin")
            expectAPIError(
                try await client.swipe(
                    "o", card: ids[0], direction: "right", headers: [.origin: "http://localhost.evil.example"]),
                .forbidden,
                "cross_origin")
            // The form post from another site gets the HTML error page.
            let form = try await client.postForm(
                "/d/o/swipe", "card=\(ids[0])&direction=right", headers: merged(evil, cookie("victim")))
            #expect(form.status == .forbidden)
            #expect(form.contentType.hasPrefix("text/html"))
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
            // Reads from anywhere are fine.
            #expect(try await client.get("/api/v1/decks/o", headers: evil).status == .ok)

            // The router tests' requests have authority "localhost".
            let same = try await client.swipe(
                "o", card: ids[0], direction: "right", headers: [.origin: "http://localhost"])
            #expect(same.status == .created)
            let sameSite = try await client.swipe(
                "o", card: ids[1], direction: "right", headers: [.init("Sec-Fetch-Site")!: "same-origin"])
            #expect(sameSite.status == .created)
            #expect(try await client.swipe("o", card: ids[2], direction: "right").status == .created)
        }
    }

    @Test(
        "rate limit: 429 with Retry-After for state-changing requests of one participant; reads and others unaffected")
    func rateLimit() async throws {
        // 0.25 per second, burst 1: the second write within 4 s is limited, however slow the machine.
        try await withApp({ $0.participantRateLimit = 0.25 }) { client, env in
            let ids = try await client.makeDeck("rl", titles: ["a", "b", "c"])
            let me = cookie("speedy")
            let first = try await client.swipe("rl", card: ids[0], direction: "right", participant: nil, headers: me)
            #expect(first.status == .created)
            let firstId = try #require(try first.json()["swipe"]["id"].string)
            let limited = try await client.swipe("rl", card: ids[1], direction: "right", participant: nil, headers: me)
            expectAPIError(limited, .tooManyRequests, "rate_limited")
            let retry = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect(retry >= 1 && retry <= 4)
            // Forms and undo are state-changing too; pages get the HTML error with Retry-After.
            let form = try await client.postForm("/d/rl/swipe", "card=\(ids[1])&direction=left", headers: me)
            #expect(form.status == .tooManyRequests)
            #expect(form.contentType.hasPrefix("text/html"))
            #expect(form.headers[.retryAfter] != nil)
            #expect(
                try await client.execute(uri: "/api/v1/swipes/\(firstId)", method: .delete, headers: me).status
                    == .tooManyRequests)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM swipes WHERE participantId = ? AND undoneAt IS NULL",
                    [try await identity("speedy", in: "rl", env)]) == 1)
            // Reads are not limited.
            for _ in 0..<10 { #expect(try await client.get("/d/rl", headers: me).status == .ok) }
            // Another participant has its own budget.
            #expect(
                try await client.swipe(
                    "rl", card: ids[0], direction: "right", participant: nil, headers: cookie("calm")
                ).status == .created)
        }
    }

    @Test("rate limit 1 per second: the burst of 4 decisions passes, then 429; a second later one more passes")
    func rateLimitBurst() async throws {
        let clock = TestClock()
        try await withApp({ $0.participantRateLimit = 1 }, clock: clock.read) { client, _ in
            let ids = try await client.makeDeck("rb", titles: ["a"])
            let me = cookie("bursty")
            // Cheap decisions (undos of one swipe: the first undoes it, the rest answer it as it is), all
            // at one moment of the clock; the swipe itself was the first of the four.
            let made = try await client.swipe(
                "rb", card: ids[0], direction: "right", input: "button", trace: nil, participant: nil, headers: me)
            let id = try #require(try made.json()["swipe"]["id"].string)
            func undo() async throws -> TestResponse {
                try await client.execute(uri: "/api/v1/swipes/\(id)", method: .delete, headers: me)
            }
            for _ in 1...3 { #expect(try await undo().status == .ok) }
            let limited = try await undo()
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "1")
            clock.advance(by: 1)
            #expect(try await undo().status == .ok)
            #expect(try await undo().status == .tooManyRequests)
        }
    }

    @Test("a card title with markup renders escaped on every page")
    func xssEscaped() async throws {
        try await withApp { client, _ in
            let body = try jsonString([
                "slug": "x", "title": "Deck " + Self.xss, "description": Self.xss,
                "labels": ["left": "<b>NO</b>"],
                "cards": [["title": Self.xss, "subtitle": Self.xss, "body": Self.xss]],
            ])
            #expect(try await client.createDeck(body).status == .created)
            let id = try #require(try await client.cardIds("x").first)
            let me = cookie("xss")
            #expect(
                try await client.postForm("/d/x/swipe", "card=\(id)&direction=right", headers: me).status == .seeOther)

            // Deck page before the swipe (somebody else), results, history, detail, index.
            let pages = [
                ("deck", try await client.get("/d/x", headers: cookie("fresh"))),
                ("results", try await client.get("/d/x/results", headers: admin)),
                ("history", try await client.get("/d/x/history", headers: me)),
                ("detail", try await client.get("/d/x/cards/\(id)")),
                ("index", try await client.get("/")),
            ]
            for (name, r) in pages {
                #expect(r.status == .ok, "\(name)")
                #expect(!r.text.contains(Self.xss), "\(name) has the raw markup")
                #expect(!r.text.contains("<img src=x"), "\(name) has the raw markup")
                #expect(!r.text.contains("<script>alert"), "\(name) has the raw markup")
                #expect(r.text.contains(Self.xssEscaped), "\(name) lacks the escaped form")
            }
            let deck = pages[0].1.text
            #expect(deck.contains(#"dir="auto">\#(Self.xssEscaped)</h2>"#))
            #expect(!deck.contains("<b>NO</b>"))
            #expect(deck.contains("&lt;b&gt;NO&lt;/b&gt;"))
            let results = pages[1].1.text
            // The chart: the whole title as the bar's tooltip, its first 21 characters and "…" as the label.
            #expect(results.contains("<title>\(Self.xssEscaped)</title>"))
            #expect(results.contains(">&lt;script&gt;alert(1)&lt;/scr…</text>"))
            // The only <script> elements are the page's own.
            for (name, r) in pages {
                let scripts = r.text.components(separatedBy: "<script").dropFirst()
                for s in scripts {
                    let own =
                        s.hasPrefix(#" type="module" src="/js/"#) || s.hasPrefix(#" src="/js/turn."#)
                        || s.hasPrefix(#" type="application/json" id=""#)
                    #expect(own, "\(name): <script\(s.prefix(60))")
                }
            }
        }
    }

    @Test("unknown routes: JSON 404 under /api, the HTML page elsewhere; wrong method is 404 too")
    func unknownRoutes() async throws {
        try await withApp { client, _ in
            expectAPIError(try await client.get("/api/v1/nope"), .notFound, "not_found")
            expectAPIError(try await client.get("/api/v2/decks"), .notFound, "not_found")
            expectAPIError(try await client.execute(uri: "/api/v1/profiles", method: .put), .notFound, "not_found")
            let page = try await client.get("/nope")
            #expect(page.status == .notFound)
            #expect(page.contentType.hasPrefix("text/html"))
            #expect(page.text.contains("<h1>404</h1>"))
            // A client asking for JSON gets JSON anywhere.
            expectAPIError(
                try await client.get("/nope", headers: [.accept: "application/json"]), .notFound, "not_found")
        }
    }

    @Test("a participant cookie is set (HttpOnly, SameSite=Lax) when missing and kept when valid")
    func participantCookie() async throws {
        try await withApp { client, _ in
            let r = try await client.get("/")
            let set = try #require(r.headers[.setCookie])
            #expect(set.hasPrefix("sd_pid=b"))
            #expect(set.contains("HttpOnly"))
            #expect(set.lowercased().contains("samesite=lax"))
            #expect(try await client.get("/", headers: cookie("known")).headers[.setCookie] == nil)
            // An invalid cookie value is replaced.
            #expect(try await client.get("/", headers: [.cookie: "sd_pid=bad.value"]).headers[.setCookie] != nil)
        }
    }

    @Test("an error answers a request without a cookie with the cookie too (404 page, API 404, thrown 422)")
    func participantCookieOnErrors() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("e", titles: ["a"])
            let errors = [
                ("404 page", try await client.get("/nope")),
                ("unknown deck page", try await client.get("/d/nope")),
                ("API 404", try await client.get("/api/v1/nope")),
                ("API 400", try await client.get("/api/v1/decks/e/cards?limit=0")),
            ]
            for (what, r) in errors {
                #expect(r.status.code >= 400, "\(what): \(r.status.code)")
                let set = r.headers[.setCookie] ?? ""
                #expect(set.hasPrefix("sd_pid=b"), "\(what): Set-Cookie \(set)")
                #expect(set.contains("HttpOnly"), "\(what)")
                #expect(set.lowercased().contains("samesite=lax"), "\(what)")
            }
            expectAPIError(errors[3].1, .badRequest, "invalid_limit")
            // A POST never mints a participant: without cookie or body participant it is refused.
            let post = try await client.swipe(
                "e", card: ids[0], direction: "left", trace: rightDrag(), participant: nil)
            expectAPIError(post, .badRequest, "participant_required")
            #expect(post.headers[.setCookie] == nil)
            // A request that carried a valid cookie gets none back, error or not.
            #expect(try await client.get("/nope", headers: cookie("known")).headers[.setCookie] == nil)
            #expect(try await client.get("/api/v1/nope", headers: cookie("known")).headers[.setCookie] == nil)
            // Static assets never mint a participant (shared caches may keep them), missing ones neither.
            for uri in ["/js/deck.js", "/css/app.css", "/css/stack/standard.css", "/openapi.json", "/js/nope.js"] {
                let r = try await client.get(uri)
                #expect(r.headers[.setCookie] == nil, "\(uri): \(r.headers[.setCookie] ?? "")")
            }
            #expect(try await client.get("/").headers[.setCookie]?.hasPrefix("sd_pid=b") == true)
        }
    }

    /// The fields of `fields` as "name: value" lines, sorted (order-insensitive comparison).
    static func fieldLines(_ fields: HTTPFields) -> [String] {
        fields.map { "\($0.name.canonicalName): \($0.value)" }.sorted()
    }

    @Test("HEAD answers like GET (pages, API, static files, errors): same status and headers, no body")
    func headLikeGet() async throws {
        try await withApp { client, _ in
            let uris = [
                "/", "/d/getaways", "/owner/sign-in", "/d/getaways/history", "/css/stack/standard.css", "/healthz",
                "/api/v1/profiles", "/api/v1/decks/getaways", "/api/v1/decks/getaways/cards?limit=3",
                "/api/v1/decks/getaways/results.csv",
                "/openapi.json", "/js/boot.js", "/css/app.css", "/img/logo.svg", "/nope", "/d/nope", "/api/v1/nope",
                "/api/v1/decks/getaways/swipes",
            ]
            for uri in uris {
                let get = try await client.get(uri, headers: cookie("header"))
                let head = try await client.execute(uri: uri, method: .head, headers: cookie("header"))
                #expect(head.status == get.status, "\(uri): HEAD \(head.status.code), GET \(get.status.code)")
                #expect(head.body.readableBytes == 0, "\(uri): HEAD has a body")
                #expect(get.body.readableBytes > 0, "\(uri): GET has no body")
                #expect(
                    head.headers[.contentLength] == String(get.body.readableBytes),
                    "\(uri): Content-Length \(head.headers[.contentLength] ?? "none")")
                #expect(Self.fieldLines(head.headers) == Self.fieldLines(get.headers), "\(uri)")
            }
            // Without a cookie, HEAD assigns one just as GET does.
            let fresh = try await client.execute(uri: "/d/getaways", method: .head)
            #expect(fresh.status == .ok)
            #expect(fresh.headers[.setCookie]?.hasPrefix("sd_pid=b") == true)
        }
    }

    @Test("nothing a client sends yields a 5xx")
    func noServerErrors() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("z", titles: ["a"])
            let card = ids[0]
            let jsonBodies = [
                "", "{", "null", "[]", "0", "\"s\"", "{}", #"{"card":null,"direction":"left"}"#,
                #"{"card":9223372036854775807,"direction":"left","input":"button"}"#,
                #"{"card":-1,"direction":"left","input":"button"}"#,
                #"{"card":1e300,"direction":"left"}"#,
                #"{"card":\#(card),"direction":"right","trace":{"t":[],"x":[],"y":[],"w":400,"h":600,"vw":400,"vh":800,"gx":1,"gy":1}}"#,
                #"{"card":\#(card),"direction":"right","trace":{"t":["-Infinity"],"x":[0],"y":[0],"w":"NaN","h":600,"vw":400,"vh":800,"gx":1,"gy":1}}"#,
                #"{"card":\#(card),"direction":"right","trace":{"t":[1,2],"x":[0,1],"y":[0,1],"w":1e308,"h":1e308,"vw":1e308,"vh":1e308,"gx":0,"gy":0}}"#,
                #"{"card":\#(card),"direction":"right","trace":{"t":[1,1e308],"x":[0,1e308],"y":[0,-1e308],"w":400,"h":600,"vw":400,"vh":800,"gx":0,"gy":0}}"#,
                #"{"card":\#(card),"direction":"right","decisionMs":1e999}"#,
                #"{"card":\#(card),"direction":"\u0000"}"#,
                #"{"swipes":"many"}"#,
                String(repeating: "[", count: 10_000),
            ]
            let posts = [
                "/api/v1/decks/z/swipes", "/api/v1/decks/z/swipes/batch", "/api/v1/swipes/x/flip", "/api/v1/decks",
                "/api/v1/decks/nope/swipes", "/d/z/swipe", "/d/z/undo", "/d/z/swipes/x/undo", "/d/z/swipes/x/flip",
            ]
            for uri in posts {
                for body in jsonBodies {
                    let r = try await client.postJSON(uri, body, headers: [.authorization: "Bearer t0ken"])
                    #expect(r.status.code < 500, "\(uri) \(body.prefix(80)): \(r.status.code) \(r.text.prefix(200))")
                }
                let form = try await client.postForm(uri, "card=%ZZ&direction=&&=&card[]=1")
                #expect(form.status.code < 500, "\(uri) form: \(form.status.code)")
            }
            let gets = [
                "/d/z/cards/99999999999999999999999", "/d/z/cards/-1", "/d/%00", "/d/z/results?x=%ZZ",
                "/api/v1/decks/z/cards?limit=&cursor=",
                "/api/v1/decks/z/cards?limit=%ZZ", "/api/v1/decks/z/history", "/css/stack/.css",
                "/css/stack/..%2F..%2Fetc%2Fpasswd.css",
                "/../../etc/passwd", "/api/v1/profiles/%2e%2e",
            ]
            for uri in gets {
                let r = try await client.get(uri)
                #expect(r.status.code < 500, "\(uri): \(r.status.code) \(r.text.prefix(200))")
                #expect(!r.text.contains("root:x:0:0"), "\(uri)")
            }
            for uri in ["/api/v1/swipes/x", "/api/v1/swipes/%00", "/api/v1/swipes/"] {
                let r = try await client.execute(uri: uri, method: .delete)
                #expect(r.status.code < 500, "DELETE \(uri): \(r.status.code)")
            }
        }
    }
}
