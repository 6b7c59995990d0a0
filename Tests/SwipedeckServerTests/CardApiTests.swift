import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import SwipedeckServer

/// The owner's card and deck operations through the API: add, edit as a revision, archive and
/// restore, move, and the deck settings as fields of the deck JSON.
@Suite("Card and deck operations through the API")
struct CardApiTests {
    static func send(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ json: String)
        async throws -> TestResponse
    {
        try await client.execute(
            uri: uri, method: method, headers: merged(jsonType, admin), body: ByteBuffer(string: json))
    }

    @Test("add, edit (revision 2), archive and restore, move; settings round-trip in the deck JSON")
    func operations() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("api", titles: ["a", "b"])
            let added = try await client.postJSON(
                "/api/v1/decks/api/cards", #"{"title":"c","subtitle":"third"}"#, headers: admin)
            #expect(added.status == .created)
            let c = try #require(try added.json()["id"].int).description
            #expect(try added.json()["revision"].int == 1 && added.json()["position"].int == 2)
            expectAPIError(
                try await client.postJSON("/api/v1/decks/api/cards", #"{"title":""}"#, headers: admin), .badRequest,
                "invalid_card_title")

            let edited = try await Self.send(client, .patch, "/api/v1/decks/api/cards/\(c)", #"{"title":"c, edited"}"#)
            #expect(
                try edited.status == .ok && edited.json()["revision"].int == 2
                    && edited.json()["subtitle"].string == "third")
            let same = try await Self.send(client, .patch, "/api/v1/decks/api/cards/\(c)", #"{"title":"c, edited"}"#)
            #expect(try same.json()["revision"].int == 2)  // nothing changed, no new revision
            #expect(try await env.count("SELECT COUNT(*) FROM cardRevisions WHERE cardId = ?", [Int64(c)!]) == 2)

            let archived = try await Self.send(client, .post, "/api/v1/decks/api/cards/\(ids[0])/archive", "")
            #expect(try archived.status == .ok && archived.json()["archived"].bool == true)
            #expect(try await client.cardIds("api") == [ids[1], Int64(c)!])
            #expect(
                try await Self.send(client, .post, "/api/v1/decks/api/cards/\(ids[0])/restore", "").json()["archived"]
                    .bool == false)
            let moved = try await Self.send(client, .post, "/api/v1/decks/api/cards/\(c)/move", #"{"index":0}"#)
            #expect(try moved.status == .ok && moved.json()["position"].int == 0)
            #expect(try await client.cardIds("api") == [Int64(c)!, ids[0], ids[1]])
            expectAPIError(
                try await Self.send(client, .patch, "/api/v1/decks/getaways/cards/\(c)", #"{"title":"x"}"#), .notFound,
                "not_found")

            let patched = try await Self.send(
                client, .patch, "/api/v1/decks/api",
                #"{"open":false,"resultsPublic":true,"quota":5,"order":"shuffled","countedInputs":["drag"]}"#)
            let deck = try patched.json()
            #expect(deck["open"].bool == false && deck["resultsPublic"].bool == true && deck["quota"].int == 5)
            #expect(deck["order"].string == "shuffled" && deck["countedInputs"].array.compactMap(\.string) == ["drag"])
            let cleared = try await Self.send(client, .patch, "/api/v1/decks/api", #"{"quota":null}"#).json()
            #expect(cleared["quota"] == .null)
            expectAPIError(
                try await Self.send(client, .patch, "/api/v1/decks/api", #"{"order":"random"}"#), .badRequest,
                "invalid_order")
            expectAPIError(
                try await Self.send(client, .patch, "/api/v1/decks/api", #"{"quota":0}"#), .badRequest, "invalid_quota")
            #expect(try await env.count("SELECT COUNT(*) FROM deckEvents WHERE kind = 'settings'") == 2)
        }
    }

    @Test("a shuffled deck deals a fixed order per participant, different between participants")
    func shuffled() async throws {
        try await withApp { client, _ in
            _ = try await client.makeDeck("mix", titles: (0..<12).map { "card \($0)" })
            #expect(try await Self.send(client, .patch, "/api/v1/decks/mix", #"{"order":"shuffled"}"#).status == .ok)
            func order(_ who: String) async throws -> [Int] {
                try await client.get("/api/v1/decks/mix/cards?limit=100&participant=\(pid(who))").json()["cards"].array
                    .compactMap { $0["id"].int }
            }
            let ann = try await order("ann")
            #expect(try await order("ann") == ann)
            #expect(ann.count == 12 && Set(ann).count == 12)
            #expect(try await order("bob") != ann)
            // Paging follows the same order.
            let first = try await client.get("/api/v1/decks/mix/cards?limit=5&participant=\(pid("ann"))").json()
            let cursor = try #require(first["nextCursor"].string)
            let rest = try await client.get(
                "/api/v1/decks/mix/cards?limit=100&cursor=\(cursor)&participant=\(pid("ann"))"
            ).json()
            #expect(
                first["cards"].array.compactMap { $0["id"].int } + rest["cards"].array.compactMap { $0["id"].int }
                    == ann)
        }
    }

    @Test("the live results stream refuses anonymous readers of private results before streaming")
    func liveIsPrivate() async throws {
        try await withApp { client, _ in
            expectAPIError(try await client.get("/api/v1/decks/getaways/results/live"), .unauthorized, "unauthorized")
        }
    }

    @Test(
        "text with line breaks as browsers send them (CR LF) is saved with line feeds; a control character is refused with a sentence"
    )
    func lineBreaksFromForms() async throws {
        try await withApp { client, env in
            _ = try await client.makeDeck("lines", titles: ["a"])
            let r = try await client.postJSON(
                "/api/v1/decks/lines/cards",
                #"{"title":"Two lines","subtitle":"one\r\ntwo","body":"first\r\nsecond\rthird"}"#, headers: admin)
            #expect(r.status == .created, "\(r.text)")
            let row = try #require(try await env.row("SELECT subtitle, body FROM cards WHERE title = 'Two lines'"))
            #expect(row.value(at: 0) as String? == "one\ntwo" && row.value(at: 1) as String? == "first\nsecond\nthird")
            let bad = try await client.postJSON(
                "/api/v1/decks/lines/cards", #"{"title":"Bell","body":"ding\u0007"}"#, headers: admin)
            expectAPIError(bad, .badRequest, "invalid_card_text")
            #expect(
                try bad.json()["error"]["message"].string?.contains(
                    "the text must be at most 5,000 characters, without control characters") == true)
        }
    }
}
