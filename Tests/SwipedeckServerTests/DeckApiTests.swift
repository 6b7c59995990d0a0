import Foundation
import HTTPTypes
import HummingbirdTesting
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Profiles, decks (list, create with the admin token, read), cards paging, health.
@Suite("API: profiles, decks, cards")
struct DeckApiTests {
    @Test("the bundled sample deck 'getaways' is seeded with at least 20 cards")
    func sampleDeckSeeded() async throws {
        try await withApp { client, _ in
            let r = try await client.get("/api/v1/decks/getaways")
            #expect(r.status == .ok)
            let j = try r.json()
            #expect(j["slug"].string == "getaways")
            #expect((j["cardCount"].int ?? 0) >= 20)
            #expect(try await client.cardIds("getaways").count == j["cardCount"].int)
            let list = try await client.get("/api/v1/decks").json()
            #expect(list["decks"].array.contains { $0["slug"].string == "getaways" })
        }
    }

    @Test("no sample deck when seeding is off")
    func noSeed() async throws {
        try await withApp({ $0.seedSampleDeck = false }) { client, _ in
            let list = try await client.get("/api/v1/decks").json()
            #expect(list["decks"].array.isEmpty)
            let page = try await client.get("/")
            #expect(page.status == .ok)
            #expect(page.text.contains("No decks yet"))
        }
    }

    @Test("GET /healthz")
    func health() async throws {
        try await withApp { client, _ in
            let r = try await client.get("/healthz")
            #expect(r.status == .ok)
            #expect(try r.json()["status"].string == "ok")
        }
    }

    @Test("GET /api/v1/profiles lists every profile; /profiles/{name} returns one; unknown is 404")
    func profiles() async throws {
        try await withApp { client, _ in
            let r = try await client.get("/api/v1/profiles")
            #expect(r.status == .ok)
            struct List: Decodable { let profiles: [SwipeProfile] }
            let list = try JSONDecoder().decode(List.self, from: Data(r.text.utf8))
            #expect(list.profiles == SwipeProfile.all)

            for p in SwipeProfile.all {
                let one = try await client.get("/api/v1/profiles/\(p.name)")
                #expect(one.status == .ok)
                #expect(try JSONDecoder().decode(SwipeProfile.self, from: Data(one.text.utf8)) == p)
            }
            expectAPIError(try await client.get("/api/v1/profiles/nope"), .notFound, "not_found")
        }
    }

    @Test("POST /api/v1/decks needs the admin token: 401 without it, with a wrong one, or another scheme")
    func createNeedsToken() async throws {
        try await withApp { client, env in
            let body = #"{"slug":"x","title":"X","cards":[{"title":"a"}]}"#
            expectAPIError(try await client.postJSON("/api/v1/decks", body), .unauthorized, "unauthorized")
            expectAPIError(try await client.createDeck(body, token: "wrong"), .unauthorized, "unauthorized")
            expectAPIError(try await client.createDeck(body, token: "t0ke"), .unauthorized, "unauthorized")
            expectAPIError(try await client.createDeck(body, token: "t0ken0"), .unauthorized, "unauthorized")
            expectAPIError(try await client.createDeck(body, token: ""), .unauthorized, "unauthorized")
            expectAPIError(
                try await client.postJSON("/api/v1/decks", body, headers: [.authorization: "Basic dDBrZW4="]),
                .unauthorized, "unauthorized")
            #expect(try await env.count("SELECT COUNT(*) FROM decks WHERE slug = 'x'") == 0)
        }
    }

    @Test("POST /api/v1/decks takes the settings a PATCH takes, under its rules (the stop rule was dropped)")
    func createWithSettings() async throws {
        try await withApp { client, _ in
            let body = """
                {"slug":"vote","title":"Vote","listed":false,"open":false,"rooms":true,
                 "stopRule":{"kind":"votes","votes":3,"closeWhenDecided":true},"cards":[{"title":"A"}]}
                """
            let r = try await client.createDeck(body)
            #expect(r.status == .created, "\(r.text)")
            let j = try r.json()
            #expect(j["listed"].bool == false && j["open"].bool == false && j["rooms"].bool == true)
            #expect(j["stopRule"]["kind"].string == "votes" && j["stopRule"]["votes"].int == 3)
            #expect(j["stopRule"]["closeWhenDecided"].bool == true)
            let bad = #"{"slug":"bad","title":"Bad","stopRule":{"kind":"votes","votes":0},"cards":[{"title":"A"}]}"#
            let refused = try await client.createDeck(bad)
            #expect(refused.status == .badRequest)
            #expect(try refused.json()["error"]["code"].string?.hasPrefix("invalid_stop") == true, "\(refused.text)")
            #expect(try await client.get("/api/v1/decks/bad").status == .notFound, "nothing stored")
        }
    }

    @Test("POST /api/v1/decks: 201 with Location, stored deck and cards, then 409 slug_taken")
    func createDeck() async throws {
        try await withApp { client, env in
            let body = """
                {"slug":"lunch","title":"Lunch","description":"Where to eat","profile":"eightway","allowButtons":false,
                 "labels":{"left":"NO","right":"YES"},
                 "cards":[{"title":"Tacos","subtitle":"cheap","body":"one\\ntwo","image":"/img/a.svg","link":"https://example.com/t","accent":"#112233"},
                          {"title":"Ramen"}]}
                """
            let r = try await client.createDeck(body)
            #expect(r.status == .created)
            #expect(r.headers[.location] == "/api/v1/decks/lunch")
            let j = try r.json()
            #expect(j["slug"].string == "lunch")
            #expect(j["title"].string == "Lunch")
            #expect(j["profile"].string == "eightway")
            #expect(j["allowButtons"].bool == false)
            #expect(j["cardCount"].int == 2)
            #expect(j["labels"]["left"].string == "NO")
            #expect(j["labels"]["right"].string == "YES")
            #expect(j["labels"]["up"].string == "SUPER")
            #expect(j["links"]["page"].string == "/d/lunch")

            let got = try await client.get("/api/v1/decks/lunch")
            #expect(got.status == .ok)
            #expect(try got.json()["cardCount"].int == 2)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM cards WHERE deckId = (SELECT id FROM decks WHERE slug = 'lunch')") == 2)

            let list = try await client.get("/api/v1/decks").json()
            #expect(list["decks"].array.contains { $0["slug"].string == "lunch" && $0["cardCount"].int == 2 })

            expectAPIError(try await client.createDeck(body), .conflict, "slug_taken")
            #expect(try await env.count("SELECT COUNT(*) FROM decks WHERE slug = 'lunch'") == 1)
        }
    }

    @Test(
        "POST /api/v1/decks: 400 naming each invalid field",
        arguments: [
            (#"{"slug":"Bad Slug","title":"T","cards":[{"title":"a"}]}"#, "invalid_slug"),
            (#"{"slug":"","title":"T","cards":[{"title":"a"}]}"#, "invalid_slug"),
            (#"{"slug":"ok","title":"  ","cards":[{"title":"a"}]}"#, "invalid_title"),
            (#"{"slug":"ok","title":"T","profile":"wobbly","cards":[{"title":"a"}]}"#, "unknown_profile"),
            (#"{"slug":"ok","title":"T","cards":[]}"#, "no_cards"),
            (#"{"slug":"ok","title":"T","cards":[{"title":""}]}"#, "invalid_card_title"),
            (#"{"slug":"ok","title":"T","cards":[{"title":"a","image":"javascript:alert(1)"}]}"#, "invalid_image"),
            (
                #"{"slug":"ok","title":"T","cards":[{"title":"a","image":"http://plain.example/x.png"}]}"#,
                "invalid_image"
            ),
            (#"{"slug":"ok","title":"T","cards":[{"title":"a","link":"javascript:alert(1)"}]}"#, "invalid_link"),
            (#"{"slug":"ok","title":"T","cards":[{"title":"a","accent":"red"}]}"#, "invalid_accent"),
            (
                #"{"slug":"ok","title":"T","labels":{"left":"THIS LABEL IS FAR TOO LONG"},"cards":[{"title":"a"}]}"#,
                "invalid_label"
            ),
            (#"{"slug":"ok","title":"T"}"#, "malformed_json"),
            (#"{"slug":"ok","#, "malformed_json"),
        ])
    func createDeckInvalid(body: String, code: String) async throws {
        try await withApp { client, env in
            expectAPIError(try await client.createDeck(body), .badRequest, code)
            #expect(try await env.count("SELECT COUNT(*) FROM decks WHERE slug = 'ok'") == 0)
        }
    }

    @Test("POST /api/v1/decks with text/plain is 415")
    func createDeckWrongType() async throws {
        try await withApp { client, _ in
            let r = try await client.execute(
                uri: "/api/v1/decks", method: .post,
                headers: [.authorization: "Bearer t0ken", .contentType: "text/plain"],
                body: .init(string: #"{"slug":"x","title":"X","cards":[{"title":"a"}]}"#))
            expectAPIError(r, .unsupportedMediaType, "unsupported_media_type")
        }
    }

    @Test("GET /api/v1/decks/{deck} of an unknown deck is 404")
    func unknownDeck() async throws {
        try await withApp { client, _ in
            expectAPIError(try await client.get("/api/v1/decks/nope"), .notFound, "not_found")
            expectAPIError(try await client.get("/api/v1/decks/nope/cards"), .notFound, "not_found")
            expectAPIError(try await client.get("/api/v1/decks/nope/results"), .notFound, "not_found")
            expectAPIError(try await client.get("/api/v1/decks/nope/results.csv"), .notFound, "not_found")
            expectAPIError(
                try await client.get("/api/v1/decks/nope/history?participant=\(pid("alice"))"), .notFound, "not_found")
        }
    }

    @Test("cards are paged by cursor and limit, in deck order")
    func cardsPaging() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("five", titles: ["c0", "c1", "c2", "c3", "c4"])
            #expect(ids.count == 5)

            let p1 = try await client.get("/api/v1/decks/five/cards?limit=2&participant=\(pid("pager"))").json()
            #expect(p1["cards"].array.map { $0["title"].string } == ["c0", "c1"])
            #expect(p1["cards"][0]["position"].int == 0)
            #expect(p1["cards"][0]["detail"].string == "/d/five/cards/\(ids[0])")
            #expect(p1["remaining"].int == 5)
            #expect(p1["nextCursor"].string == "1")

            let p2 = try await client.get("/api/v1/decks/five/cards?limit=2&cursor=1&participant=\(pid("pager"))")
                .json()
            #expect(p2["cards"].array.map { $0["title"].string } == ["c2", "c3"])
            #expect(p2["remaining"].int == 3)
            #expect(p2["nextCursor"].string == "3")

            let p3 = try await client.get("/api/v1/decks/five/cards?limit=2&cursor=3&participant=\(pid("pager"))")
                .json()
            #expect(p3["cards"].array.map { $0["title"].string } == ["c4"])
            #expect(p3["remaining"].int == 1)
            #expect(p3["nextCursor"].isNull)

            // Default limit (20) returns the whole small deck.
            let all = try await client.get("/api/v1/decks/five/cards?participant=\(pid("pager"))").json()
            #expect(all["cards"].array.count == 5)
            #expect(all["nextCursor"].isNull)
        }
    }

    @Test("cards already swiped by the participant are skipped; undone ones come back")
    func cardsSkipSwiped() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("skip", titles: ["c0", "c1", "c2"])
            let s = try await client.swipe("skip", card: ids[0], direction: "right", participant: "sam", key: "skip-1")
            #expect(s.status == .created)

            let mine = try await client.get("/api/v1/decks/skip/cards?participant=\(pid("sam"))").json()
            #expect(mine["cards"].array.map { $0["title"].string } == ["c1", "c2"])
            #expect(mine["remaining"].int == 2)
            // The same participant through the cookie.
            let byCookie = try await client.get("/api/v1/decks/skip/cards", headers: cookie("sam")).json()
            #expect(byCookie["cards"].array.map { $0["title"].string } == ["c1", "c2"])
            // Somebody else still sees every card.
            let other = try await client.get("/api/v1/decks/skip/cards?participant=\(pid("tom"))").json()
            #expect(other["cards"].array.count == 3)

            let undo = try await client.execute(uri: "/api/v1/swipes/skip-1?participant=\(pid("sam"))", method: .delete)
            #expect(undo.status == .ok)
            let again = try await client.get("/api/v1/decks/skip/cards?participant=\(pid("sam"))").json()
            #expect(again["cards"].array.map { $0["title"].string } == ["c0", "c1", "c2"])
        }
    }

    @Test(
        "cards paging: 400 for an invalid limit, cursor or participant",
        arguments: [
            ("limit=0", "invalid_limit"), ("limit=101", "invalid_limit"), ("limit=abc", "invalid_limit"),
            ("limit=-1", "invalid_limit"),
            ("limit=99999999999999999999", "invalid_limit"),
            ("cursor=-2", "invalid_cursor"), ("cursor=x", "invalid_cursor"), ("cursor=1.5", "invalid_cursor"),
            ("cursor=99999999999", "invalid_cursor"),
            ("limit=", "invalid_limit"), ("cursor=", "invalid_cursor"), ("limit=1&limit=2", "invalid_limit"),
            ("participant=bad%20id", "invalid_participant"), ("participant=a.b", "invalid_participant"),
            ("participant=", "invalid_participant"),
            ("participant=\(pid("a"))&participant=\(pid("b"))", "invalid_participant"),
        ])
    func cardsPagingInvalid(query: String, code: String) async throws {
        try await withApp { client, _ in
            try await client.makeDeck("q", titles: ["a"])
            expectAPIError(try await client.get("/api/v1/decks/q/cards?\(query)"), .badRequest, code)
        }
    }
}
