import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import SwipedeckServer

/// Issue "Results people can trust": participants are minted by the server, every input kind is
/// counted apart, and results belong to the deck's owner. Every stuffing attempt gets its code and
/// adds nothing to the counted results.
@Suite("Trust: signed participants, counted kinds, private results")
struct TrustTests {
    /// The counted results of a deck as the admin reads them: (title, likes, total) in rank order.
    static func ranking(_ client: any TestClientProtocol, _ slug: String) async throws -> [String] {
        let j = try await client.get("/api/v1/decks/\(slug)/results", headers: admin).json()
        return j["cards"].array.map { "\($0["title"].string ?? "?") \($0["likes"].int ?? -1)/\($0["total"].int ?? -1)" }
    }

    @Test("the three-curl attack: invented participants claiming button presses get 403 and change nothing")
    func threeCurlAttack() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("vote", titles: ["Good", "Stuffed"])
            let before = try await Self.ranking(client, "vote")
            for sock in ["sock1", "sock2", "sock3"] {
                let body = #"{"card":\#(ids[1]),"direction":"right","input":"button","participant":"\#(sock)"}"#
                expectAPIError(
                    try await client.postJSON("/api/v1/decks/vote/swipes", body), .forbidden, "unknown_participant")
            }
            #expect(try await Self.ranking(client, "vote") == before)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
            #expect(try await env.count("SELECT COUNT(*) FROM participants") == 0)
        }
    }

    @Test("forged, altered and foreign ids are refused in the body, the cookie and the query")
    func forgedIds() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("f", titles: ["a"])
            let good = pid("eve")
            let altered = String(good.dropLast()) + (good.hasSuffix("0") ? "1" : "0")
            let foreign = ParticipantSigner(secret: "some other server's secret").sign(body: "eve")
            let bodyOnly = String(good.prefix { $0 != "-" })
            for id in [altered, foreign, bodyOnly, "p0123456789abcdef0123456789abcdef"] {
                // Built by hand: `client.swipe` would sign the id with the test secret.
                let body =
                    #"{"participant":"\#(id)","#
                    + String(try swipeBody(card: ids[0], direction: "right", participant: nil).dropFirst())
                let r = try await client.postJSON("/api/v1/decks/f/swipes", body)
                expectAPIError(r, .forbidden, "unknown_participant")
                let viaCookie = try await client.swipe(
                    "f", card: ids[0], direction: "right", participant: nil, headers: [.cookie: "sd_pid=\(id)"])
                expectAPIError(viaCookie, .forbidden, "unknown_participant")
                expectAPIError(
                    try await client.get("/api/v1/decks/f/history?participant=\(id)"), .forbidden, "unknown_participant"
                )
            }
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
            // A page view with a forged cookie gets a fresh, signed one.
            let page = try await client.get("/d/f", headers: [.cookie: "sd_pid=\(altered)"])
            let set = page.headers[.setCookie] ?? ""
            #expect(set.hasPrefix("sd_pid=b"))
            let fresh = String(set.dropFirst("sd_pid=".count).prefix { $0 != ";" })
            #expect(ParticipantSigner(secret: participantSecret).check(fresh, now: fixedTime) != .unknown)
            #expect(
                try await client.swipe("f", card: ids[0], direction: "right", participant: fresh).status == .created)
        }
    }

    @Test("POST /api/v1/decks/{deck}/participants mints a signed id that can swipe; unknown and closed decks refuse")
    func mint() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("m", titles: ["a"])
            let r = try await client.execute(uri: "/api/v1/decks/m/participants", method: .post)
            #expect(r.status == .created)
            let id = try #require(try r.json()["participant"].string)
            guard case .valid(let credential) = ParticipantSigner(secret: participantSecret).check(id, now: fixedTime)
            else {
                Issue.record("not a valid credential: \(id)")
                return
            }
            #expect(credential.mintedAt == fixedTime)
            #expect(try await client.swipe("m", card: ids[0], direction: "right", participant: id).status == .created)
            // What is stored is the identity derived for this deck, never the credential.
            #expect(try await env.count("SELECT COUNT(*) FROM participants WHERE id = '\(id)'") == 0)
            #expect(try await env.count("SELECT COUNT(*) FROM participants WHERE legacy = FALSE") == 1)
            expectAPIError(
                try await client.execute(uri: "/api/v1/decks/nope/participants", method: .post), .notFound, "not_found")
            _ = try await client.execute(
                uri: "/api/v1/decks/m", method: .patch, headers: merged(jsonType, admin),
                body: ByteBuffer(string: #"{"open":false}"#))
            expectAPIError(
                try await client.execute(uri: "/api/v1/decks/m/participants", method: .post), .conflict, "deck_closed")
        }
    }

    @Test("minting is rate-limited per network: a classroom of 100 joins at once, then 429 with Retry-After")
    func mintLimit() async throws {
        try await withApp({ $0.port = 0 }, testing: .live) { client, _ in
            _ = try await client.makeDeck("class", titles: ["a"])
            var created = 0
            var limited: TestResponse?
            for _ in 0..<130 {
                let r = try await client.execute(uri: "/api/v1/decks/class/participants", method: .post)
                if r.status == .created {
                    created += 1
                } else {
                    limited = r
                    break
                }
            }
            // The default (2 a second, a minute's worth at once) lets 120 join; the cards API calls of
            // `makeDeck` were page-like reads that took a token or so from the same budget.
            #expect(created >= 100 && created <= 120, "\(created)")
            let refused = try #require(limited)
            expectAPIError(refused, .tooManyRequests, "rate_limited")
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Page views share the budget: past it the page is served without a participant cookie.
            let page = try await client.get("/d/class")
            #expect(page.status == .ok && page.headers[.setCookie] == nil)
        }
    }

    @Test("--rate-mint 0 turns the mint limit off")
    func mintLimitOff() async throws {
        try await withApp(
            {
                $0.port = 0
                $0.mintRateLimit = 0
            }, testing: .live
        ) { client, _ in
            _ = try await client.makeDeck("free", titles: ["a"])
            for _ in 0..<150 {
                #expect(
                    try await client.execute(uri: "/api/v1/decks/free/participants", method: .post).status == .created)
            }
        }
    }

    @Test("button swipes on a drag-only deck are refused and stored nowhere")
    func dragOnly() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("drag", titles: ["a"], allowButtons: false)
            for input in ["button", "key", "api"] {
                let r = try await client.swipe(
                    "drag", card: ids[0], direction: "right", input: input, trace: nil, participant: "b-\(input)")
                expectAPIError(r, .unprocessableContent, "input_not_allowed")
            }
            let form = try await client.postForm(
                "/d/drag/swipe", "card=\(ids[0])&direction=right", headers: cookie("form"))
            #expect(form.status == .unprocessableContent)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
        }
    }
}
