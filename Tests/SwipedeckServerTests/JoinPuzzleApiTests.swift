import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// Joining past the free budget by proof of work, over HTTP on both engines: the API's puzzles and
/// their rules, the deck page's embedded puzzle and its cookie, the pool a host rotating networks
/// meets, the work rising with a deck's pressure, one replay guard for two stores on one database,
/// and the share panel's expected people.
struct JoinPuzzleApiTests {
    static let xff = HTTPField.Name("X-Forwarded-For")!

    /// `POST …/participants` until the free budget refuses; the refusal.
    static func spendFreeBudget(_ client: any TestClientProtocol, _ slug: String, headers: HTTPFields = [:])
        async throws -> TestResponse
    {
        for _ in 0..<200 {
            let r = try await client.execute(
                uri: "/api/v1/decks/\(slug)/participants", method: .post, headers: headers)
            if r.status != .created { return r }
        }
        Issue.record("the free budget never ran out")
        throw CancellationError()
    }

    /// A fresh puzzle from `POST …/puzzles`.
    static func puzzle(_ client: any TestClientProtocol, _ slug: String, headers: HTTPFields = [:]) async throws
        -> JoinPuzzle
    {
        let r = try await client.execute(uri: "/api/v1/decks/\(slug)/puzzles", method: .post, headers: headers)
        #expect(r.status == .created, "\(r.status): \(r.text)")
        #expect(r.headers[.cacheControl] == "no-store")
        #expect(try r.json()["number"].isNull, "an issued puzzle carries no answer")
        return try JSONDecoder().decode(JoinPuzzle.self, from: Data(r.text.utf8))
    }

    /// `{"puzzle":{…}}` with the solution.
    static func body(_ solved: JoinPuzzle) throws -> String {
        "{\"puzzle\":" + String(decoding: try JSONEncoder().encode(solved), as: UTF8.self) + "}"
    }

    static func mint(_ client: any TestClientProtocol, _ slug: String, _ solved: JoinPuzzle, headers: HTTPFields = [:])
        async throws -> TestResponse
    {
        try await client.postJSON("/api/v1/decks/\(slug)/participants", try body(solved), headers: headers)
    }

    @Test("past the free budget a solved puzzle mints a credential whose swipe counts; each puzzle pays once")
    func puzzlePaysPastTheBudget() async throws {
        let clock = TestClock()
        try await withApp(
            {
                $0.port = 0
                $0.mintRateLimit = 0.05
            }, clock: clock.read, testing: .live
        ) { client, env in
            let cards = try await client.makeDeck("hall", titles: ["a", "b"])
            let refused = try await Self.spendFreeBudget(client, "hall")
            expectAPIError(refused, .tooManyRequests, "rate_limited")
            #expect(try refused.json()["error"]["message"].string?.contains("/puzzles") == true)
            let issued = try await Self.puzzle(client, "hall")
            #expect(issued.maxNumber == JoinDifficulty.baseMaxNumber)
            let solved = JoinPuzzleTests.solve(issued)
            clock.advance(by: 2)
            let minted = try await Self.mint(client, "hall", solved)
            #expect(minted.status == .created, "\(minted.text)")
            let credential = try #require(try minted.json()["participant"].string)
            clock.advance(by: 1)
            let swiped = try await client.swipe("hall", card: cards[0], direction: "right", participant: credential)
            #expect(swiped.status == .created, "\(swiped.text)")
            // Minted when the puzzle was issued, 3 s before: read, not "decided before read".
            #expect(try await env.count("SELECT COUNT(*) FROM swipes WHERE suspect = ?", [true]) == 0)
            #expect(try await client.get("/api/v1/decks/hall/results", headers: admin).json()["swipes"].int == 1)
            // The same solution again, on this deck or another: used, or not this deck's.
            expectAPIError(try await Self.mint(client, "hall", solved), .conflict, "puzzle_used")
            _ = try await client.makeDeck("other", titles: ["c"])
            expectAPIError(try await Self.mint(client, "other", solved), .forbidden, "puzzle_invalid")
        }
    }

    @Test("a wrong number, an expired puzzle, or one out of shape earns nothing, each by its code")
    func refusals() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            _ = try await client.makeDeck("hall", titles: ["a"])
            var wrong = JoinPuzzleTests.solve(try await Self.puzzle(client, "hall"))
            wrong.number = (wrong.number! + 1) % (wrong.maxNumber + 1)
            expectAPIError(try await Self.mint(client, "hall", wrong), .unprocessableContent, "puzzle_unsolved")
            let late = JoinPuzzleTests.solve(try await Self.puzzle(client, "hall"))
            clock.advance(by: JoinPuzzle.lifetimeSeconds + 1)
            expectAPIError(try await Self.mint(client, "hall", late), .forbidden, "puzzle_expired")
            var unanswered = try await Self.puzzle(client, "hall")
            expectAPIError(try await Self.mint(client, "hall", unanswered), .badRequest, "puzzle_malformed")
            unanswered.number = -5
            expectAPIError(try await Self.mint(client, "hall", unanswered), .badRequest, "puzzle_malformed")
            expectAPIError(
                try await client.postJSON("/api/v1/decks/hall/participants", #"{"puzzle":{"salt":"x"}}"#), .badRequest,
                "malformed_json")
            // A closed deck issues none.
            _ = try await client.patchDeck("hall", #"{"open":false}"#)
            expectAPIError(
                try await client.execute(uri: "/api/v1/decks/hall/puzzles", method: .post), .conflict, "deck_closed")
        }
    }

    @Test("past the free budget the deck page carries a puzzle; solved, the page's join sets the deck's cookie")
    func pageJoinsByPuzzle() async throws {
        let clock = TestClock()
        try await withApp(
            {
                $0.port = 0
                $0.mintRateLimit = 0.05
            }, clock: clock.read, testing: .live
        ) { client, env in
            _ = try await client.makeDeck("hall", titles: ["a", "b"])
            let free = try await client.get("/d/hall")
            #expect(!free.text.contains(#"id="join-puzzle""#), "within the free budget: no puzzle")
            _ = try await Self.spendFreeBudget(client, "hall")
            let page = try await client.get("/d/hall")
            #expect(page.status == .ok && page.headers[.setCookie] == nil)
            #expect(Int(page.headers[.retryAfter] ?? "") ?? 0 >= 1, "the page without scripts waits for the budget")
            #expect(page.text.contains(#"<meta http-equiv="refresh""#))
            let html = page.text
            let start = try #require(html.range(of: #"<script type="application/json" id="join-puzzle">"#))
            let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
            let embedded = try JSONDecoder().decode(
                JoinPuzzle.self, from: Data(html[start.upperBound..<end.lowerBound].utf8))
            // Each page its own puzzle.
            let again = try await client.get("/d/hall")
            #expect(!again.text.contains(embedded.salt))
            clock.advance(by: 1.5)
            let joined = try await client.postJSON(
                "/api/v1/decks/hall/join", try Self.body(JoinPuzzleTests.solve(embedded)))
            #expect(joined.status == .noContent, "\(joined.text)")
            let deckId: Int64 = try #require(
                try await env.row("SELECT id FROM decks WHERE slug = ?", ["hall"])?.value(at: 0))
            let cookie = try #require(AccessModeTests.admission(joined))
            #expect(joined.headers[.setCookie]?.hasPrefix("sd_d\(deckId)=") == true)
            #expect(joined.headers[.setCookie]?.contains("HttpOnly") == true)
            #expect(joined.text.isEmpty, "the page's script never holds the credential")
            let seen = try await client.get("/d/hall", headers: cookie)
            #expect(!seen.text.contains(#"id="join-puzzle""#) && seen.headers[.retryAfter] == nil)
            let card = try #require(
                try await client.get("/api/v1/decks/hall/cards", headers: cookie).json()["cards"].array.first?["id"].int
            )
            let swiped = try await client.swipe(
                "hall", card: Int64(card), direction: "right", input: "button", trace: nil, participant: nil,
                headers: cookie)
            #expect(swiped.status == .created, "\(swiped.text)")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes WHERE suspect = ?", [true]) == 0)
        }
    }

    @Test("a host rotating networks meets the pool: free joins end there, and a puzzle still pays")
    func poolBoundsRotatingNetworks() async throws {
        // 0.05 a second: 3 free joins a network at once, 6 from the pool.
        try await withApp(
            {
                $0.port = 0
                $0.mintRateLimit = 0.05
                $0.trustedProxies = ProxyTests.proxy
            }, testing: .live
        ) { client, _ in
            _ = try await client.makeDeck("hall", titles: ["a"])
            var statuses: [HTTPResponse.Status] = []
            for i in 0..<10 {
                let r = try await client.execute(
                    uri: "/api/v1/decks/hall/participants", method: .post, headers: [Self.xff: "198.51.\(i).7"])
                statuses.append(r.status)
            }
            // makeDeck's reads came from the socket's own network, which draws from the pool too.
            #expect(statuses.filter { $0 == .created }.count <= 6, "\(statuses)")
            #expect(statuses.last == .tooManyRequests)
            let from: HTTPFields = [Self.xff: "198.51.99.7"]
            let solved = JoinPuzzleTests.solve(try await Self.puzzle(client, "hall", headers: from))
            #expect(try await Self.mint(client, "hall", solved, headers: from).status == .created)
            // The puzzle was the network's: from another, it is not valid.
            let elsewhere = JoinPuzzleTests.solve(try await Self.puzzle(client, "hall", headers: from))
            expectAPIError(
                try await Self.mint(client, "hall", elsewhere, headers: [Self.xff: "198.51.98.7"]), .forbidden,
                "puzzle_invalid")
        }
    }

    @Test("the work follows the deck's pressure; a puzzle issued before a burst stops paying once the work is 4× more")
    func workFollowsPressure() async throws {
        try await withApp { _, env in
            let store = try await env.openStore()
            let deck = try #require(try await store.deck(slug: "getaways"))
            let levels = MemoryLevels(drainPerSecond: JoinDifficulty.drainPerSecond)
            let puzzles = JoinPuzzles(secret: participantSecret, levels: levels, store: store)
            let base = JoinDifficulty.baseMaxNumber
            let early = try await puzzles.issue(deck: deck, address: "203.0.113.9", now: fixedTime)
            #expect(early.maxNumber == base)
            // A burst on the deck (from other networks) of the allowance and two steps: 4× the work.
            let burst = Double(JoinDifficulty.defaultAllowance) + 2 * JoinDifficulty.doublingStep
            levels.raise(["join:deck:\(deck.id)"], by: burst, now: fixedTime)
            #expect(try await puzzles.issue(deck: deck, address: "203.0.113.9", now: fixedTime).maxNumber == 4 * base)
            // The early puzzle still pays (within the tolerance), and raises the deck and the network.
            _ = try await puzzles.redeem(
                JoinPuzzleTests.solve(early), deck: deck, address: "203.0.113.9", now: fixedTime)
            #expect(
                levels.levels(["join:deck:\(deck.id)", "join:net:203.0.113.0/24"], now: fixedTime) == [burst + 1, 1])
            // One step more and an early puzzle is stale.
            let second = try await puzzles.issue(deck: deck, address: "203.0.113.9", now: fixedTime)
            levels.raise(["join:deck:\(deck.id)"], by: JoinDifficulty.doublingStep, now: fixedTime)
            var stale: JoinPuzzleRefusal?
            do {
                _ = try await puzzles.redeem(
                    JoinPuzzleTests.solve(second), deck: deck, address: "203.0.113.9", now: fixedTime)
            } catch ApiError.puzzle(let refusal) {
                stale = refusal
            }
            // `second` was issued at 4× the base: still within 4× of 8×, so it pays; an early one would not.
            #expect(stale == nil)
            let third = signerIssue(puzzles, deck, base)
            do {
                _ = try await puzzles.redeem(
                    JoinPuzzleTests.solve(third), deck: deck, address: "203.0.113.9", now: fixedTime)
                Issue.record("a base puzzle paid for 8× the work")
            } catch ApiError.puzzle(let refusal) {
                #expect(refusal == .stale)
            }
            // Drained back below the allowance, the work is the base again.
            let later = fixedTime + (burst + 100) / JoinDifficulty.drainPerSecond
            #expect(try await puzzles.issue(deck: deck, address: "203.0.113.9", now: later).maxNumber == base)
        }
    }

    /// A puzzle of work `work` signed as `puzzles` signs them (as if issued when the deck was quiet).
    func signerIssue(_ puzzles: JoinPuzzles, _ deck: Deck, _ work: Int) -> JoinPuzzle {
        puzzles.signer.issue(deckId: deck.id, network: "203.0.113.0/24", maxNumber: work, now: fixedTime)
    }

    @Test("one replay guard for two stores on one database: a salt claimed by both at once is claimed once")
    func replayGuardAcrossStores() async throws {
        try await withApp { _, env in
            let a = try await env.openStore()
            let b = try await env.openStore()
            for round in 0..<20 {
                let salt = String(format: "%032x", round)
                async let first = a.claimPuzzle(salt: salt, expiresAt: fixedTime + 600, now: fixedTime)
                async let second = b.claimPuzzle(salt: salt, expiresAt: fixedTime + 600, now: fixedTime)
                let claims = [try await first, try await second]
                #expect(claims.filter { $0 }.count == 1, "round \(round): \(claims)")
                #expect(try await a.claimPuzzle(salt: salt, expiresAt: fixedTime + 600, now: fixedTime + 1) == false)
            }
        }
    }

    @Test("the share panel's People expected sets the deck's joinLimit, and refuses a bad number in words")
    func sharePanelExpectedPeople() async throws {
        try await withApp { client, env in
            let ann = try await OwnerAuthTests.signIn(client, "ann", adding: env)  // adopts the sample deck
            let panel = try await client.get("/owner/decks/getaways/share", headers: ann)
            #expect(
                panel.status == .ok && panel.text.contains(#"<label for="expected-people">People expected</label>"#))
            let csrf = OwnerAuthTests.csrf(panel.text)
            let saved = try await client.postForm(
                "/owner/decks/getaways/expected", "csrf=\(csrf)&joinLimit=800", headers: ann)
            #expect(saved.status == .seeOther && saved.headers[.location] == "/owner/decks/getaways/share?saved=1")
            #expect(try await client.get("/api/v1/decks/getaways", headers: admin).json()["joinLimit"].int == 800)
            let shown = try await client.get("/owner/decks/getaways/share?saved=1", headers: ann)
            #expect(shown.text.contains(#"value="800""#) && shown.text.contains("Saved."))
            let bad = try await client.postForm(
                "/owner/decks/getaways/expected", "csrf=\(csrf)&joinLimit=lots", headers: ann)
            #expect(bad.status == .badRequest && bad.text.contains("People expected must be a whole number"))
            #expect(try await client.get("/api/v1/decks/getaways", headers: admin).json()["joinLimit"].int == 800)
            let cleared = try await client.postForm(
                "/owner/decks/getaways/expected", "csrf=\(csrf)&joinLimit=", headers: ann)
            #expect(cleared.status == .seeOther)
            #expect(try await client.get("/api/v1/decks/getaways", headers: admin).json()["joinLimit"].isNull)
            let forged = try await client.postForm("/owner/decks/getaways/expected", "joinLimit=5", headers: ann)
            #expect(forged.status == .forbidden)
        }
    }
}
