import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

#if canImport(Glibc)
    import Glibc
#endif

/// Match rooms over the API, on the engine of this run (SQLite, or PostgreSQL with
/// `SWIPEDECK_TEST_DATABASE_URL`).
@Suite("Room API")
struct RoomApiTests {
    /// A swipe made in room `code` (an API swipe: no trace).
    static func roomSwipe(card: Int64, direction: String, participant: String, room: String) -> String {
        #"{"card":\#(card),"direction":"\#(direction)","input":"api","participant":"\#(pid(participant))","room":"\#(room)"}"#
    }

    /// Creates a room on `slug` as `participant`; returns its code.
    static func createRoom(
        _ client: any TestClientProtocol, _ slug: String, participant: String, body: String = "{}",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let r = try await client.postJSON(
            "/api/v1/decks/\(slug)/rooms?participant=\(pid(participant))", body)
        #expect(r.status == .created, "\(r.text)", sourceLocation: sourceLocation)
        return try r.json()["code"].string ?? ""
    }

    @Test(
        "create, join, read: a code without look-alikes, /r/{code}, members with names, 200 for a member joining again")
    func createAndJoin() async throws {
        try await withApp { client, _ in
            try await client.makeDeck("films", titles: ["Alien", "Brazil", "Casablanca"])
            let created = try await client.postJSON(
                "/api/v1/decks/films/rooms",
                #"{"name":"  Ana ","participant":"\#(pid("ana"))","rule":{"kind":"atLeast","count":2}}"#)
            #expect(created.status == .created, "\(created.text)")
            let j = try created.json()
            let code = try #require(j["code"].string)
            #expect(RoomCode.normalized(code) == code)
            #expect(created.headers[.location] == "/r/\(code)")
            #expect(j["deck"]["slug"].string == "films")
            #expect(j["rule"] == .object(["kind": .string("atLeast"), "count": .number(2)]))
            #expect(j["state"].string == "open")
            #expect(j["maxMatches"].isNull)
            #expect(j["cardCount"].int == 3)
            #expect(j["expiresAt"].double == fixedTime + 24 * 3600)
            #expect(j["members"].array.map { $0["name"].string } == ["Ana"])
            #expect(j["you"].int == j["members"][0]["id"].int)
            // Ben joins by the code in lower case, without a name: "Member 2".
            let joined = try await client.postJSON(
                "/api/v1/rooms/\(code.lowercased())/members?participant=\(pid("ben"))", "{}")
            #expect(joined.status == .created, "\(joined.text)")
            #expect(try joined.json()["members"].array.map { $0["name"].string } == ["Ana", "Member 2"])
            let again = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", "{}")
            #expect(again.status == .ok)
            let read = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ben"))")
            #expect(read.status == .ok)
            #expect(try read.json()["you"].int == (try joined.json())["you"].int)
        }
    }

    @Test("refusals: unknown room and non-member alike 404, full 409, bad rule 400, deck without rooms 403")
    func refusals() async throws {
        try await withApp { client, _ in
            try await client.makeDeck("films", titles: ["Alien", "Brazil"])
            expectAPIError(
                try await client.get("/api/v1/rooms/ZZZZZZ?participant=\(pid("ana"))"), .notFound, "room_not_found")
            expectAPIError(
                try await client.get("/api/v1/rooms/not-a-code?participant=\(pid("ana"))"), .notFound,
                "room_not_found")
            let code = try await Self.createRoom(client, "films", participant: "ana", body: #"{"maxMembers":2}"#)
            // A non-member is told what an unknown code is told (no existence oracle).
            expectAPIError(
                try await client.get("/api/v1/rooms/\(code)?participant=\(pid("eve"))"), .notFound, "room_not_found")
            expectAPIError(try await client.get("/api/v1/rooms/\(code)"), .notFound, "room_not_found")
            expectAPIError(
                try await client.get("/api/v1/rooms/\(code)/events?participant=\(pid("eve"))"), .notFound,
                "room_not_found")
            _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", "{}")
            expectAPIError(
                try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("cy"))", "{}"), .conflict,
                "room_full")
            for rule in [
                #"{"kind":"atLeast","count":0}"#, #"{"kind":"share","percent":101}"#, #"{"kind":"most"}"#,
                #"{"kind":"atLeast","count":20}"#,
            ] {
                expectAPIError(
                    try await client.postJSON(
                        "/api/v1/decks/films/rooms?participant=\(pid("ana"))", #"{"rule":\#(rule)}"#), .badRequest,
                    "invalid_room_rule")
            }
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/decks/films/rooms?participant=\(pid("ana"))", #"{"expiresInHours":721}"#), .badRequest,
                "invalid_room_hours")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/decks/films/rooms?participant=\(pid("ana"))",
                    #"{"name":"\#(String(repeating: "n", count: 41))"}"#),
                .badRequest, "invalid_name")
            let off = try await client.execute(
                uri: "/api/v1/decks/films", method: .patch, headers: merged(jsonType, admin),
                body: ByteBuffer(string: #"{"rooms":false}"#))
            #expect(off.status == .ok, "\(off.text)")
            #expect(try off.json()["rooms"].bool == false)
            expectAPIError(
                try await client.postJSON("/api/v1/decks/films/rooms?participant=\(pid("ana"))", "{}"), .forbidden,
                "rooms_off")
        }
    }

    @Test("a room starts at nothing: swipes made on the deck before it count in it only once made again in it")
    func freshRoom() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            let cards = try await client.makeDeck("films", titles: ["Alien", "Brazil"])
            // Ana liked Brazil on her own, before the room.
            let alone = try await client.swipe("films", card: cards[1], direction: "right", participant: "ana")
            #expect(alone.status == .created, "\(alone.text)")
            clock.advance(by: 60)
            let code = try await Self.createRoom(client, "films", participant: "ana")
            _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", "{}")
            let ben = try await client.postJSON(
                "/api/v1/decks/films/swipes",
                Self.roomSwipe(card: cards[1], direction: "right", participant: "ben", room: code))
            #expect(ben.status == .created, "\(ben.text)")
            var state = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ana"))").json()
            #expect(state["matches"].array.isEmpty, "Ana's like from before the room does not count in it")
            #expect(state["members"].array.map { $0["decided"].int } == [0, 1])
            // The room deals Brazil to Ana again; her like in the room replaces the one before.
            let deal = try await client.get("/api/v1/decks/films/cards?room=\(code)&participant=\(pid("ana"))")
            #expect(Set(try deal.json()["cards"].array.compactMap { $0["id"].int.map(Int64.init) }) == Set(cards))
            let ana = try await client.postJSON(
                "/api/v1/decks/films/swipes",
                Self.roomSwipe(card: cards[1], direction: "right", participant: "ana", room: code))
            #expect(ana.status == .created, "\(ana.text)")
            state = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ana"))").json()
            #expect(state["matches"].array.map { $0["card"]["title"].string } == ["Brazil"])
            // The deck has Ana's decision once: her drag before was undone, her like in the room is live.
            let results = try await client.get("/api/v1/decks/films/results", headers: admin).json()
            let brazil = results["cards"].array.first { $0["title"].string == "Brazil" }
            #expect(brazil?["all"].int == 2, "\(results)")
        }
    }

    @Test(
        "swipes name their room: members only, on the room's deck; a match shows who liked it, never anyone's other decisions; undo revokes"
    )
    func swipesAndMatches() async throws {
        try await withApp { client, env in
            let cards = try await client.makeDeck("films", titles: ["Alien", "Brazil", "Casablanca"])
            try await client.makeDeck("other", titles: ["X"])
            let code = try await Self.createRoom(client, "films", participant: "ana")
            _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", #"{"name":"Ben"}"#)
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    Self.roomSwipe(card: cards[0], direction: "right", participant: "eve", room: code)),
                .forbidden, "not_a_room_member")
            let otherCards = try await client.cardIds("other")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/decks/other/swipes",
                    Self.roomSwipe(card: otherCards[0], direction: "right", participant: "ana", room: code)),
                .forbidden, "not_a_room_member")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    Self.roomSwipe(card: cards[0], direction: "right", participant: "ana", room: "ZZZZZZ")),
                .notFound, "room_not_found")
            // Ana passes on Alien and likes Brazil; Ben likes Brazil: Brazil matches.
            var liked: [String: String] = [:]
            for (p, card, d) in [("ana", cards[0], "left"), ("ana", cards[1], "right"), ("ben", cards[1], "right")] {
                let r = try await client.postJSON(
                    "/api/v1/decks/films/swipes", Self.roomSwipe(card: card, direction: d, participant: p, room: code))
                #expect(r.status == .created, "\(r.text)")
                if d == "right" { liked[p] = try r.json()["swipe"]["id"].string }
            }
            let state = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ben"))")
            let j = try state.json()
            #expect(j["matches"].array.map { $0["card"]["title"].string } == ["Brazil"])
            #expect(j["matches"][0]["likedBy"].array.count == 2)
            #expect(j["members"].array.map { $0["decided"].int } == [2, 1])
            // Ana's pass on Alien is nowhere in what Ben reads.
            #expect(!state.text.contains("Alien"))
            #expect(!state.text.contains("direction"))
            let anaId = try await identity("ana", in: "films", env)
            #expect(!state.text.contains(anaId))
            // The room's deal for Ben: the room's order without Brazil (decided).
            let deal = try await client.get("/api/v1/decks/films/cards?room=\(code)&participant=\(pid("ben"))")
            #expect(deal.status == .ok, "\(deal.text)")
            let dealt = try deal.json()["cards"].array.compactMap { $0["id"].int.map(Int64.init) }
            #expect(Set(dealt) == [cards[0], cards[2]])
            let anaDeal = try await client.get("/api/v1/decks/films/cards?room=\(code)&participant=\(pid("ana"))")
            #expect(try anaDeal.json()["cards"].array.compactMap { $0["id"].int.map(Int64.init) } == [cards[2]])
            // Ben undoes his like: the match is revoked.
            let undo = try await client.execute(
                uri: "/api/v1/swipes/\(liked["ben"]!)?participant=\(pid("ben"))", method: .delete)
            #expect(undo.status == .ok, "\(undo.text)")
            let after = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ana"))")
            #expect(try after.json()["matches"].array.isEmpty)
            // The owner sees per card how many rooms matched on it, and results by room.
            let redo = try await client.postJSON(
                "/api/v1/decks/films/swipes",
                Self.roomSwipe(card: cards[1], direction: "right", participant: "ben", room: code))
            #expect(redo.status == .created)
            let results = try await client.get("/api/v1/decks/films/results", headers: admin).json()
            let brazil = results["cards"].array.first { $0["title"].string == "Brazil" }
            #expect(brazil?["roomMatches"].int == 1)
            #expect(results["cards"].array.first { $0["title"].string == "Alien" }?["roomMatches"].int == 0)
        }
    }

    @Test("leave: a left member stops counting; finished and expired rooms take no swipes and nobody new")
    func leaveFinishExpire() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            let cards = try await client.makeDeck("films", titles: ["Alien", "Brazil"])
            let code = try await Self.createRoom(
                client, "films", participant: "ana", body: #"{"endOnFirstMatch":true,"expiresInHours":1}"#)
            _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", "{}")
            _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("cy"))", "{}")
            for p in ["ana", "ben"] {
                let r = try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    Self.roomSwipe(card: cards[0], direction: "right", participant: p, room: code))
                #expect(r.status == .created)
            }
            #expect(
                try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ana"))").json()["matches"].array.isEmpty)
            // Cy leaves: everyone (Ana, Ben) liked Alien, a match, and the room ends on it.
            let left = try await client.postJSON("/api/v1/rooms/\(code)/leave?participant=\(pid("cy"))", "{}")
            #expect(left.status == .ok, "\(left.text)")
            let j = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ana"))").json()
            #expect(j["matches"].array.map { $0["card"]["title"].string } == ["Alien"])
            #expect(j["state"].string == "finished")
            #expect(j["members"].array.map { $0["left"].bool } == [false, false, true])
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    Self.roomSwipe(card: cards[1], direction: "right", participant: "ana", room: code)),
                .conflict, "room_finished")
            expectAPIError(
                try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("dee"))", "{}"), .conflict,
                "room_finished")
            // It changes no more: Ana's undo keeps the match and its likers; nobody leaves it.
            let history = try await client.get("/api/v1/decks/films/history?participant=\(pid("ana"))").json()
            let id = try #require(history["swipes"].array.first?["id"].string)
            let undo = try await client.execute(uri: "/api/v1/swipes/\(id)?participant=\(pid("ana"))", method: .delete)
            #expect(undo.status == .ok)
            let frozen = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ben"))").json()
            #expect(frozen["matches"].array.first?["likedBy"].array.count == 2, "\(frozen)")
            expectAPIError(
                try await client.postJSON("/api/v1/rooms/\(code)/leave?participant=\(pid("ben"))", "{}"), .conflict,
                "room_finished")
            // Another room expires after its hour: it reads as expired and refuses swipes.
            let second = try await Self.createRoom(client, "films", participant: "ana", body: #"{"expiresInHours":1}"#)
            clock.advance(by: 3_601)
            #expect(
                try await client.get("/api/v1/rooms/\(second)?participant=\(pid("ana"))").json()["state"].string
                    == "expired")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    Self.roomSwipe(card: cards[1], direction: "right", participant: "ana", room: second)),
                .conflict, "room_finished")
        }
    }

    @Test("nothing matched: the closest cards, then a second round on them that can match")
    func secondRound() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            let cards = try await client.makeDeck("films", titles: ["Alien", "Brazil", "Casablanca"])
            let code = try await Self.createRoom(client, "films", participant: "ana")
            _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", "{}")
            expectAPIError(
                try await client.postJSON("/api/v1/rooms/\(code)/rounds?participant=\(pid("ana"))", "{}"),
                .badRequest, "invalid_room_round")
            let votes: [(String, Int, String)] = [
                ("ana", 0, "right"), ("ana", 1, "right"), ("ana", 2, "left"),
                ("ben", 0, "left"), ("ben", 1, "left"), ("ben", 2, "left"),
            ]
            for (p, i, d) in votes {
                let r = try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    Self.roomSwipe(card: cards[i], direction: d, participant: p, room: code))
                #expect(r.status == .created, "\(r.text)")
            }
            let done = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ben"))").json()
            #expect(done["state"].string == "finished")
            #expect(Set(done["closest"].array.map { $0["card"]["title"].string }) == ["Alien", "Brazil"])
            #expect(done["closest"].array.map { $0["likes"].int } == [1, 1])
            clock.advance(by: 10)
            let round = try await client.postJSON("/api/v1/rooms/\(code)/rounds?participant=\(pid("ben"))", "{}")
            #expect(round.status == .ok, "\(round.text)")
            let r2 = try round.json()
            #expect(r2["round"].int == 2)
            #expect(r2["state"].string == "open")
            #expect(r2["cardCount"].int == 2)
            #expect(r2["members"].array.map { $0["decided"].int } == [0, 0])
            // Round 2 deals the closest again; each member simply swipes them again (their
            // round-1 swipe gives way, not a 409 already_swiped): both like Brazil, a match.
            let deal = try await client.get("/api/v1/decks/films/cards?room=\(code)&participant=\(pid("ben"))")
            #expect(
                Set(try deal.json()["cards"].array.compactMap { $0["id"].int.map(Int64.init) }) == [cards[0], cards[1]])
            for p in ["ana", "ben"] {
                let r = try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    Self.roomSwipe(card: cards[1], direction: "right", participant: p, room: code))
                #expect(r.status == .created, "\(r.text)")
                let history = try await client.get("/api/v1/decks/films/history?participant=\(pid(p))").json()
                let live = history["swipes"].array.filter { $0["card"].int.map(Int64.init) == cards[1] }
                #expect(live.count == 1 && live.first?["direction"].string == "right", "one live swipe: \(live)")
            }
            // Swiping a round-2 card again within round 2 is refused as ever.
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    Self.roomSwipe(card: cards[1], direction: "left", participant: "ben", room: code)),
                .conflict, "already_swiped")
            let matched = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ana"))").json()
            #expect(matched["matches"].array.map { $0["card"]["title"].string } == ["Brazil"])
        }
    }

    @Test(
        "a deck's per-person quota holds alone, not in a room: members decide every card, the room finishes (issue 39)")
    func quotaDoesNotStopARoom() async throws {
        try await withApp { client, _ in
            let cards = try await client.makeDeck("films", titles: ["Alien", "Brazil", "Casablanca"])
            #expect(try await client.patchDeck("films", #"{"quota":1}"#).status == .ok)
            let code = try await Self.createRoom(client, "films", participant: "ana")
            _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", "{}")
            // Nothing matches (Ana likes what Ben passes), so the room ends on its closest cards.
            for (p, like) in [("ana", 0), ("ben", 1)] {
                for (i, card) in cards.enumerated() {
                    let r = try await client.postJSON(
                        "/api/v1/decks/films/swipes",
                        Self.roomSwipe(card: card, direction: i == like ? "right" : "left", participant: p, room: code))
                    #expect(r.status == .created, "\(p) card \(i): \(r.text)")
                }
            }
            let done = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ana"))").json()
            #expect(done["state"].string == "finished")
            #expect(done["members"].array.map { $0["decided"].int } == [3, 3])
            #expect(Set(done["closest"].array.map { $0["card"]["title"].string }) == ["Alien", "Brazil"])
            // The room's page is no "That's your share" page, and its script knows no quota.
            let page = try await client.get("/r/\(code)", headers: cookie("ana"))
            #expect(page.text.contains(#"data-quota="""#))
            #expect(page.text.contains(#"<div class="stack-state state-limitReached" role="status" hidden>"#))
            // Alone, the quota holds as ever: a second swipe outside the room is refused.
            let alone = #"{"card":\#(cards[0]),"direction":"right","input":"api","participant":"\#(pid("cy"))"}"#
            #expect(try await client.postJSON("/api/v1/decks/films/swipes", alone).status == .created)
            let second = #"{"card":\#(cards[1]),"direction":"right","input":"api","participant":"\#(pid("cy"))"}"#
            expectAPIError(
                try await client.postJSON("/api/v1/decks/films/swipes", second), .conflict, "quota_reached")
        }
    }

    @Test("room lookups: 30 failed a minute per network, then every lookup from it 429; a found room spends nothing")
    func lookupBudget() async throws {
        try await withApp { _, env in
            let store = try await env.openStore()
            let budget = RoomLookupBudget(
                buckets: store.sharedBuckets(
                    ratePerSecond: RoomLookupBudget.rate.perSecond, burst: RoomLookupBudget.rate.burst))
            // Found lookups spend nothing: any number of them.
            for _ in 0..<100 { _ = try await budget.guarded(address: "203.0.113.1", now: 1000) { 1 } }
            for i in 0..<Int(RoomLookupBudget.failuresPerMinute) {
                await #expect(throws: ApiError.room(.notFound)) {
                    try await budget.guarded(address: "203.0.113.\(i % 200)", now: 1000) {
                        throw ApiError.room(.notFound)
                    }
                }
            }
            // The next failure finds the budget spent: 429; from then on even a lookup that would
            // succeed is refused, from any address of the network.
            await #expect(throws: ApiError.rateLimited(retryAfter: 2)) {
                try await budget.guarded(address: "203.0.113.7", now: 1000) { throw ApiError.room(.notFound) }
            }
            await #expect(throws: ApiError.rateLimited(retryAfter: 2)) {
                try await budget.guarded(address: "203.0.113.250", now: 1000) { 1 }
            }
            _ = try await budget.guarded(address: "198.51.100.1", now: 1000) { 1 }
            _ = try await budget.guarded(address: "203.0.113.250", now: 1060) { 1 }
        }
    }

    @Test("room budget: 10 open rooms per participant and deck, then 429 too_many_rooms; a finished one frees a place")
    func openRoomCap() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            _ = try await client.makeDeck("many", titles: ["a", "b"])
            for _ in 0..<RoomBudget.maxOpenPerParticipant {
                _ = try await Self.createRoom(client, "many", participant: "hoarder")
            }
            let refused = try await client.postJSON("/api/v1/decks/many/rooms?participant=\(pid("hoarder"))", "{}")
            expectAPIError(refused, .tooManyRequests, "too_many_rooms")
            #expect(refused.headers[.retryAfter] == "60")
            // Somebody else still creates one; the hoarder again once their rooms expired.
            _ = try await Self.createRoom(client, "many", participant: "other")
            clock.advance(by: 7 * 86_400)
            _ = try await Self.createRoom(client, "many", participant: "hoarder")
        }
    }

    @Test("room budget: one network creates 60 rooms an hour, shared by its addresses, then 429 too_many_rooms")
    func networkRoomCap() async throws {
        try await withApp { _, env in
            let store = try await env.openStore()
            let budget = RoomBudget(
                store: store,
                buckets: store.sharedBuckets(ratePerSecond: RoomBudget.rate.perSecond, burst: RoomBudget.rate.burst))
            for i in 0..<Int(RoomBudget.perNetworkPerHour) {
                // A participant each (no open rooms), addresses rotating within one /24.
                try await budget.take(deckId: 1, participant: "p\(i)", address: "203.0.113.\(i % 250)", now: 1000)
            }
            await #expect(throws: ApiError.self) {
                try await budget.take(deckId: 1, participant: "late", address: "203.0.113.251", now: 1000)
            }
            // Another network is not held to it; the hour refills the first.
            try await budget.take(deckId: 1, participant: "late", address: "198.51.100.1", now: 1000)
            try await budget.take(deckId: 1, participant: "late", address: "203.0.113.251", now: 1000 + 3600)
        }
    }

    // How soon is the benchmark's (scripts/bench_rooms.py) and the browser test's (2 s, three
    // engines); these hold what a loaded machine running the whole suite cannot slow down.
    @Test(
        "the events stream: state first, then the match, its card and who liked it, at each member",
        .timeLimit(.minutes(3)))
    func eventsStream() async throws {
        try await withApp({ $0.liveInterval = .milliseconds(250) }, testing: .live) { client, env in
            try await Self.expectMatchOnStreams(client, env, within: 15)
        }
    }

    @Test(
        "a match is pushed to the members' open streams, not read at the room's next look (liveInterval 60 s)",
        .timeLimit(.minutes(3)))
    func eventsPushed() async throws {
        try await withApp({ $0.liveInterval = .seconds(60) }, testing: .live) { client, env in
            try await Self.expectMatchOnStreams(client, env, within: 15)
        }
    }

    /// Ana and Ben follow a new room's events; both like Brazil; each stream must show the match
    /// within `limit` seconds of the second like's request.
    static func expectMatchOnStreams(
        _ client: any TestClientProtocol, _ env: TestEnv, within limit: Double,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let cards = try await client.makeDeck("films", titles: ["Alien", "Brazil"])
        let code = try await createRoom(client, "films", participant: "ana")
        _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", "{}")
        let port = try #require(client.port)
        let first = roomSwipe(card: cards[1], direction: "right", participant: "ana", room: code)
        let second = roomSwipe(card: cards[1], direction: "right", participant: "ben", room: code)
        let (states, delays, texts) = try await RawHTTPConnection.run {
            () throws -> ([String], [Double], [String]) in
            let streams = try ["ana", "ben"].map { p in
                let s = try RawHTTPConnection(port: port)
                _ = s.send(
                    Array(
                        "GET /api/v1/rooms/\(code)/events?participant=\(pid(p)) HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .utf8))
                return s
            }
            let states = streams.map { $0.receive(until: "event: state") }
            func post(_ body: String) throws -> RawHTTPConnection {
                let poster = try RawHTTPConnection(port: port)
                let text =
                    "POST /api/v1/decks/films/swipes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
                _ = poster.send(Array(text.utf8))
                return poster
            }
            _ = try post(first).receive()
            let poster = try post(second)
            let sent = Date()
            var delays: [Double] = [.infinity, .infinity]
            var texts = ["", ""]
            while delays.contains(.infinity), Date().timeIntervalSince(sent) < limit + 1 {
                for (i, s) in streams.enumerated() where delays[i] == .infinity {
                    guard let bytes = s.read(waitingMilliseconds: 10) else { break }
                    texts[i] += String(decoding: bytes, as: UTF8.self)
                    if texts[i].contains("event: match") { delays[i] = Date().timeIntervalSince(sent) }
                }
            }
            _ = poster.receive()
            return (states, delays, texts)
        }
        for (state, (delay, text)) in zip(states, zip(delays, texts)) {
            #expect(state.hasPrefix("HTTP/1.1 200"), "\(state.prefix(300))\n\(env.diagnosis())")
            #expect(
                state.contains("event: state\ndata: {\"cardCount\":2") || state.contains("event: state\ndata: {"))
            #expect(text.contains("event: match"), "\(text)\n\(env.diagnosis())")
            #expect(text.contains(#""title":"Brazil""#))
            #expect(text.contains("event: progress"))
            #expect(
                delay < limit, "the match came \(delay) s after the second like\n\(env.diagnosis())",
                sourceLocation: sourceLocation)
        }
    }
}
