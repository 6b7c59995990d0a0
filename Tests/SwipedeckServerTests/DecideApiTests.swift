import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import SwipedeckServer

/// Knowing when it is decided, through the API on both engines: the deck's stop rule, each card's
/// state in the results, adaptive dealing, and cards and decks decided recorded and told once.
@Suite("Stop rules, adaptive dealing and decided decks through the API")
struct DecideApiTests {
    static func like(_ client: any TestClientProtocol, _ slug: String, _ card: Int64, by who: String) async throws {
        let r = try await client.swipe(slug, card: card, direction: "right", participant: who)
        #expect(r.status == .created, "\(r.text)")
    }

    static func pass(_ client: any TestClientProtocol, _ slug: String, _ card: Int64, by who: String) async throws {
        let r = try await client.swipe(slug, card: card, direction: "left", trace: leftDrag(), participant: who)
        #expect(r.status == .created, "\(r.text)")
    }

    static func dealt(_ client: any TestClientProtocol, _ slug: String, to who: String) async throws -> [Int64] {
        try await client.get("/api/v1/decks/\(slug)/cards?limit=100&participant=\(pid(who))").json()["cards"].array
            .compactMap { $0["id"].int.map(Int64.init) }
    }

    @Test("the stop rule is a deck setting: set, read back, bad fields refused with their rule; adaptive is an order")
    func setting() async throws {
        try await withApp { client, _ in
            _ = try await client.makeDeck("rule", titles: ["a", "b"])
            let fresh = try await client.get("/api/v1/decks/rule", headers: admin).json()
            #expect(fresh["stopRule"]["kind"].string == "none")
            let set = try await client.patchDeck(
                "rule",
                #"{"order":"adaptive","stopRule":{"kind":"threshold","threshold":0.6,"errorRate":0.01,"topK":1}}"#)
            #expect(set.status == .ok, "\(set.text)")
            let deck = try set.json()
            #expect(deck["order"].string == "adaptive")
            #expect(deck["stopRule"]["kind"].string == "threshold" && deck["stopRule"]["threshold"].double == 0.6)
            #expect(deck["stopRule"]["errorRate"].double == 0.01 && deck["stopRule"]["topK"].int == 1)
            #expect(try await client.get("/api/v1/decks/rule", headers: admin).json()["stopRule"] == deck["stopRule"])
            expectAPIError(
                try await client.patchDeck("rule", #"{"stopRule":{"kind":"threshold","threshold":1.5}}"#),
                .badRequest, "invalid_stop_threshold")
            expectAPIError(
                try await client.patchDeck("rule", #"{"stopRule":{"kind":"votes","votes":0}}"#), .badRequest,
                "invalid_stop_votes")
            #expect(try await client.patchDeck("rule", #"{"stopRule":{"kind":"often"}}"#).status == .badRequest)
        }
    }

    @Test("results show each card's state, the votes a deciding card needs, and the deck's progress (JSON, CSV, page)")
    func resultsStates() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("states", titles: ["Loved", "Hated", "Unknown"])
            #expect(try await client.patchDeck("states", #"{"stopRule":{"kind":"threshold"}}"#).status == .ok)
            for i in 0..<8 {
                try await Self.like(client, "states", ids[0], by: "p\(i)")
                try await Self.pass(client, "states", ids[1], by: "p\(i)")
            }
            // Two likes: leaning yes, far from known.
            try await Self.like(client, "states", ids[2], by: "q0")
            try await Self.like(client, "states", ids[2], by: "q1")
            let results = try await client.get("/api/v1/decks/states/results", headers: admin).json()
            let cards = Dictionary(
                uniqueKeysWithValues: results["cards"].array.map { (Int64($0["cardId"].int ?? 0), $0) })
            #expect(cards[ids[0]]?["state"].string == "yes")
            #expect(cards[ids[1]]?["state"].string == "no")
            #expect(cards[ids[2]]?["state"].string == "deciding")
            #expect((cards[ids[2]]?["votesNeeded"].int ?? 0) > 0)
            #expect(cards[ids[0]]?["votesNeeded"] == .null)
            #expect(results["decision"]["decidedCards"].int == 2 && results["decision"]["activeCards"].int == 3)
            #expect(results["decision"]["deckDecided"].bool == false)
            let csv = try await client.get("/api/v1/decks/states/results.csv", headers: admin).text
            #expect(csv.contains(",state,votes_needed\r\n"))
            #expect(csv.components(separatedBy: "\r\n").contains { $0.contains("Loved") && $0.hasSuffix(",yes,") })
            let page = try await client.get("/d/states/results", headers: admin).text
            #expect(page.contains("Decided: yes") && page.contains("Decided: no"))
            #expect(page.contains("Deciding · needs about"))
            #expect(page.contains("2 of 3 cards decided"))
        }
    }

    @Test("an adaptive deck deals the cards that most need votes first and retires decided ones unless kept")
    func adaptiveDealing() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("adapt", titles: ["w", "x", "y", "z", "u", "v"])
            #expect(
                try await client.patchDeck("adapt", #"{"order":"adaptive","stopRule":{"kind":"votes","votes":2}}"#)
                    .status == .ok)
            try await Self.like(client, "adapt", ids[0], by: "a")
            try await Self.like(client, "adapt", ids[0], by: "b")  // w settled: 2 votes
            try await Self.like(client, "adapt", ids[1], by: "a")  // x: 1 vote
            let dealt = try await Self.dealt(client, "adapt", to: "c")
            #expect(!dealt.contains(ids[0]))
            #expect(Set(dealt.prefix(4)) == Set(ids[2...]) && dealt.last == ids[1])
            // Never a card twice: what a participant swiped is not dealt to them again.
            #expect(try await Self.dealt(client, "adapt", to: "a") == (try await Self.dealt(client, "adapt", to: "a")))
            #expect(Set(try await Self.dealt(client, "adapt", to: "a")) == Set(ids[2...]))
            // Two people with the same counts before them get different orders of the ties.
            var orders: Set<[Int64]> = []
            for who in ["d", "e", "f", "g", "h", "i"] { orders.insert(try await Self.dealt(client, "adapt", to: who)) }
            #expect(orders.count > 1)
            #expect(
                try await client.patchDeck(
                    "adapt", #"{"stopRule":{"kind":"votes","votes":2,"keepDecided":true}}"#
                ).status == .ok)
            #expect(try await Self.dealt(client, "adapt", to: "c").last == ids[0])
            // The page deals the same way: the retired card is not in the stack.
            #expect(
                try await client.patchDeck("adapt", #"{"stopRule":{"kind":"votes","votes":2}}"#).status == .ok)
            let html = try await client.get("/d/adapt", headers: cookie("c")).text
            #expect(!html.contains("data-card=\"\(ids[0])\"") && html.contains("data-card=\"\(ids[2])\""))
        }
    }

    @Test("a newcomer to a decided adaptive deck is told it is decided, not that every card has their decision")
    func decidedDeckPage() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("done", titles: ["a", "b"])
            #expect(
                try await client.patchDeck("done", #"{"order":"adaptive","stopRule":{"kind":"votes","votes":1}}"#)
                    .status == .ok)
            try await Self.like(client, "done", ids[0], by: "a")
            var html = try await client.get("/d/done", headers: cookie("a")).text
            #expect(html.contains("data-card=\"\(ids[1])\""), "one card still needs a vote")
            #expect(!html.contains("This deck is decided"))
            try await Self.like(client, "done", ids[1], by: "b")
            // "new" swiped nothing: nothing is left to deal because the deck is decided.
            html = try await client.get("/d/done", headers: cookie("new")).text
            #expect(html.contains("This deck is decided"))
            #expect(!html.contains("data-card=\"\(ids[0])\"") && !html.contains("data-card=\"\(ids[1])\""))
            // "a" decided one of the two: their page says the same, and they can undo their one.
            html = try await client.get("/d/done", headers: cookie("a")).text
            #expect(html.contains("This deck is decided"))
        }
    }

    @Test("a deck whose rule says so closes itself once decided: the next swipe is refused; without it, it stays open")
    func closesWhenDecided() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("vote", titles: ["a", "b"])
            let set = try await client.patchDeck(
                "vote", #"{"stopRule":{"kind":"votes","votes":2,"closeWhenDecided":true}}"#)
            #expect(try set.json()["stopRule"]["closeWhenDecided"].bool == true)
            let open = try await client.makeDeck("stays", titles: ["a", "b"])
            #expect(try await client.patchDeck("stays", #"{"stopRule":{"kind":"votes","votes":2}}"#).status == .ok)
            for who in ["p", "q"] {
                try await Self.like(client, "vote", ids[0], by: who)
                try await Self.like(client, "stays", open[0], by: who)
            }
            // One card decided: the deck is not, and takes swipes.
            #expect(try await client.get("/api/v1/decks/vote", headers: admin).json()["open"].bool == true)
            for who in ["p", "q"] {
                try await Self.pass(client, "vote", ids[1], by: who)
                try await Self.pass(client, "stays", open[1], by: who)
            }
            // The deck's decision closes it: by the deciding swipe's 201, or just after when a check of
            // the deck was running then (it checks once more when it ends).
            var stillOpen = true
            for _ in 0..<250 where stillOpen {
                stillOpen = try await client.get("/api/v1/decks/vote", headers: admin).json()["open"].bool ?? true
                if stillOpen { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(!stillOpen, "the decided deck is still open after 5 s")
            expectAPIError(
                try await client.swipe("vote", card: ids[0], direction: "right", participant: "r"), .conflict,
                "deck_closed")
            #expect(try await client.get("/api/v1/decks/stays", headers: admin).json()["open"].bool == true)
            #expect(
                try await client.swipe("stays", card: open[0], direction: "right", participant: "r").status == .created)
            let closed = "SELECT COUNT(*) FROM deckEvents WHERE kind = 'settings' AND detail = ?"
            #expect(try await env.count(closed, [DeckDecisions.closedDetail]) == 1)
            // Reopened by its owner, a decided deck stays open: it closes on its first decision only, so
            // a vote undone (the deck deciding again) and cast again (decided again) closes nothing.
            #expect(try await client.patchDeck("vote", #"{"open":true}"#).status == .ok)
            #expect(
                try await client.swipe("vote", card: ids[0], direction: "right", participant: "r").status == .created)
            // p undoes their pass on the second card (one of its two passes is theirs).
            var undone = 0
            for row in try await env.rows("SELECT id FROM swipes WHERE cardId = ?", [ids[1]]) {
                let id: String = try #require(row.value(at: 0))
                let r = try await client.execute(uri: "/api/v1/swipes/\(id)?participant=\(pid("p"))", method: .delete)
                if r.status == .ok { undone += 1 }
            }
            #expect(undone == 1)
            #expect(
                try await client.get("/api/v1/decks/vote/results", headers: admin).json()["decision"]["deckDecided"]
                    .bool == false)
            try await Self.pass(client, "vote", ids[1], by: "s")
            // Recorded by the swipe's 201, or just after when a check of the deck was running then. This
            // deck's only ("stays" is decided too: counting both passed before this one was recorded).
            let voteDecided =
                "SELECT COUNT(*) FROM deckEvents WHERE kind = 'deck_decided' AND deckId = "
                + "(SELECT id FROM decks WHERE slug = 'vote')"
            var decidedAgain = 0
            for _ in 0..<250 where decidedAgain < 2 {
                decidedAgain = try await env.count(voteDecided)
                if decidedAgain < 2 { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(decidedAgain == 2, "the deck's second decision is not recorded after 5 s")
            #expect(try await client.get("/api/v1/decks/vote", headers: admin).json()["open"].bool == true)
            #expect(try await env.count(closed, [DeckDecisions.closedDetail]) == 1)
        }
    }

    @Test("cards and the deck decided are recorded once, however many swipes and servers notice them, and told once")
    func decidedOnce() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("once", titles: ["a", "b"])
            #expect(try await client.patchDeck("once", #"{"stopRule":{"kind":"votes","votes":1}}"#).status == .ok)
            for who in ["p", "q", "r"] {
                try await Self.like(client, "once", ids[0], by: who)
                try await Self.pass(client, "once", ids[1], by: who)
            }
            let cardEvents = "SELECT COUNT(*) FROM deckEvents WHERE kind = 'card_decided'"
            let deckEvents = "SELECT COUNT(*) FROM deckEvents WHERE kind = 'deck_decided'"
            // Recorded by the deciding swipe's 201, or just after when a check of the deck was running
            // then (a loaded full run saw the count before it): waited for, then exact.
            for _ in 0..<250 where try await env.count(deckEvents) < 1 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(try await env.count(cardEvents) == 2)
            #expect(try await env.count(deckEvents) == 1)
            let results = try await client.get("/api/v1/decks/once/results", headers: admin).json()
            #expect(results["decision"]["deckDecided"].bool == true)

            // A second server finds them recorded: it records and tells nothing.
            let second = try await env.openStore()
            let told = RecordedNotices()
            let late = DeckDecisions(
                store: second, catalog: Catalog(store: second), clusters: ClusterGuard(store: second), notices: told,
                logger: Logger(label: "test"),
                clock: { fixedTime })
            let once = try #require(try await second.deck(slug: "once"))
            await late.swipesStored(on: once, now: { fixedTime })
            #expect(told.notices.withLock { $0.isEmpty })

            // A deck decided by a rule set after its swipes: the server that took the change
            // records it (`decidedWithoutASwipe`); the others, looking later, tell nothing more.
            let laterIds = try await client.makeDeck("later", titles: ["a", "b"])
            for who in ["p", "q"] {
                try await Self.like(client, "later", laterIds[0], by: who)
                try await Self.like(client, "later", laterIds[1], by: who)
            }
            #expect(try await client.patchDeck("later", #"{"stopRule":{"kind":"votes","votes":2}}"#).status == .ok)
            for _ in 0..<100 where try await env.count(deckEvents) < 2 { try await Task.sleep(for: .milliseconds(20)) }
            let later = try #require(try await second.deck(slug: "later"))
            await late.swipesStored(on: later, now: { fixedTime })
            let thirdStore = try await env.openStore()
            let third = DeckDecisions(
                store: thirdStore, catalog: Catalog(store: thirdStore), clusters: ClusterGuard(store: thirdStore),
                notices: told, logger: Logger(label: "test"),
                clock: { fixedTime })
            await third.swipesStored(on: later, now: { fixedTime })
            // On PostgreSQL the other servers hear of the change too and may be the first to record
            // a decision; whoever records it tells it, so these two told at most what they recorded.
            #expect(told.of(.cardDecided).count <= 2 && told.of(.deckDecided).count <= 1)
            #expect(try await env.count(cardEvents) == 4)
            #expect(try await env.count(deckEvents) == 2)
        }
    }

    @Test("a change that is no swipe decides too: a rule set after the votes decides the cards and the deck at once")
    func decidedWithoutASwipe() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("quiet", titles: ["a", "b"])
            for who in ["p", "q"] {
                try await Self.like(client, "quiet", ids[0], by: who)
                try await Self.like(client, "quiet", ids[1], by: who)
            }
            let events =
                "SELECT COUNT(*) FROM deckEvents WHERE deckId = (SELECT id FROM decks WHERE slug = 'quiet') AND kind = ?"
            #expect(try await env.count(events, ["card_decided"]) == 0)
            // Only the settings change: every card has its 2 votes, so both and the deck are decided
            // without anybody swiping again.
            #expect(try await client.patchDeck("quiet", #"{"stopRule":{"kind":"votes","votes":2}}"#).status == .ok)
            var cards = 0
            var decks = 0
            for _ in 0..<100 {
                cards = try await env.count(events, ["card_decided"])
                decks = try await env.count(events, ["deck_decided"])
                if cards == 2 && decks == 1 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(cards == 2 && decks == 1)
        }
    }

    @Test("the owner's settings form sets the stop rule and adaptive order; a bad field is refused next to it")
    func settingsForm() async throws {
        try await withApp { client, env in
            let (me, csrf) = try await OwnerEditorTests.owner(client, env, "ida")
            let base = [("csrf", csrf)] + OwnerEditorTests.deckFields
            #expect(
                try await client.postForm("/owner/decks", OwnerEditorTests.form(base), headers: me).status == .seeOther)
            let editor = try await client.get("/owner/decks/lunch", headers: me).text
            #expect(editor.contains("When a card is decided") && editor.contains(#"value="none" checked"#))
            let rule =
                base.map { $0.0 == "order" ? ("order", "adaptive") : $0 } + [
                    ("stopKind", "threshold"), ("stopThreshold", "60"), ("stopErrorRate", "1"), ("stopVotes", "10"),
                    ("stopWidth", "20"), ("stopCap", "200"), ("stopTopK", "3"), ("keepDecided", "1"),
                ]
            let saved = try await client.postForm(
                "/owner/decks/lunch/settings", OwnerEditorTests.form(rule), headers: me)
            #expect(saved.status == .seeOther, "\(saved.text.prefix(400))")
            let deck = try await client.get("/api/v1/decks/lunch", headers: admin).json()
            #expect(deck["order"].string == "adaptive" && deck["stopRule"]["kind"].string == "threshold")
            #expect(deck["stopRule"]["threshold"].double == 0.6 && deck["stopRule"]["errorRate"].double == 0.01)
            #expect(deck["stopRule"]["votesCap"].int == 200 && deck["stopRule"]["topK"].int == 3)
            #expect(deck["stopRule"]["keepDecided"].bool == true)
            let shown = try await client.get("/owner/decks/lunch", headers: me).text
            #expect(shown.contains(#"value="threshold" checked"#) && shown.contains(#"value="adaptive" checked"#))
            #expect(shown.contains(#"name="stopThreshold" inputmode="decimal" value="60""#))
            let bad = rule.map { $0.0 == "stopErrorRate" ? ("stopErrorRate", "80") : $0 }
            let refused = try await client.postForm(
                "/owner/decks/lunch/settings", OwnerEditorTests.form(bad), headers: me)
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains(#"<p class="field-error" id="stop-rule-error">Write the error rate"#))
            #expect(refused.text.contains(#"name="stopErrorRate" inputmode="decimal" value="80""#))
            let notNumber = rule.map { $0.0 == "stopThreshold" ? ("stopThreshold", "half") : $0 }
            let refusedToo = try await client.postForm(
                "/owner/decks/lunch/settings", OwnerEditorTests.form(notNumber), headers: me)
            #expect(refusedToo.status == .badRequest && refusedToo.text.contains("Write the threshold"))
            // The dashboard shows where the deck stands: deciding, then decided.
            #expect(try await client.get("/owner", headers: me).text.contains("Deciding: 0/0 cards"))
            let settle = base + [("stopKind", "votes"), ("stopVotes", "1")]
            #expect(
                try await client.postForm("/owner/decks/lunch/settings", OwnerEditorTests.form(settle), headers: me)
                    .status == .seeOther)
            let card = try await client.postForm(
                "/owner/decks/lunch/cards",
                OwnerEditorTests.form([("csrf", csrf), ("title", "Ramen"), ("accent", "")]),
                headers: me)
            #expect(card.status == .seeOther)
            let ramen = try #require(try await client.cardIds("lunch").first)
            try await Self.like(client, "lunch", ramen, by: "ann")
            let dashboard = try await client.get("/owner", headers: me).text
            #expect(dashboard.contains(#"<span class="badge ok decided">Decided</span>"#))
        }
    }
}
