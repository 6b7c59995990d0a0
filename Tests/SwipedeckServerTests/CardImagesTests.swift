import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import SwipedeckServer

/// A card's several images (issue 17's gallery): `images` in the API and the owner's form, `image`
/// still accepted as a one-image list, each revision keeping its own list, and the detail page
/// showing them in order.
@Suite("Card images: the gallery's data")
struct CardImagesTests {
    static let three = #"["/img/sample/01-mirror-lake.svg","https://example.com/b.jpg","/images/c.png"]"#

    @Test("images round-trip: the first is the cover (image); a PATCH of image alone makes a one-image list")
    func roundTrip() async throws {
        try await withApp { client, env in
            _ = try await client.makeDeck("pics", titles: ["a"])
            let added = try await client.postJSON(
                "/api/v1/decks/pics/cards", #"{"title":"g","images":\#(Self.three)}"#, headers: admin)
            #expect(added.status == .created)
            let json = try added.json()
            let id = try #require(json["id"].int)
            #expect(json["image"].string == "/img/sample/01-mirror-lake.svg")
            #expect(
                json["images"].array.compactMap(\.string) == [
                    "/img/sample/01-mirror-lake.svg", "https://example.com/b.jpg", "/images/c.png",
                ])
            let stored = try #require(try await env.row("SELECT image, moreImages FROM cards WHERE id = ?", [id]))
            #expect(stored["image"] as String? == "/img/sample/01-mirror-lake.svg")
            #expect(stored["moreImages"] as String? == #"["https://example.com/b.jpg","/images/c.png"]"#)

            let page = try await client.get("/d/pics/cards/\(id)")
            #expect(page.text.components(separatedBy: "class=\"gallery-page\"").count - 1 == 3)
            #expect(page.text.contains("3 photos"))
            #expect(page.text.contains(##"href="#photo-3""##))

            let reordered = try await CardApiTests.send(
                client, .patch, "/api/v1/decks/pics/cards/\(id)",
                #"{"images":["/images/c.png","/img/sample/01-mirror-lake.svg"]}"#)
            #expect(try reordered.json()["revision"].int == 2)
            #expect(try reordered.json()["image"].string == "/images/c.png")
            let single = try await CardApiTests.send(
                client, .patch, "/api/v1/decks/pics/cards/\(id)", #"{"image":"/images/d.png"}"#)
            #expect(try single.json()["images"].array.compactMap(\.string) == ["/images/d.png"])
            let untouched = try await CardApiTests.send(
                client, .patch, "/api/v1/decks/pics/cards/\(id)", #"{"title":"renamed"}"#)
            #expect(try untouched.json()["images"].array.compactMap(\.string) == ["/images/d.png"])
            let none = try await CardApiTests.send(client, .patch, "/api/v1/decks/pics/cards/\(id)", #"{"images":[]}"#)
            #expect(try none.json()["image"].string == "" && none.json()["images"].array.isEmpty)
            // Every revision keeps the list it had.
            let lists: [String] = try await env.rows(
                "SELECT image || ' ' || moreImages FROM cardRevisions WHERE cardId = ? ORDER BY revision", [id]
            ).compactMap { $0.value(at: 0) }
            #expect(
                lists == [
                    #"/img/sample/01-mirror-lake.svg ["https://example.com/b.jpg","/images/c.png"]"#,
                    #"/images/c.png ["/img/sample/01-mirror-lake.svg"]"#, "/images/d.png []", "/images/d.png []", " []",
                ])
        }
    }

    @Test(
        "a card's images break a rule: 400 naming it, nothing stored",
        arguments: [
            (#"{"title":"x","images":["/a.png","javascript:alert(1)"]}"#, "invalid_image", "image 2"),
            (#"{"title":"x","images":[""]}"#, "invalid_image", "image 1"),
            (#"{"title":"x","image":"/a.png","images":["/b.png","/a.png"]}"#, "image_conflict", "first of images"),
            (
                #"{"title":"x","images":[\#((0..<13).map { "\"/i\($0).png\"" }.joined(separator: ","))]}"#,
                "too_many_images", "at most 12"
            ),
            (#"{"title":"x","images":"/a.png"}"#, "malformed_json", "images"),
        ])
    func invalid(body: String, code: String, words: String) async throws {
        try await withApp { client, env in
            _ = try await client.makeDeck("pics", titles: ["a"])
            let answer = try await client.postJSON("/api/v1/decks/pics/cards", body, headers: admin)
            expectAPIError(answer, .badRequest, code)
            #expect(try answer.json()["error"]["message"].string?.contains(words) == true)
            #expect(try await env.count("SELECT COUNT(*) FROM cards WHERE title = 'x'") == 0)
        }
    }

    @Test("the same image given as image and first of images is accepted")
    func imageMatchingTheCover() throws {
        let card = try DeckInput.CardInput(title: "x", image: "/a.png", images: ["/a.png", "/b.png"]).validated(
            position: 0, label: "card")
        #expect(card.images == ["/a.png", "/b.png"])
    }

    @Test("CSV: an images column holds several, separated by spaces or newlines")
    func csv() throws {
        let input = try DeckCSV.parse(
            "title,images\nA,\"/a.png https://example.com/b.png\n/c.png\"\nB,\n", slug: "c", title: "C",
            profile: "standard")
        let (_, cards) = try input.validated(now: 0)
        #expect(cards[0].images == ["/a.png", "https://example.com/b.png", "/c.png"])
        #expect(cards[1].images.isEmpty)
    }

    @Test("the owner's form: one image per line, blank lines and spaces ignored; none clears them")
    func ownerForm() throws {
        let patch = OwnerCardsController.patch(FormFields("title=T&images=%2Fa.png%0D%0A%0D%0A++%2Fb.png++%0D%0A"))
        #expect(patch.images == ["/a.png", "/b.png"])
        let cleared = OwnerCardsController.patch(FormFields("title=T&images="))
        #expect(cleared.images == [])
    }
}

extension CardImagesTests {
    @Test("a database from before v5 keeps its cards: each card's image becomes its one-image list", .sqliteOnly)
    func migratesCardsBeforeGalleries() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("v4-\(UUID().uuidString).sqlite").path
        defer { removeDatabase(at: path) }
        let old = try DatabaseQueue(path: path)
        try AppDatabase.migrator.migrate(old, upTo: "v4-compact-and-aggregate")
        try await old.write { db in
            try db.execute(
                sql: "INSERT INTO decks (slug, title, profile, createdAt) VALUES ('old', 'Old', 'standard', 0)")
            try db.execute(
                sql: "INSERT INTO cards (deckId, position, title, image) VALUES (1, 0, 'A', '/a.png'), (1, 1, 'B', '')")
        }
        try old.close()
        let database = try AppDatabase(path: path)
        let cards = try await database.allCards(deckId: 1)
        #expect(cards.map(\.images) == [["/a.png"], []])
    }
}
