import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// The share panel and the deck's QR code, read back by a real decoder (zbarimg) from the SVG the
/// server sends.
@Suite("Share: QR code of the deck link, share panel")
struct ShareTests {
    /// zbarimg's reading of an SVG document rasterised by rsvg-convert.
    static func decode(svg: String) async throws -> String? {
        let rsvgConvert = try #require(
            QRCodeTests.executable("rsvg-convert"),
            "rsvg-convert is not installed; `make test` installs it (Debian package librsvg2-bin)")
        return try await QRCodeTests.withTemporaryFile(extension: "svg", contents: Data(svg.utf8)) { svgPath in
            try await QRCodeTests.withTemporaryFile(extension: "png", contents: Data()) { pngPath in
                let (status, _) = try await QRCodeTests.run(
                    rsvgConvert, ["--format=png", "--output", pngPath, svgPath])
                try #require(status == 0, "rsvg-convert failed on the served SVG")
                return try await QRCodeTests.zbarDecode(pngPath)
            }
        }
    }

    @Test("/d/{deck}/qr.svg encodes the deck's absolute link from the request's host")
    func qrFromHost() async throws {
        try await withApp { client, _ in
            let r = try await client.get("/d/getaways/qr.svg", headers: [.init("Host")!: "192.168.1.20:8080"])
            #expect(r.status == .ok)
            #expect(r.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(r.headers[.setCookie] == nil)
            #expect(!r.text.contains("<script") && !r.text.contains("style="))
            #expect(try await Self.decode(svg: r.text) == "http://192.168.1.20:8080/d/getaways")
            let https = try await client.get(
                "/d/getaways/qr.svg",
                headers: [.init("Host")!: "decks.example.org", .init("X-Forwarded-Proto")!: "https"])
            // From a client that is no trusted proxy, a forwarded scheme is ignored (`ProxyTests`).
            #expect(try await Self.decode(svg: https.text) == "http://decks.example.org/d/getaways")
            expectAPIError(
                try await client.get("/d/nope/qr.svg", headers: [.accept: "application/json"]), .notFound, "not_found")
        }
    }

    @Test("a configured public base URL wins over the Host header")
    func qrFromPublicURL() async throws {
        try await withApp({ $0.publicBaseURL = "https://swipe.example.net" }) { client, _ in
            let r = try await client.get("/d/getaways/qr.svg", headers: [.init("Host")!: "evil.example"])
            #expect(try await Self.decode(svg: r.text) == "https://swipe.example.net/d/getaways")
        }
    }

    @Test("the share panel is the owner's: link, copy button, QR image; others are refused")
    func panel() async throws {
        try await withApp { client, env in
            try await OwnerAuthTests.addOwner(env, "dee")
            try await OwnerAuthTests.addOwner(env, "eli")
            let dee = try await OwnerAuthTests.signIn(client, "dee")
            let eli = try await OwnerAuthTests.signIn(client, "eli")
            let page = try await client.get(
                "/owner/decks/getaways/share", headers: merged(dee, [.init("Host")!: "decks.test"]))
            #expect(page.status == .ok)
            #expect(page.text.contains(#"<label for="share-link">Link</label>"#))
            #expect(page.text.contains(#"value="http://decks.test/d/getaways""#))
            #expect(page.text.contains(#"<img src="/d/getaways/qr.svg""#))
            #expect(page.text.contains("data-copy"))
            #expect(try await client.get("/owner/decks/getaways/share", headers: eli).status == .forbidden)
            #expect(try await client.get("/owner/decks/getaways/share").status == .seeOther)
        }
    }
}
