import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// The presenter link (`PresenterLink`, `PresenterMiddleware`): someone other than the owner runs
/// the big screen and its remote, and nothing else of the deck, until the owner revokes it.
@Suite("Presenter link: the big screen for someone other than the owner")
struct PresenterLinkTests {
    /// The value of the read-only field `id` on a page.
    static func field(_ html: String, _ id: String) -> String? {
        guard let r = html.range(of: #"id="\#(id)" class="share-link" value=""#) else { return nil }
        return String(html[r.upperBound...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Presses `action` (make, revoke) on the share panel of getaways as `owner`.
    static func link(_ client: any TestClientProtocol, _ owner: HTTPFields, _ action: String) async throws
        -> TestResponse
    {
        let panel = try await client.get("/owner/decks/getaways/share", headers: owner)
        return try await client.postForm(
            "/owner/decks/getaways/presenter-link", "csrf=\(OwnerAuthTests.csrf(panel.text))&action=\(action)",
            headers: owner)
    }

    /// The cookie `/d/getaways/present?key=` sets, as a request header.
    static func presenterCookie(_ response: TestResponse) -> HTTPFields {
        let cookie = response.headers[.setCookie] ?? ""
        return [.cookie: String(cookie.prefix { $0 != ";" })]
    }

    @Test(
        "made on the share panel, the link opens the screen, its remote and its controls to a stranger, nothing else; revoked, nothing"
    )
    func presenterLink() async throws {
        try await withApp { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let before = try await client.get("/owner/decks/getaways/share", headers: dee).text
            #expect(before.contains("Make a presenter link") && Self.field(before, "presenter-screen") == nil)
            #expect(try await client.get("/owner/decks/getaways/presenter.svg", headers: dee).status == .notFound)
            // Without the form's token nothing is made.
            let forged = try await client.postForm(
                "/owner/decks/getaways/presenter-link", "csrf=wrong&action=make", headers: dee)
            #expect(forged.status == .forbidden)
            let made = try await Self.link(client, dee, "make")
            #expect(made.status == .seeOther && made.headers[.location] == "/owner/decks/getaways/share#presenter")
            let panel = try await client.get("/owner/decks/getaways/share", headers: dee).text
            let screen = try #require(Self.field(panel, "presenter-screen"))
            let remote = try #require(Self.field(panel, "presenter-remote"))
            let key = String(try #require(screen.split(separator: "=").last))
            #expect(key.count == 64 && screen.hasSuffix("/d/getaways/present?key=\(key)"))
            #expect(remote.hasSuffix("/d/getaways/present/remote?key=\(key)"))
            // The QR code on the panel is the remote's link, for the presenter's phone.
            let svg = try await client.get("/owner/decks/getaways/presenter.svg", headers: dee)
            #expect(svg.headers[.cacheControl] == "no-store")
            #expect(try await ShareTests.decode(svg: svg.text) == remote)
            // Nothing secret is stored: the database holds the link's generation only.
            #expect(try await env.count("SELECT COUNT(*) FROM presentations WHERE presenterGeneration = 1") == 1)

            // A stranger opens the link: the key moves into a cookie for the deck's presenter pages.
            let opened = try await client.get("/d/getaways/present/remote?key=\(key)")
            #expect(opened.status == .seeOther && opened.headers[.location] == "/d/getaways/present/remote")
            let setCookie = try #require(opened.headers[.setCookie])
            #expect(setCookie.hasPrefix("sd_presenter=\(key);"))
            for attribute in ["Path=/d/getaways/present", "HttpOnly", "SameSite=Lax"] {
                #expect(setCookie.contains(attribute), "\(setCookie)")
            }
            let stranger = Self.presenterCookie(opened)
            let page = try await client.get("/d/getaways/present", headers: stranger)
            #expect(page.status == .ok)
            #expect(PresentTests.code(page.text).count == RoomCode.length)
            #expect(page.text.contains(#"action="/d/getaways/present""#))
            #expect(!page.text.contains("Back to the deck"), "the owner's pages are not the presenter's")
            #expect(try await client.get("/d/getaways/present/remote", headers: stranger).status == .ok)
            #expect(try await client.get("/d/getaways/present/state", headers: stranger).status == .ok)

            // Its controls work with the page's token, and with no other (the owner's included).
            let csrf = OwnerAuthTests.csrf(page.text)
            #expect(csrf != OwnerAuthTests.csrf(before))
            let wrong = try await client.postForm(
                "/d/getaways/present", "csrf=\(OwnerAuthTests.csrf(before))&action=reveal", headers: stranger)
            #expect(wrong.status == .forbidden)
            for action in ["reveal", "lock", "hostPaced", "next"] {
                let pressed = try await client.postForm(
                    "/d/getaways/present", "csrf=\(csrf)&action=\(action)", headers: stranger)
                #expect(pressed.status == .seeOther, "\(action): \(pressed.status)")
            }
            let stage = try await client.get("/d/getaways/present/state", headers: stranger).json()
            #expect(stage["revealed"].bool == true && stage["open"].bool == false && stage["step"].int == 1)
            // The lock is in the deck's history as the presenter link's, nobody's of the owners.
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM deckEvents WHERE kind = 'settings' AND ownerId IS NULL AND detail LIKE ?",
                    ["%on the presenter link%"]) == 1)

            // Nothing else of the deck: not its owner pages, not another deck's screen.
            let settings = try await client.get("/owner/decks/getaways", headers: stranger)
            #expect(settings.status == .seeOther && settings.headers[.location]?.hasPrefix("/owner/sign-in") == true)
            _ = try await client.makeDeck("other", titles: ["a"])
            #expect(try await client.get("/d/other/present", headers: stranger).status == .forbidden)
            let elsewhere = try await client.get("/d/other/present?key=\(key)", headers: [.accept: "application/json"])
            expectAPIError(elsewhere, .forbidden, "presenter_link_revoked")
            // An invented key opens nothing either.
            let invented = String(repeating: "a", count: 64)
            #expect(try await client.get("/d/getaways/present?key=\(invented)").status == .forbidden)

            // Revoked: the cookie, the link and the remote stop at once, and say why.
            #expect(try await Self.link(client, dee, "revoke").status == .seeOther)
            let refused = try await client.get("/d/getaways/present", headers: stranger)
            #expect(refused.status == .forbidden && refused.text.contains("revoked"))
            let json = merged(stranger, [.accept: "application/json"])
            expectAPIError(
                try await client.get("/d/getaways/present/state", headers: json), .forbidden, "presenter_link_revoked")
            #expect(
                try await client.postForm("/d/getaways/present", "csrf=\(csrf)&action=unlock", headers: stranger)
                    .status == .forbidden)
            #expect(try await client.get("/d/getaways/present?key=\(key)").status == .forbidden)
            let after = try await client.get("/owner/decks/getaways/share", headers: dee).text
            #expect(
                Self.field(after, "presenter-screen") == nil && after.contains("The last presenter link was revoked"))
            // A new link is another key: the old one stays dead.
            _ = try await Self.link(client, dee, "make")
            let newKey = try #require(
                Self.field(try await client.get("/owner/decks/getaways/share", headers: dee).text, "presenter-screen")?
                    .split(separator: "=").last.map(String.init))
            #expect(newKey != key)
            #expect(try await client.get("/d/getaways/present?key=\(key)").status == .forbidden)
            #expect(try await client.get("/d/getaways/present?key=\(newKey)").status == .seeOther)
            // Another owner cannot make one for a deck not theirs.
            let eli = try await OwnerAuthTests.signIn(client, "eli", adding: env)
            let eliPanel = try await client.get("/owner/decks/getaways/share", headers: eli)
            #expect(eliPanel.status == .forbidden)
        }
    }

    @Test(
        "a presenter's presses and the owner's settings at once (the API, admin): neither puts back what the other changed"
    )
    func pressesAndSettingsAtOnce() async throws {
        try await withApp { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            _ = try await client.get("/d/getaways/present", headers: dee)
            _ = try await Self.link(client, dee, "make")
            let panel = try await client.get("/owner/decks/getaways/share", headers: dee).text
            let key = try #require(Self.field(panel, "presenter-screen")?.split(separator: "=").last.map(String.init))
            let stranger = Self.presenterCookie(try await client.get("/d/getaways/present?key=\(key)"))
            let csrf = OwnerAuthTests.csrf(try await client.get("/d/getaways/present", headers: stranger).text)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for i in 0..<30 {
                        _ = try await client.postForm(
                            "/d/getaways/present", "csrf=\(csrf)&action=\(i % 2 == 0 ? "lock" : "unlock")",
                            headers: stranger)
                    }
                }
                group.addTask {
                    for i in 0..<30 {
                        let r = try await client.execute(
                            uri: "/api/v1/decks/getaways", method: .patch, headers: merged(jsonType, admin),
                            body: ByteBuffer(string: #"{"title":"Title \#(i)"}"#))
                        #expect(r.status == .ok)
                    }
                }
                try await group.waitForAll()
            }
            // The owner's last title stands, and the presenter's last press (an unlock).
            let deck = try await client.get("/api/v1/decks/getaways", headers: admin).json()
            #expect(deck["title"].string == "Title 29")
            #expect(deck["open"].bool == true)
        }
    }

    @Test("the screen's results stream follows the link: it ends once the owner revokes it", .timeLimit(.minutes(2)))
    func streamEndsOnRevoke() async throws {
        try await withApp(
            {
                $0.liveInterval = .milliseconds(250)
                $0.sseHeartbeat = .milliseconds(500)
            }, testing: .live
        ) { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            _ = try await client.get("/d/getaways/present", headers: dee)
            _ = try await Self.link(client, dee, "make")
            let panel = try await client.get("/owner/decks/getaways/share", headers: dee).text
            let key = String(try #require(Self.field(panel, "presenter-screen")?.split(separator: "=").last))
            let revoke = "csrf=\(OwnerAuthTests.csrf(panel))&action=revoke"
            let session = try #require(dee[.cookie])
            let port = try #require(client.port)
            let (first, rest) = try await RawHTTPConnection.run { () throws -> (String, String) in
                let stream = try RawHTTPConnection(port: port)
                _ = stream.send(
                    Array(
                        "GET /d/getaways/present/live HTTP/1.1\r\nHost: localhost\r\nCookie: sd_presenter=\(key)\r\n\r\n"
                            .utf8))
                // Read by hand: heartbeats every 0.5 s keep `receive` from ever seeing a quiet second.
                var first = ""
                let opened = Date().addingTimeInterval(15)
                while Date() < opened, !first.contains("event: results"),
                    let bytes = stream.read(waitingMilliseconds: 500)
                {
                    first += String(decoding: bytes, as: UTF8.self)
                }
                let owner = try RawHTTPConnection(port: port)
                _ = owner.send(
                    Array(
                        ("POST /owner/decks/getaways/presenter-link HTTP/1.1\r\nHost: localhost\r\nCookie: \(session)\r\n"
                            + "Origin: http://localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                            + "Content-Length: \(revoke.utf8.count)\r\n\r\n\(revoke)").utf8))
                _ = owner.receive()
                // The next heartbeat (0.5 s) is not sent: the stream ends with its last chunk.
                var rest = ""
                let deadline = Date().addingTimeInterval(10)
                while Date() < deadline, !(first + rest).hasSuffix("\r\n0\r\n\r\n"),
                    let bytes = stream.read(waitingMilliseconds: 500)
                {
                    rest += String(decoding: bytes, as: UTF8.self)
                }
                return (first, rest)
            }
            #expect(first.hasPrefix("HTTP/1.1 200"), "\(first.prefix(300))\n\(env.diagnosis())")
            #expect(first.lowercased().contains("content-type: text/event-stream"))
            #expect((first + rest).hasSuffix("\r\n0\r\n\r\n"), "the stream did not end: \(rest.suffix(200))")
            #expect(
                try await env.count("SELECT COUNT(*) FROM presentations WHERE presenterActive = false") == 1)
        }
    }
}
