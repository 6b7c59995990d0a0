import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// `--base-path /decks`: everything under a sub-path.
@Suite("Base path")
struct BasePathTests {
    @Test("only sub-paths of letters, digits and - _ . ~ are taken")
    func validity() {
        for good in ["/decks", "/team/votes", "/a-b_c.d~e"] { #expect(BasePath.isValid(good), "\(good)") }
        for bad in ["", "/", "decks", "/decks/", "//decks", "/de cks", "/../x", "/a/./b", "/d%2F"] {
            #expect(!BasePath.isValid(bad), "\(bad)")
        }
    }

    @Test("pages, assets, the API, redirects, cookies and share links live under the base path; the root is a 404")
    func underSubPath() async throws {
        try await withApp({ $0.basePath = "/decks" }) { client, env in
            // The bare prefix goes to its slash form; the root is not ours.
            let bare = try await client.get("/decks?x=1")
            #expect(bare.status == .permanentRedirect && bare.headers[.location] == "/decks/?x=1")
            #expect(try await client.get("/d/getaways").status == .notFound)
            let index = try await client.get("/decks/")
            #expect(index.status == .ok)
            #expect(index.text.contains(#"data-root="/decks/""#))
            #expect(index.text.contains(#"href="/decks/d/getaways""#))
            #expect(
                !index.text.contains(#"href="/d/"#) && !index.text.contains(#"src="/js/"#)
                    && !index.text.contains(#"href="/css/"#))
            // The page's stylesheet is served there, naming its images relative to itself.
            let css = try #require(index.text.range(of: #"href="/decks/css/app."#)).upperBound
            let cssPath = "/decks/css/app." + index.text[css...].prefix { $0 != "\"" }
            let sheet = try await client.get(cssPath)
            #expect(sheet.status == .ok)
            #expect(sheet.text.contains("url(../img/") && !sheet.text.contains("url(/img/"))
            // Cookies are scoped to the sub-path.
            let page = try await client.get("/decks/d/getaways")
            #expect(page.status == .ok)
            let set = try #require(page.headers[.setCookie])
            #expect(set.contains("Path=/decks") && !set.contains("Path=/;"), "\(set)")
            #expect(
                page.text.contains(#"action="/decks/d/getaways/swipe""#)
                    || page.text.contains(#"data-api="/decks/api/v1/decks/getaways""#))
            // The API answers there.
            let card = try #require(
                try await env.row("SELECT id FROM cards ORDER BY position LIMIT 1")?.value(at: 0) as Int64?)
            let r = try await client.execute(
                uri: "/decks/api/v1/decks/getaways/swipes", method: .post, headers: jsonType,
                body: ByteBuffer(string: try swipeBody(card: card, direction: "right", participant: "sub")))
            #expect(r.status == .created)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 1)
            // A redirect names the sub-path.
            let owner = try await client.get("/decks/owner")
            #expect(
                owner.headers[.location]?.hasPrefix("/decks/owner/sign-in") == true,
                "\(owner.headers[.location] ?? "-")")
            // Share links and QR codes too.
            let qr = try await client.get("/decks/d/getaways/qr.svg", headers: [.init("Host")!: "example.org"])
            #expect(try await ShareTests.decode(svg: qr.text) == "http://example.org/decks/d/getaways")
        }
        try await withApp({
            $0.basePath = "/decks"
            $0.publicBaseURL = "https://example.org"
        }) { client, _ in
            let page = try await client.get("/decks/d/getaways")
            // Over HTTPS under a sub-path the cookie is __Secure- (a __Host- cookie needs Path=/).
            let set = try #require(page.headers[.setCookie])
            #expect(
                set.hasPrefix("__Secure-sd_pid=") && set.contains("Path=/decks") && set.hasSuffix("; Secure"), "\(set)")
            let qr = try await client.get("/decks/d/getaways/qr.svg")
            #expect(try await ShareTests.decode(svg: qr.text) == "https://example.org/decks/d/getaways")
        }
    }
}
