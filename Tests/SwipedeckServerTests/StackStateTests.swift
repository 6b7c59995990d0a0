import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import SwipedeckServer

/// The stack page's states (issue 26) and the front page's listing rules.
@Suite("Stack states and the front page")
struct StackStateTests {
    /// A deck whose only card is archived: no active card (the API makes no deck without cards;
    /// the owner's form does, and so does archiving every card).
    static func makeBare(_ client: any TestClientProtocol, _ slug: String) async throws {
        let ids = try await client.makeDeck(slug, titles: ["gone"])
        let r = try await client.execute(
            uri: "/api/v1/decks/\(slug)/cards/\(ids[0])/archive", method: .post, headers: merged(jsonType, admin),
            body: ByteBuffer())
        #expect(r.status == .ok)
    }

    /// Whether the panel of `state` is rendered visible (no `hidden`) on `html`.
    static func shows(_ html: String, _ state: String) -> Bool {
        html.range(of: #"<div class="stack-state state-\#(state)[^"]*" role="status">"#, options: .regularExpression)
            != nil
    }

    @Test("StackState.of: no cards, closed, finished, limit reached, open, in that order")
    func stateRule() {
        var deck = Deck(id: 1, NewDeck(slug: "s", title: "S", createdAt: 0))
        #expect(StackState.of(deck, activeCards: 0, remaining: 0) == .noCards)
        #expect(StackState.of(deck, activeCards: 3, remaining: 3) == .open)
        #expect(StackState.of(deck, activeCards: 3, remaining: 0) == .finished)
        deck.quota = 2
        #expect(StackState.of(deck, activeCards: 3, remaining: 2) == .open)
        #expect(StackState.of(deck, activeCards: 3, remaining: 1) == .limitReached)
        deck.isOpen = false
        #expect(StackState.of(deck, activeCards: 3, remaining: 3) == .closed)
        #expect(StackState.of(deck, activeCards: 0, remaining: 0) == .noCards)
    }

    @Test("a closed deck: its panel, an inert stack, every button disabled; open again: none of it")
    func closed() async throws {
        try await withApp { client, _ in
            try await client.makeDeck("c", titles: ["a", "b"])
            #expect(try await client.patchDeck("c", #"{"open":false}"#).status == .ok)
            let html = try await client.get("/d/c").text
            #expect(html.contains(#"data-state="closed""#))
            #expect(Self.shows(html, "closed"))
            #expect(html.contains("This deck is closed"))
            #expect(!Self.shows(html, "finished") && !Self.shows(html, "limitReached") && !Self.shows(html, "noCards"))
            #expect(html.contains(#"aria-label="Cards: arrow keys decide, Z undoes" inert>"#))
            #expect(html.components(separatedBy: " disabled>").count - 1 == 5, "undo, left, up, down, right")
            #expect(try await client.patchDeck("c", #"{"open":true}"#).status == .ok)
            let open = try await client.get("/d/c").text
            #expect(open.contains(#"data-state="open""#))
            #expect(!Self.shows(open, "closed"))
            #expect(!open.contains(" disabled>"))
        }
    }

    @Test("past the quota the page says so and takes no decision; an undo opens it again")
    func limitReached() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("q", titles: ["a", "b", "c"])
            #expect(try await client.patchDeck("q", #"{"quota":2}"#).status == .ok)
            let me = cookie("quota-user")
            #expect(
                try await client.postForm("/d/q/swipe", "card=\(ids[0])&direction=right", headers: me).status
                    == .seeOther)
            let one = try await client.get("/d/q", headers: me).text
            #expect(one.contains(#"data-state="open""#) && one.contains(#"data-quota="2" data-decided="1""#))
            #expect(
                try await client.postForm("/d/q/swipe", "card=\(ids[1])&direction=left", headers: me).status
                    == .seeOther)
            let html = try await client.get("/d/q", headers: me).text
            #expect(html.contains(#"data-state="limitReached""#))
            #expect(Self.shows(html, "limitReached"))
            #expect(html.contains(#"up to <span class="quota">2 cards</span> in this deck"#))
            #expect(html.contains(#"name="direction" value="right" aria-label="LIKE" title="LIKE (→)" disabled>"#))
            // Undo stays: it frees a decision.
            #expect(!html.contains(#"title="Undo (Z)" disabled"#))
            #expect(try await client.postForm("/d/q/undo", "", headers: me).status == .seeOther)
            #expect(try await client.get("/d/q", headers: me).text.contains(#"data-state="open""#))
        }
    }

    @Test("no cards: its own words, not 'all caught up'; every card decided: all caught up")
    func noCardsAndFinished() async throws {
        try await withApp { client, _ in
            try await Self.makeBare(client, "bare")
            let bare = try await client.get("/d/bare").text
            #expect(bare.contains(#"data-state="noCards""#) && Self.shows(bare, "noCards"))
            #expect(bare.contains("No cards yet"))
            #expect(!Self.shows(bare, "finished"))
            let ids = try await client.makeDeck("one", titles: ["only"])
            let me = cookie("finisher")
            #expect(
                try await client.postForm("/d/one/swipe", "card=\(ids[0])&direction=right", headers: me).status
                    == .seeOther)
            let done = try await client.get("/d/one", headers: me).text
            #expect(done.contains(#"data-state="finished""#) && Self.shows(done, "finished"))
            #expect(!Self.shows(done, "noCards"))
        }
    }

    @Test("the deck's description is on its stack page, and the first-visit hint names its labels")
    func descriptionAndHint() async throws {
        try await withApp { client, _ in
            let body =
                #"{"slug":"d","title":"D","description":"Pick the trips you would take.","labels":{"left":"SKIP","right":"GO"},"cards":[{"title":"a"}]}"#
            #expect(try await client.createDeck(body).status == .created)
            let html = try await client.get("/d/d").text
            #expect(
                html.contains(
                    #"<p class="deck-description" dir="auto" tabindex="0">Pick the trips you would take.</p>"#))
            #expect(html.contains("Drag a card left for SKIP, right for GO."))
            // A label that ends its own sentence takes no period after it.
            #expect(try await client.patchDeck("d", #"{"labels":{"left":"Skip","right":"Yum!"}}"#).status == .ok)
            let exclaimed = try await client.get("/d/d").text
            #expect(exclaimed.contains("Drag a card left for Skip, right for Yum! "))
            #expect(!exclaimed.contains("Yum!."))
        }
    }

    @Test("a quota of one is one card, not one cards")
    func quotaOfOne() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("q1", titles: ["a", "b"])
            #expect(try await client.patchDeck("q1", #"{"quota":1}"#).status == .ok)
            let me = cookie("single-quota")
            #expect(
                try await client.postForm("/d/q1/swipe", "card=\(ids[0])&direction=right", headers: me).status
                    == .seeOther)
            let html = try await client.get("/d/q1", headers: me).text
            #expect(html.contains(#"up to <span class="quota">1 card</span> in this deck"#))
        }
    }

    @Test("/ lists open, listed decks with an active card; counts active cards; 1 card, 2 cards")
    func frontPage() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("three", titles: ["a", "b", "c"])
            try await client.makeDeck("single", titles: ["a"])
            try await client.makeDeck("shut", titles: ["a"])
            try await client.makeDeck("hidden", titles: ["a"])
            try await Self.makeBare(client, "bare")
            #expect(try await client.patchDeck("shut", #"{"open":false}"#).status == .ok)
            let unlisted = try await client.patchDeck("hidden", #"{"listed":false}"#)
            #expect(unlisted.status == .ok)
            let listed = try unlisted.json()["listed"].bool
            #expect(listed == false)
            let archive = try await client.execute(
                uri: "/api/v1/decks/three/cards/\(ids[0])/archive", method: .post, headers: merged(jsonType, admin),
                body: ByteBuffer())
            #expect(archive.status == .ok)
            let html = try await client.get("/").text
            #expect(html.contains(#"href="/d/three""#) && html.contains(#"href="/d/single""#))
            #expect(html.contains("2 cards") && html.contains("1 card<"))
            #expect(!html.contains("3 cards") && !html.contains("1 cards"))
            for gone in ["shut", "hidden", "bare"] {
                #expect(!html.contains(#"href="/d/\#(gone)""#), "\(gone) is not listed")
            }
            // Nor does the API list it to anybody but its owner (the attacker read unlisted slugs there).
            #expect(!(try await client.get("/api/v1/decks").text.contains(#""slug":"hidden""#)))
            #expect(try await client.get("/api/v1/decks", headers: admin).text.contains(#""slug":"hidden""#))
            // An unlisted deck is still reachable by its link.
            #expect(try await client.get("/d/hidden").status == .ok)
            #expect(try await client.patchDeck("hidden", #"{"listed":true}"#).status == .ok)
            #expect(try await client.get("/").text.contains(#"href="/d/hidden""#))
        }
    }
}
