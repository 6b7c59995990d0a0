import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// A match room's pages (`RoomPageController`) on the engine of this run: the QR code of the room's
/// link, the join form a non-member sees (nothing of the room's state), a member's page with members,
/// progress and matches (never another member's non-matching decisions), the no-JS forms, and the deck
/// page's "Decide together" only where the deck allows rooms.
@Suite("Room pages")
struct RoomPageTests {
    @Test(
        "/r/{code}/qr.svg encodes the room's absolute link, for any well-formed code (no oracle); a malformed one is 404"
    )
    func qrCode() async throws {
        try await withApp { client, _ in
            try await client.makeDeck("films", titles: ["Alien", "Brazil"])
            let code = try await RoomApiTests.createRoom(client, "films", participant: "ana")
            let r = try await client.get(
                "/r/\(code.lowercased())/qr.svg", headers: [.init("Host")!: "192.168.1.20:8080"])
            #expect(r.status == .ok)
            #expect(r.headers[.contentType]?.hasPrefix("image/svg+xml") == true)
            #expect(try await ShareTests.decode(svg: r.text) == "http://192.168.1.20:8080/r/\(code)")
            // Any well-formed code gets its link's QR (no existence oracle); a malformed one 404.
            let unknown = try await client.get("/r/ZZZZZZ/qr.svg", headers: [.init("Host")!: "192.168.1.20:8080"])
            #expect(unknown.status == .ok)
            #expect(try await ShareTests.decode(svg: unknown.text) == "http://192.168.1.20:8080/r/ZZZZZZ")
            expectAPIError(
                try await client.get("/r/not-a-code/qr.svg", headers: [.accept: "application/json"]), .notFound,
                "room_not_found")
        }
    }

    @Test("a non-member sees the join form only; a member sees members, progress and matches, not decisions")
    func privacy() async throws {
        try await withApp { client, _ in
            try await client.makeDeck("films", titles: ["Alien", "Brazil", "Casablanca"])
            let ids = try await client.cardIds("films")
            let code = try await RoomApiTests.createRoom(
                client, "films", participant: "ana", body: #"{"name":"Ana","rule":{"kind":"atLeast","count":2}}"#)
            let ben = try await client.postJSON(
                "/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", #"{"name":"Ben"}"#)
            #expect(ben.status == .created)
            // Both like Alien (a match); Ana alone likes Brazil (her decision, nobody else's business).
            for (who, card) in [("ana", ids[0]), ("ben", ids[0]), ("ana", ids[1])] {
                let r = try await client.postJSON(
                    "/api/v1/decks/films/swipes",
                    RoomApiTests.roomSwipe(card: card, direction: "right", participant: who, room: code))
                #expect(r.status == .created, "\(r.text)")
            }
            let stranger = try await client.get("/r/\(code)", headers: cookie("cy"))
            #expect(stranger.status == .ok)
            #expect(stranger.text.contains(#"action="/r/\#(code)/members""#))
            #expect(!stranger.text.contains("Ana") && !stranger.text.contains("room-state"))
            let page = try await client.get("/r/\(code)", headers: cookie("ben"))
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.text.contains(#"data-room="\#(code)""#))
            #expect(
                page.text.contains(#"<span class="member-name">Ana</span><span class="member-progress">2 of 3</span>"#))
            #expect(page.text.contains(#"class="match" data-card="\#(ids[0])""#))
            #expect(page.text.contains("Ana and Ben"))
            #expect(!page.text.contains(#"data-card="\#(ids[1])"><div class="room-card""#))
            // The embedded state is the API's: counts and matches, no swipes.
            let state = try #require(scriptContent(page.text, id: "room-state"))
            let api = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ben"))")
            #expect(
                try JSONSerialization.jsonObject(with: Data(state.utf8)) as? NSDictionary
                    == (try JSONSerialization.jsonObject(with: Data(api.text.utf8)) as? NSDictionary))
            #expect(!state.contains("direction") && !state.contains("swipes"))
            // Ben's stack is the room's deal without what he decided.
            #expect(!page.text.contains(#"data-card="\#(ids[0])" data-depth"#))
        }
    }

    @Test("without scripts: start a room from the deck page, join by form, swipe in the room, leave")
    func forms() async throws {
        try await withApp { client, _ in
            try await client.makeDeck("films", titles: ["Alien", "Brazil"])
            let deckPage = try await client.get("/d/films", headers: cookie("ana"))
            #expect(deckPage.text.contains(#"class="together""#))
            let made = try await client.postForm(
                "/d/films/rooms", "name=Ana&rule=atLeast&count=2&percent=60", headers: cookie("ana"))
            #expect(made.status == .seeOther)
            let location = try #require(made.headers[.location])
            let code = String(location.dropFirst("/r/".count))
            #expect(RoomCode.normalized(code) == code)
            let joined = try await client.postForm(
                "/r/\(code.lowercased())/members", "name=Ben", headers: cookie("ben"))
            #expect(joined.status == .seeOther && joined.headers[.location] == "/r/\(code)")
            let ids = try await client.cardIds("films")
            for who in ["ana", "ben"] {
                let r = try await client.postForm(
                    "/r/\(code)/swipe", "card=\(ids[0])&direction=right", headers: cookie(who))
                #expect(r.headers[.location] == "/r/\(code)")
            }
            let room = try await client.get("/api/v1/rooms/\(code)?participant=\(pid("ana"))")
            #expect(try room.json()["matches"].array.map { $0["card"]["id"].int } == [Int(ids[0])])
            let full = try await client.postForm("/d/films/rooms", "rule=atLeast&count=99", headers: cookie("ana"))
            #expect(full.status == .badRequest && full.text.contains("Pick everyone, at least 1 to 12 members"))
            let left = try await client.postForm("/r/\(code)/leave", "", headers: cookie("ben"))
            #expect(left.headers[.location] == "/d/films")
            #expect(try await client.get("/r/\(code)", headers: cookie("ben")).text.contains("room-join-form"))
            let typed = try await client.get(
                "/r?code=\(code.lowercased().prefix(3))%20\(code.lowercased().dropFirst(3))")
            #expect(typed.status == .seeOther && typed.headers[.location] == "/r/\(code)")
            #expect(try await client.get("/r?code=K7M2Q0").status == .badRequest)
        }
    }

    @Test("the deck page offers rooms only where the deck allows them")
    func onlyWhereAllowed() async throws {
        try await withApp { client, _ in
            try await client.makeDeck("films", titles: ["Alien"])
            #expect(try await client.get("/d/films").text.contains("Decide together"))
            let off = try await client.execute(
                uri: "/api/v1/decks/films", method: .patch, headers: merged(admin, jsonType),
                body: ByteBuffer(string: #"{"rooms":false}"#))
            #expect(off.status == .ok, "\(off.text)")
            #expect(!(try await client.get("/d/films").text.contains("Decide together")))
        }
    }
}
