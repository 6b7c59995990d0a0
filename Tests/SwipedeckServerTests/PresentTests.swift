import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
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

    /// `GET /d/getaways/stage` with `who`'s participant cookie, as raw bytes.
    static func stageRequest(_ who: String) -> [UInt8] {
        Array("GET /d/getaways/stage HTTP/1.1\r\nHost: localhost\r\nCookie: sd_pid=\(pid(who))\r\n\r\n".utf8)
    }

    /// `who`'s stage stream of getaways on `port`, read off the concurrency pool until `events`
    /// stage events came or 15 s passed; `seen` is called once the first one came.
    static func followStage(
        port: Int, as who: String, events: Int, seen: @escaping @Sendable () -> Void
    ) async throws -> String {
        try await RawHTTPConnection.run {
            let stream = try RawHTTPConnection(port: port)
            _ = stream.send(stageRequest(who))
            var received = ""
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline, received.components(separatedBy: "event: stage").count <= events {
                guard let bytes = stream.read(waitingMilliseconds: 500) else { break }
                received += String(decoding: bytes, as: UTF8.self)
                if received.contains("event: stage") { seen() }
            }
            return received
        }
    }

    /// The data of each stage event in a stream's text, in order.
    static func stageEvents(_ text: String) -> [String] {
        text.components(separatedBy: "event: stage\ndata: ").dropFirst().map { String($0.prefix { $0 != "\n" }) }
    }

    /// The presenter's control form, posted with the page's csrf token.
    static func control(
        _ client: any TestClientProtocol, _ session: HTTPFields, _ action: String, slug: String = "getaways"
    ) async throws -> TestResponse {
        let page = try await client.get("/d/\(slug)/present", headers: session)
        let csrf = OwnerAuthTests.csrf(page.text)
        return try await client.postForm(
            "/d/\(slug)/present", "csrf=\(csrf)&action=\(action)", headers: session)
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
            // Typed into the address bar with a space.
            let spaced = try await client.get("/j/\(code.prefix(3).lowercased())%20\(code.dropFirst(3).lowercased())")
            #expect(spaced.headers[.location] == "/d/getaways", "\(spaced.status)")
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
            // Public results are readable however the screen hides them: the screen says so.
            #expect(!(try await client.get("/d/getaways/present", headers: dee)).text.contains("results are public"))
            #expect(try await client.patchDeck("getaways", #"{"resultsPublic":true}"#).status == .ok)
            #expect(
                try await client.get("/d/getaways/present", headers: dee).text.contains(
                    "This deck's results are public"))
            let shout = try await Self.control(client, dee, "shout")
            #expect(shout.status == .badRequest)
            #expect(
                shout.text.contains(
                    "action must be reveal, hide, timer, lock, unlock, hostPaced, selfPaced, next or cardTimer."))
            // Without the page's token the form changes nothing.
            let forged = try await client.postForm("/d/getaways/present", "action=reveal", headers: dee)
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

    @Test(
        "a presented deck's stage: a reveal timer shows the results when it runs out; a timer counting down is no change"
    )
    func stageRule() {
        let presentation = Presentation(
            deckId: 1, joinCode: "ABCDEF", revealed: false, revealAt: 130, createdAt: 100, updatedAt: 100)
        #expect(
            DeckStage.of(open: true, presentation: nil, now: 100)
                == DeckStage(open: true, revealed: false, revealIn: nil))
        #expect(DeckStage.of(open: true, presentation: presentation, now: 100.2).revealIn == 30)
        #expect(
            DeckStage.of(open: false, presentation: presentation, now: 129.5)
                == DeckStage(open: false, revealed: false, revealIn: 1))
        #expect(
            DeckStage.of(open: true, presentation: presentation, now: 130)
                == DeckStage(open: true, revealed: true, revealIn: nil))
        var shown = presentation
        shown.revealed = true
        shown.revealAt = nil
        #expect(DeckStage.of(open: true, presentation: shown, now: 0).revealed)
        let timing = DeckStage(open: true, revealed: false, revealIn: 30)
        #expect(!DeckStage(open: true, revealed: false, revealIn: 20).differs(from: timing, elapsed: 10))
        #expect(DeckStage(open: true, revealed: false, revealIn: 60).differs(from: timing, elapsed: 10), "a new timer")
        #expect(DeckStage(open: false, revealed: false, revealIn: 20).differs(from: timing, elapsed: 10))
        #expect(DeckStage(open: true, revealed: false, revealIn: nil).differs(from: timing, elapsed: 10), "cleared")
        #expect(!timing.differs(from: timing, elapsed: 0))
        #expect(
            DeckStage(open: true, revealed: true, revealIn: nil).bannerWords == "The results are on the big screen.")
        #expect(timing.bannerWords == "The results show in 30 s.")
        #expect(DeckStage(open: true, revealed: false, revealIn: nil).bannerWords == "")
    }

    @Test("Reveal by a timer: the screen counts down, the results show once it ran out; only the listed timers")
    func revealTimer() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let page = try await client.get("/d/getaways/present", headers: dee)
            #expect(page.text.contains(#"<option value="30">30 s</option>"#) && page.text.contains("2 min"))
            let csrf = OwnerAuthTests.csrf(page.text)
            let started = try await client.postForm(
                "/d/getaways/present", "csrf=\(csrf)&action=timer&seconds=30", headers: dee)
            #expect(started.status == .seeOther)
            let state = try await client.get("/d/getaways/present/state", headers: dee)
            #expect(try state.json()["revealIn"].int == 30 && state.json()["revealed"].bool == false, "\(state.text)")
            let counting = try await client.get("/d/getaways/present", headers: dee)
            #expect(counting.text.contains(#"results in <span class="present-countdown">30</span> s"#))
            #expect(counting.text.contains(#"data-revealed="false""#))
            clock.advance(by: 31)
            let shown = try await client.get("/d/getaways/present/state", headers: dee)
            #expect(try shown.json()["revealed"].bool == true && shown.json()["revealIn"].isNull, "\(shown.text)")
            #expect(try await client.get("/d/getaways/present", headers: dee).text.contains(#"data-revealed="true""#))
            let odd = try await client.postForm(
                "/d/getaways/present", "csrf=\(csrf)&action=timer&seconds=7", headers: dee)
            #expect(odd.status == .badRequest)
            #expect(odd.text.contains("seconds must be one of 15, 30, 60, 120, 300."))
            // Hide clears the timer that ran out: hidden again.
            #expect(try await Self.control(client, dee, "hide").status == .seeOther)
            let hidden = try await client.get("/d/getaways/present/state", headers: dee)
            #expect(try hidden.json()["revealed"].bool == false && hidden.json()["revealIn"].isNull, "\(hidden.text)")
        }
    }

    @Test("the phone remote: the owner's, the same controls, back to the remote after each press")
    func remote() async throws {
        try await withApp { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let eli = try await OwnerAuthTests.signIn(client, "eli", adding: env)
            let page = try await client.get("/d/getaways/present/remote", headers: dee)
            #expect(page.status == .ok)
            #expect(page.text.contains("Reveal results") && page.text.contains("Lock voting"))
            #expect(page.text.contains(#"<input type="hidden" name="back" value="remote">"#))
            #expect(page.text.contains("Voting is open · results hidden"))
            #expect(try await client.get("/d/getaways/present/remote", headers: eli).status == .forbidden)
            let csrf = OwnerAuthTests.csrf(page.text)
            let lock = try await client.postForm(
                "/d/getaways/present", "csrf=\(csrf)&action=lock&back=remote", headers: dee)
            #expect(lock.headers[.location] == "/d/getaways/present/remote")
            let after = try await client.get("/d/getaways/present/remote", headers: dee)
            #expect(after.text.contains("Voting is locked · results hidden") && after.text.contains("Unlock voting"))
        }
    }

    @Test("you and the room: after Reveal a person's picks show the room's share beside them, not before")
    func youAndTheRoom() async throws {
        try await withApp { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let cards = try await client.cardIds("getaways")
            #expect(
                try await client.swipe("getaways", card: cards[0], direction: "right", participant: "ann").status
                    == .created)
            #expect(
                try await client.swipe("getaways", card: cards[0], direction: "right", participant: "bo").status
                    == .created)
            #expect(
                try await client.swipe(
                    "getaways", card: cards[0], direction: "left", trace: leftDrag(), participant: "cy"
                ).status == .created)
            _ = try await client.get("/d/getaways/present", headers: dee)
            let before = try await client.get("/d/getaways/history", headers: cookie("ann"))
            #expect(before.status == .ok)
            #expect(!before.text.contains("The room:") && !before.text.contains("room-hint"))
            // The deck page follows the stage and says nothing yet.
            let deckPage = try await client.get("/d/getaways", headers: cookie("ann"))
            #expect(deckPage.text.contains(#"data-stage="/d/getaways/stage""#))
            #expect(deckPage.text.contains(#"<p class="stage-banner" role="status" hidden>"#))
            #expect(try await Self.control(client, dee, "reveal").status == .seeOther)
            let after = try await client.get("/d/getaways/history", headers: cookie("ann"))
            #expect(after.text.contains("The room: 67% LIKE · 3 votes"), "\(after.text)")
            #expect(after.text.contains("room-hint"))
            let revealedPage = try await client.get("/d/getaways", headers: cookie("ann"))
            #expect(revealedPage.text.contains("The results are on the big screen."))
            #expect(!revealedPage.text.contains(#"<p class="stage-banner" role="status" hidden>"#))
        }
    }

    @Test(
        "phones follow the stage live: Lock and a reveal timer arrive on the stream; strangers 403, a second tab too",
        .timeLimit(.minutes(3)))
    func phonesFollowTheStage() async throws {
        // A reading every 20 s: what the phone hears within the test comes from the edits themselves.
        try await withApp({ $0.liveInterval = .seconds(20) }, testing: .live) { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let port = try #require(client.port)
            // Never presented: the page follows nothing.
            #expect(!(try await client.get("/d/getaways", headers: cookie("ann"))).text.contains("data-stage"))
            _ = try await client.get("/d/getaways/present", headers: dee)
            #expect(try await client.get("/d/getaways/stage").status == .forbidden, "nobody the deck knows")
            let request = Self.stageRequest("ann")
            let firstSeen = Mutex(false)
            async let streamed = Self.followStage(port: port, as: "ann", events: 3) { firstSeen.withLock { $0 = true } }
            for _ in 0..<150 where !firstSeen.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(100)) }
            // A second tab of the same person follows too.
            async let second: String = RawHTTPConnection.run {
                let stream = try RawHTTPConnection(port: port)
                _ = stream.send(request)
                return stream.receive(until: "event: stage")
            }
            #expect(try await second.contains("event: stage"))
            #expect(try await Self.control(client, dee, "lock").status == .seeOther)
            let page = try await client.get("/d/getaways/present", headers: dee)
            let csrf = OwnerAuthTests.csrf(page.text)
            let timer = try await client.postForm(
                "/d/getaways/present", "csrf=\(csrf)&action=timer&seconds=60", headers: dee)
            #expect(timer.status == .seeOther)
            let text = try await streamed
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(300))\n\(env.diagnosis())")
            #expect(text.lowercased().contains("content-type: text/event-stream"))
            let events = Self.stageEvents(text)
            #expect(events.count == 3, "\(events)\n\(env.diagnosis())")
            #expect(
                events.first?.contains(#""open":true"#) == true && events.first?.contains(#""revealed":false"#) == true)
            #expect(events.dropFirst().first?.contains(#""open":false"#) == true, "\(events)")
            #expect(events.last?.contains(#""revealIn":"#) == true && events.last?.contains(#""open":false"#) == true)
        }
    }

    @Test(
        "a person's newest stage stream takes over from their oldest (a phone that reloads keeps following); none before the big screen",
        .timeLimit(.minutes(3)))
    func newestStreamTakesOver() async throws {
        try await withApp({ $0.liveInterval = .milliseconds(200) }, testing: .live) { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let port = try #require(client.port)
            #expect(try await client.get("/d/getaways/stage", headers: cookie("ann")).status == .notFound)
            _ = try await client.get("/d/getaways/present", headers: dee)
            let request = Self.stageRequest("ann")
            let (third, firstEnded) = try await RawHTTPConnection.run { () throws -> (String, Bool) in
                let first = try RawHTTPConnection(port: port)
                _ = first.send(request)
                _ = first.receive(until: "event: stage")
                let second = try RawHTTPConnection(port: port)
                _ = second.send(request)
                _ = second.receive(until: "event: stage")
                let third = try RawHTTPConnection(port: port)
                _ = third.send(request)
                let head = third.receive(until: "event: stage")
                // The oldest ends within a reading or so: its response's last chunk comes.
                var tail = ""
                let deadline = Date().addingTimeInterval(10)
                func lastChunk() -> Bool { tail.hasPrefix("0\r\n\r\n") || tail.contains("\r\n0\r\n\r\n") }
                while Date() < deadline, !lastChunk() {
                    guard let bytes = first.read(waitingMilliseconds: 500) else { return (head, true) }
                    tail += String(decoding: bytes, as: UTF8.self)
                }
                return (head, lastChunk())
            }
            #expect(third.hasPrefix("HTTP/1.1 200") && third.contains("event: stage"), "\(third.prefix(200))")
            #expect(firstEnded, "the oldest stream did not end\n\(env.diagnosis())")
        }
    }
}
