import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Owners choose who may vote: anyone with the link, a secret link, one-time codes, or an allow
/// list of signed external ids; and how many of one network may join an event's deck at once.
@Suite("Access modes and join limits")
struct AccessModeTests {
    /// The `sd_d<id>` cookie a response sets, as a request header.
    static func admission(_ r: TestResponse) -> HTTPFields? {
        guard let set = r.headers[.setCookie], set.hasPrefix("sd_d") else { return nil }
        return [.cookie: String(set.prefix { $0 != ";" })]
    }

    /// The deck's access secret: what the database stores (a seed), revealed with the app's key.
    static func secret(_ env: TestEnv, _ slug: String) async throws -> String {
        let stored = try #require(
            try await env.row("SELECT accessSecret FROM decks WHERE slug = ?", [slug])?.value(at: 0) as String?)
        return try testSecretKey.reveal(stored, for: .deckAccess)
    }

    @Test(
        "an unlisted deck: hidden from lists, its page asks for the secret link, which admits with a cookie for this deck only"
    )
    func unlisted() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("sec", titles: ["a", "b"])
            let r = try await client.patchDeck("sec", #"{"access":"unlisted"}"#)
            #expect(try r.json()["access"].string == "unlisted")
            let key = try await Self.secret(env, "sec")
            #expect(key.count >= 32)
            #expect(!(try await client.get("/").text.contains("/d/sec")))
            #expect(!(try await client.get("/api/v1/decks").text.contains(#""slug":"sec""#)))
            #expect(try await client.get("/api/v1/decks", headers: admin).text.contains(#""slug":"sec""#))

            let bare = try await client.get("/d/sec", headers: cookie("visitor"))
            #expect(
                bare.status == .ok && bare.text.contains("invited people only") && !bare.text.contains("id=\"stack\""))
            #expect(try await client.get("/d/sec?k=wrong", headers: cookie("visitor")).status == .forbidden)
            let admitted = try await client.get("/d/sec?k=\(key)", headers: cookie("visitor"))
            #expect(admitted.status == .seeOther && admitted.headers[.location] == "/d/sec")
            let pass = try #require(Self.admission(admitted))
            #expect(
                try await client.get("/d/sec", headers: merged(cookie("visitor"), pass)).text.contains("id=\"stack\""))

            // The device cookie alone does not act on the deck; the admission does.
            expectAPIError(
                try await client.swipe(
                    "sec", card: ids[0], direction: "right", input: "button", trace: nil, participant: nil,
                    headers: cookie("visitor")),
                .forbidden, "access_required")
            #expect(
                try await client.swipe(
                    "sec", card: ids[0], direction: "right", input: "button", trace: nil, participant: nil,
                    headers: merged(cookie("visitor"), pass)
                ).status == .created)
            // The cards and their detail pages are the admitted people's.
            expectAPIError(
                try await client.get("/api/v1/decks/sec/cards", headers: cookie("visitor")), .forbidden,
                "access_required")
            #expect(try await client.get("/d/sec/cards/\(ids[1])", headers: cookie("visitor")).status == .forbidden)
            #expect(
                try await client.get("/d/sec/cards/\(ids[1])", headers: merged(cookie("visitor"), pass)).status == .ok)

            // A program: no key, 403; the key, a credential that votes.
            expectAPIError(
                try await client.execute(uri: "/api/v1/decks/sec/participants", method: .post), .forbidden,
                "access_required")
            let minted = try await client.postJSON("/api/v1/decks/sec/participants", #"{"key":"\#(key)"}"#)
            #expect(minted.status == .created)
            let credential = try #require(try minted.json()["participant"].string)
            #expect(
                try await client.swipe(
                    "sec", card: ids[1], direction: "left", input: "button", trace: nil, participant: credential
                ).status == .created)
            // Results say which mode is in force.
            #expect(
                try await client.get("/api/v1/decks/sec/results", headers: admin).json()["access"].string == "unlisted")
        }
    }

    @Test("one-time codes: a wrong code is refused, a code admits on any device as one and the same participant")
    func codes() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("cls", titles: ["a", "b"])
            #expect(try await client.patchDeck("cls", #"{"access":"codes"}"#).status == .ok)
            expectAPIError(
                try await client.postJSON("/api/v1/decks/cls/codes", #"{"count":0}"#, headers: admin), .badRequest,
                "invalid_count")
            let made = try await client.postJSON("/api/v1/decks/cls/codes", #"{"count":3}"#, headers: admin)
            #expect(made.status == .created)
            let codes = try made.json()["codes"].array.compactMap(\.string)
            #expect(codes.count == 3 && codes.allSatisfy { $0.count == 9 && $0.dropFirst(4).first == "-" })
            #expect(try await client.get("/api/v1/decks/cls/codes", headers: admin).json()["codes"].array.count == 3)
            expectAPIError(try await client.get("/api/v1/decks/cls/codes"), .unauthorized, "unauthorized")

            let page = try await client.get("/d/cls", headers: cookie("p1"))
            #expect(page.text.contains(#"name="code""#) && page.text.contains("Your code"))
            let wrong = try await client.get("/d/cls?code=AAAA-AAAA", headers: cookie("p1"))
            #expect(wrong.status == .forbidden && wrong.text.contains("not one of this deck"))
            #expect(wrong.text.contains(#"value="AAAA-AAAA""#), "what was typed stays in the field")
            // A form sends a space typed in the code as "+".
            let spaced = codes[2].replacingOccurrences(of: "-", with: "+")
            #expect(try await client.get("/d/cls?code=\(spaced)", headers: cookie("p3")).status == .seeOther)
            // Typed in lower case without the dash, on a phone; the printed form on a laptop.
            let typed = codes[0].lowercased().replacingOccurrences(of: "-", with: "")
            let phone = try #require(
                Self.admission(try await client.get("/d/cls?code=\(typed)", headers: cookie("phone"))))
            let laptop = try #require(
                Self.admission(try await client.get("/d/cls?code=\(codes[0])", headers: cookie("laptop"))))
            #expect(
                try await client.swipe(
                    "cls", card: ids[0], direction: "right", input: "button", trace: nil, participant: nil,
                    headers: merged(cookie("phone"), phone)
                ).status == .created)
            expectAPIError(
                try await client.swipe(
                    "cls", card: ids[0], direction: "left", input: "button", trace: nil, participant: nil,
                    headers: merged(cookie("laptop"), laptop)),
                .conflict, "already_swiped")
            // A program with the same code is that participant too; another code is another.
            let program = try #require(
                try await client.postJSON("/api/v1/decks/cls/participants", #"{"code":"\#(codes[0])"}"#).json()[
                    "participant"
                ].string)
            expectAPIError(
                try await client.swipe(
                    "cls", card: ids[0], direction: "left", input: "button", trace: nil, participant: program),
                .conflict, "already_swiped")
            let other = try #require(
                try await client.postJSON("/api/v1/decks/cls/participants", #"{"code":"\#(codes[1])"}"#).json()[
                    "participant"
                ].string)
            #expect(
                try await client.swipe(
                    "cls", card: ids[0], direction: "left", input: "button", trace: nil, participant: other
                ).status == .created)
            expectAPIError(
                try await client.postJSON("/api/v1/decks/cls/participants", #"{"code":"ZZZZ-ZZZZ"}"#), .forbidden,
                "access_required")
            #expect(try await env.count("SELECT COUNT(DISTINCT participantId) FROM swipes") == 2)
        }
    }

    /// An owner with an API token (made in the store, as the tokens page makes one): its Bearer header.
    static func ownerToken(_ env: TestEnv, _ name: String) async throws -> HTTPFields {
        let store = try await env.openStore()
        let (owner, _) = try await store.createOwner(name: name, passwordHash: "unused", now: fixedTime)
        let token = Secret.token(prefix: "sdt_")
        try await store.createApiToken(
            ownerId: owner.id, name: "cards", tokenHash: Secret.sha256(token), prefix: String(token.prefix(8)),
            now: fixedTime)
        return [.authorization: "Bearer \(token)"]
    }

    @Test("the owner's API token reads every card of their deck, with its known answer, whatever the deck's access")
    func ownerReadsOwnCards() async throws {
        try await withApp { client, env in
            let ada = try await Self.ownerToken(env, "ada")
            let ben = try await Self.ownerToken(env, "ben")
            let made = try await client.createDeck(
                #"{"slug":"lab","title":"Lab","cards":[{"title":"a","answer":"right"},{"title":"b"},{"title":"c","answer":"left"}]}"#,
                token: try #require(ada[.authorization].map { String($0.dropFirst(7)) }))
            #expect(made.status == .created)
            for access in ["codes", "allowList", "unlisted", "link"] {
                #expect(try await client.patchJSON("/api/v1/decks/lab", #"{"access":"\#(access)"}"#).status == .ok)
                // The owner's token: a 200 with every card and the answers (403 access_required before on
                // every mode but link, whose cards never carried their answers).
                let read = try await client.get("/api/v1/decks/lab/cards", headers: ada)
                #expect(read.status == .ok, "\(access): \(read.status)")
                let cards = try read.json()["cards"].array
                #expect(cards.map { $0["title"].string } == ["a", "b", "c"], "\(access)")
                #expect(cards.map { $0["answer"].string } == ["right", nil, "left"], "\(access)")
                // Another owner's token and an anonymous program are no owner here: no answers, and
                // only people the deck admitted read an invitation-only deck's cards.
                for headers in [ben, [:]] {
                    let other = try await client.get("/api/v1/decks/lab/cards", headers: headers)
                    if access == "link" {
                        #expect(other.status == .ok)
                        #expect(try other.json()["cards"].array.allSatisfy { $0["answer"].string == nil })
                    } else {
                        expectAPIError(other, .forbidden, "access_required")
                    }
                }
            }
            // A participant naming their own credential gets their deal, without answers.
            let p = try #require(
                try await client.postJSON("/api/v1/decks/lab/participants", "{}").json()["participant"].string)
            let dealt = try await client.get("/api/v1/decks/lab/cards?participant=\(p)")
            #expect(try dealt.json()["cards"].array.allSatisfy { $0["answer"].string == nil })
        }
    }

    @Test(
        "an allow list: a correctly signed external id admits, one id is one participant; a wrong signature is refused")
    func allowList() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("staff", titles: ["a"])
            #expect(try await client.patchDeck("staff", #"{"access":"allowList"}"#).status == .ok)
            let key = try await Self.secret(env, "staff")
            #expect(
                try await client.get("/api/v1/decks/staff/access", headers: admin).json()["signatureKey"].string == key)
            let sig = ParticipantSigner.externalSignature(pid: "ada@example.org", accessSecret: key)
            #expect(sig.count == 32)
            #expect(
                try await client.get("/d/staff?pid=ada@example.org&sig=\(String(sig.reversed()))", headers: cookie("x"))
                    .status == .forbidden)
            #expect(
                try await client.get("/d/staff?pid=bob@example.org&sig=\(sig)", headers: cookie("x")).status
                    == .forbidden)
            let one = try #require(
                Self.admission(try await client.get("/d/staff?pid=ada@example.org&sig=\(sig)", headers: cookie("one"))))
            let two = try #require(
                Self.admission(
                    try await client.get("/d/staff?pid=ada@example.org&sig=\(sig.uppercased())", headers: cookie("two"))
                ))
            #expect(
                try await client.swipe(
                    "staff", card: ids[0], direction: "right", input: "button", trace: nil, participant: nil,
                    headers: merged(cookie("one"), one)
                ).status == .created)
            expectAPIError(
                try await client.swipe(
                    "staff", card: ids[0], direction: "right", input: "button", trace: nil, participant: nil,
                    headers: merged(cookie("two"), two)),
                .conflict, "already_swiped")
            // An admission cookie for one deck does nothing on another.
            _ = try await client.makeDeck("other", titles: ["b"])
            #expect(try await client.patchDeck("other", #"{"access":"allowList"}"#).status == .ok)
            let otherCard = try #require(
                try await env.row("SELECT id FROM cards WHERE title = 'b'")?.value(at: 0) as Int64?)
            expectAPIError(
                try await client.swipe(
                    "other", card: otherCard, direction: "right", input: "button", trace: nil, participant: nil,
                    headers: merged(cookie("one"), one)),
                .forbidden, "access_required")
            expectAPIError(
                try await client.patchDeck("staff", #"{"access":"friends"}"#), .badRequest, "invalid_access")
        }
    }

    @Test("a deck's join limit lets more of one network join it at once; other decks keep the server's budget")
    func joinLimit() async throws {
        // 0.05 a second: the server's budget is 3 at once; the event deck lets 10 join.
        try await withApp(
            {
                $0.port = 0
                $0.mintRateLimit = 0.05
            }, testing: .live
        ) { client, _ in
            _ = try await client.makeDeck("event", titles: ["a"])
            _ = try await client.makeDeck("plain", titles: ["a"])
            #expect(try await client.patchDeck("event", #"{"joinLimit":10}"#).json()["joinLimit"].int == 10)
            expectAPIError(
                try await client.patchDeck("event", #"{"joinLimit":0}"#), .badRequest, "invalid_join_limit")
            func mint(_ slug: String) async throws -> HTTPResponse.Status {
                try await client.execute(uri: "/api/v1/decks/\(slug)/participants", method: .post).status
            }
            var event: [HTTPResponse.Status] = []
            for _ in 0..<11 { event.append(try await mint("event")) }
            #expect(event.filter { $0 == .created }.count == 10 && event.last == .tooManyRequests)
            // The plain deck's budget was partly spent by makeDeck's reads (page-like GETs mint too).
            var plain: [HTTPResponse.Status] = []
            for _ in 0..<4 { plain.append(try await mint("plain")) }
            #expect(plain.filter { $0 == .created }.count <= 3 && plain.last == .tooManyRequests)
        }
    }

    @Test("past the network's budget, an event deck admits page visitors with a cookie for that deck alone")
    func eventDeckMintsForItselfOnly() async throws {
        try await withApp(
            {
                $0.port = 0
                $0.mintRateLimit = 0.05
            }, testing: .live
        ) { client, _ in
            _ = try await client.makeDeck("party", titles: ["a"])
            let plain = try await client.makeDeck("quiet", titles: ["b"])
            #expect(try await client.patchDeck("party", #"{"joinLimit":5}"#).status == .ok)
            var device = 0
            var deckOnly: [HTTPFields] = []
            for _ in 0..<12 {
                let r = try await client.get("/d/party")
                #expect(r.status == .ok)
                let set = r.headers[.setCookie] ?? ""
                if set.hasPrefix("sd_pid=") { device += 1 }
                if let pass = Self.admission(r) { deckOnly.append(pass) }
            }
            #expect(device <= 3, "the network's budget: 3 at once, some spent by makeDeck's reads")
            #expect(deckOnly.count == 5, "then the deck's own 5")
            // Such a cookie votes on the party deck and nowhere else.
            let card = try #require(
                try await client.get("/api/v1/decks/party/cards", headers: deckOnly[0]).json()["cards"].array.first?[
                    "id"
                ].int)
            #expect(
                try await client.swipe(
                    "party", card: Int64(card), direction: "right", input: "button", trace: nil, participant: nil,
                    headers: deckOnly[0]
                ).status == .created)
            let elsewhere = try await client.swipe(
                "quiet", card: plain[0], direction: "right", input: "button", trace: nil, participant: nil,
                headers: deckOnly[0])
            expectAPIError(elsewhere, .badRequest, "participant_required")
        }
    }
}
