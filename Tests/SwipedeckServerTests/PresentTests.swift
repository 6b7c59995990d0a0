import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// The big screen (`/d/{deck}/present`), its controls and the join code's way in (`/j`).
@Suite("Present: the big screen, reveal and lock, join codes")
struct PresentTests {
    /// The join code a presenter page shows.
    static func code(_ html: String) -> String {
        guard let r = html.range(of: #"<p class="present-code"><span class="sr-only">Join code: </span>"#) else {
            return ""
        }
        return String(html[r.upperBound...].prefix { $0 != "<" })
    }

    /// The presenter's control form, posted with the page's csrf token.
    static func control(
        _ client: any TestClientProtocol, _ session: HTTPFields, _ action: String, slug: String = "getaways"
    ) async throws -> TestResponse {
        let page = try await client.get("/d/\(slug)/present", headers: session)
        let csrf = OwnerAuthTests.csrf(page.text)
        return try await client.postForm(
            "/owner/decks/\(slug)/present", "csrf=\(csrf)&action=\(action)", headers: session)
    }

    @Test("the big screen is its owner's: a join code that stays, the address to type, a QR code of the deck")
    func screen() async throws {
        try await withApp { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let eli = try await OwnerAuthTests.signIn(client, "eli", adding: env)
            let host: HTTPFields = [.init("Host")!: "decks.test"]
            let page = try await client.get("/d/getaways/present", headers: merged(dee, host))
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "no-store")
            let code = Self.code(page.text)
            #expect(RoomCode.normalized(code) == code, "a code from the room alphabet: \(code)")
            #expect(page.text.contains(#"Go to <b class="present-address">decks.test/j</b> and type"#))
            #expect(!page.text.contains("points at this computer itself"))
            // Served as 127.0.0.1, the screen warns as the share panel does: no phone can reach it.
            let local = try await client.get(
                "/d/getaways/present", headers: merged(dee, [.init("Host")!: "127.0.0.1:8080"]))
            #expect(local.text.contains("This link points at this computer itself (127.0.0.1)"))
            let svg = try #require(page.text.range(of: "<svg").map { String(page.text[$0.lowerBound...]) })
            let qr = String(svg[..<svg.range(of: "</svg>")!.upperBound])
            #expect(try await ShareTests.decode(svg: qr) == "http://decks.test/d/getaways")
            // The same code on every visit, and in the database.
            let again = try await client.get("/d/getaways/present", headers: dee)
            #expect(Self.code(again.text) == code)
            #expect(try await env.count("SELECT COUNT(*) FROM presentations") == 1)
            // Another owner is refused; nobody signed in is sent to sign in, and back.
            #expect(try await client.get("/d/getaways/present", headers: eli).status == .forbidden)
            let anonymous = try await client.get("/d/getaways/present")
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.headers[.location] == "/owner/sign-in?next=/d/getaways/present")
            #expect(try await Self.control(client, eli, "reveal").status == .forbidden)
        }
    }

    @Test("/j: the typed code (any case, spaces, dashes) leads to the deck; a wrong one is said next to the field")
    func joinByCode() async throws {
        try await withApp { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let code = Self.code(try await client.get("/d/getaways/present", headers: dee).text)
            let form = try await client.get("/j")
            #expect(form.status == .ok)
            #expect(form.text.contains(#"<label for="join-code">The code on the screen</label>"#))
            #expect(!form.text.contains("field-error"))
            // The way in mints nobody (the deck's page does): sweeping /j spends no join budget.
            #expect(form.headers[.setCookie] == nil)
            let typed = " " + code.prefix(3).lowercased() + "-" + code.dropFirst(3).lowercased()
            let found = try await client.get(
                "/j?code=\(typed.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
            #expect(found.status == .seeOther)
            #expect(found.headers[.location] == "/j/\(code)")
            // A GET form sends a typed space as `+`.
            let plus = try await client.get("/j?code=\(code.prefix(3).lowercased())+\(code.dropFirst(3))")
            #expect(plus.headers[.location] == "/j/\(code)", "\(plus.status)")
            let deck = try await client.get("/j/\(code)")
            #expect(deck.status == .seeOther)
            #expect(deck.headers[.location] == "/d/getaways")
            #expect(deck.headers[.setCookie] == nil)
            let malformed = try await client.get("/j?code=O0I1")
            #expect(malformed.status == .badRequest)
            #expect(malformed.text.contains(PresentController.malformedWords))
            #expect(malformed.text.contains(#"value="O0I1""#))
            let unknown = try await client.get("/j/\(code == "ZZZZZZ" ? "YYYYYY" : "ZZZZZZ")")
            #expect(unknown.status == .notFound)
            #expect(unknown.text.contains(PresentController.notFoundWords))
        }
    }

    @Test("guessing join codes spends the network's failed lookups, which room codes share: then 429")
    func guessingIsBudgeted() async throws {
        try await withApp(testing: .live) { client, _ in
            let json: HTTPFields = [.accept: "application/json"]
            for i in 0..<Int(RoomLookupBudget.failuresPerMinute) {
                let guess = String(format: "ZZZ%03d", i).replacingOccurrences(of: "0", with: "A")
                    .replacingOccurrences(of: "1", with: "B")
                #expect(try await client.get("/j/\(guess)").status == .notFound)
            }
            let refused = try await client.get("/j/ZZZZZZ")
            #expect(refused.status == .tooManyRequests)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // The field again, with the wait in words next to it.
            #expect(refused.text.contains(#"<input id="join-code""#) && refused.text.contains("Too many wrong codes"))
            // The same budget: a room code from this network is refused too.
            expectAPIError(
                try await client.postJSON("/api/v1/rooms/ZZZZZZ/members", "{}", headers: json), .tooManyRequests,
                "rate_limited")
        }
    }

    @Test("results hidden until revealed (counts only, cards in deck order), shown ranked on Reveal, hidden again")
    func revealAndHide() async throws {
        try await withApp { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let cards = try await client.cardIds("getaways")
            #expect(try await client.swipe("getaways", card: cards[1], direction: "right").status == .created)
            #expect(
                try await client.swipe("getaways", card: cards[0], direction: "left", trace: leftDrag()).status
                    == .created)
            let hidden = try await client.get("/d/getaways/present", headers: dee)
            #expect(hidden.text.contains(#"data-revealed="false""#))
            #expect(
                hidden.text.contains(#"<b data-stat="people">1 person</b> · <b data-stat="decisions">2 decisions</b>"#))
            #expect(
                hidden.text.components(separatedBy: #"<span class="present-share"></span>"#).count == cards.count + 1)
            #expect(hidden.text.contains("Reveal results"))
            // Deck order while hidden: the card nobody liked comes first all the same.
            let first = try #require(hidden.text.range(of: #"data-card="\#(cards[0])""#))
            let second = try #require(hidden.text.range(of: #"data-card="\#(cards[1])""#))
            #expect(first.lowerBound < second.lowerBound)

            let reveal = try await Self.control(client, dee, "reveal")
            #expect(reveal.status == .seeOther)
            #expect(reveal.headers[.location] == "/d/getaways/present")
            let state = try await client.get("/d/getaways/present/state", headers: dee)
            #expect(try state.json()["revealed"].bool == true && state.json()["open"].bool == true, "\(state.text)")
            let shown = try await client.get("/d/getaways/present", headers: dee)
            #expect(shown.text.contains(#"data-revealed="true""#))
            #expect(shown.text.contains(#"<span class="present-share">100%</span>"#))
            #expect(shown.text.contains("Hide results"))
            // Ranked: the liked card first.
            let liked = try #require(shown.text.range(of: #"data-card="\#(cards[1])""#))
            let passed = try #require(shown.text.range(of: #"data-card="\#(cards[0])""#))
            #expect(liked.lowerBound < passed.lowerBound)

            #expect(try await Self.control(client, dee, "hide").status == .seeOther)
            #expect(!(try await client.get("/d/getaways/present", headers: dee)).text.contains("present-share\">100%"))
            let shout = try await Self.control(client, dee, "shout")
            #expect(shout.status == .badRequest)
            #expect(shout.text.contains("action must be reveal, hide, lock or unlock."))
            // Without the page's token the form changes nothing.
            let forged = try await client.postForm("/owner/decks/getaways/present", "action=reveal", headers: dee)
            #expect(forged.status == .forbidden)
            #expect(try await env.count("SELECT COUNT(*) FROM presentations WHERE revealed") == 0)
        }
    }

    @Test("Lock closes the deck at once (a swipe is refused deck_closed), Unlock opens it again")
    func lockAndUnlock() async throws {
        try await withApp { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let cards = try await client.cardIds("getaways")
            #expect(try await Self.control(client, dee, "lock").status == .seeOther)
            let locked = try await client.get("/d/getaways/present", headers: dee)
            #expect(locked.text.contains("Voting is locked"))
            #expect(locked.text.contains("Unlock voting"))
            let state = try await client.get("/d/getaways/present/state", headers: dee)
            #expect(try state.json()["open"].bool == false && state.json()["revealed"].bool == false, "\(state.text)")
            expectAPIError(
                try await client.swipe("getaways", card: cards[0], direction: "right"), .conflict, "deck_closed")
            #expect(try await Self.control(client, dee, "unlock").status == .seeOther)
            #expect(try await client.get("/d/getaways/present", headers: dee).text.contains("Voting is open"))
            #expect(try await client.swipe("getaways", card: cards[0], direction: "right").status == .created)
            // Both are changes in the deck's event log, like any other settings change.
            #expect(try await env.count("SELECT COUNT(*) FROM deckEvents WHERE detail LIKE '%\"open\":false%'") == 1)
        }
    }
}
