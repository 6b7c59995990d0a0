import Foundation
import HTTPTypes
import HummingbirdTesting
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// HTML pages and their no-JavaScript form posts.
@Suite("Pages")
struct PageTests {
    @Test("GET / lists the decks with links and card counts")
    func index() async throws {
        try await withApp { client, _ in
            try await client.makeDeck("trips", titles: ["a", "b", "c"])
            let r = try await client.get("/")
            #expect(r.status == .ok)
            #expect(r.contentType.hasPrefix("text/html"))
            #expect(r.text.contains(#"href="/d/trips""#))
            #expect(r.text.contains("<h2>Deck trips</h2>"))
            #expect(r.text.contains("3 cards"))
            #expect(r.text.contains(#"href="/d/getaways""#))
        }
    }

    @Test(
        "GET /d/{deck}: the profile JSON decodes back to the deck's profile",
        arguments: ["standard", "eightway", "classic"])
    func deckPageProfile(profile: String) async throws {
        try await withApp { client, _ in
            try await client.makeDeck("p", titles: ["a"], profile: profile)
            let r = try await client.get("/d/p")
            #expect(r.status == .ok)
            let json = try #require(scriptContent(r.text, id: "swipe-profile"))
            #expect(r.text.contains(#"<script type="application/json" id="swipe-profile">"#))
            let decoded = try JSONDecoder().decode(SwipeProfile.self, from: Data(json.utf8))
            #expect(decoded == SwipeProfile.named(profile))
            #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
            #expect(
                r.text.range(of: #"href="/css/stack/\#(profile)\.[0-9a-f]{10}\.css""#, options: .regularExpression)
                    != nil)
        }
    }

    @Test("GET /d/{deck}: the stack with depths 0…, the form and its buttons")
    func deckPageStack() async throws {
        try await withApp { client, _ in
            // The page renders the visible stack plus a buffer of cards; one more stays unrendered.
            let rendered = SwipeProfile.standard.stack.visible + PageController.bufferedCards
            let ids = try await client.makeDeck("s", titles: (0...rendered).map { "c\($0)" })
            let r = try await client.get("/d/s")
            #expect(r.status == .ok)
            let html = r.text
            for depth in 0..<rendered {
                #expect(
                    html.contains(
                        #"id="card-\#(ids[depth])" data-card="\#(ids[depth])" data-depth="\#(depth)" aria-labelledby="card-title-\#(ids[depth])"\#(depth > 0 ? " inert" : "")>"#
                    ))
            }
            #expect(!html.contains(#"data-card="\#(ids[rendered])""#))
            #expect(html.contains(#"<form class="controls" method="post" action="/d/s/swipe">"#))
            #expect(html.contains(#"<input type="hidden" name="card" value="\#(ids[0])">"#))
            #expect(html.contains(#"formaction="/d/s/undo""#))
            #expect(html.contains(#"name="direction" value="left""#))
            #expect(html.contains(#"name="direction" value="right""#))
            #expect(html.contains(#"data-remaining="\#(rendered + 1)""#))
            #expect(html.contains(#"<div class="stack-state state-finished empty-state" role="status" hidden>"#))
            #expect(html.contains(#"data-state="open""#))
            #expect(html.contains(#"href="/d/s/cards/\#(ids[0])""#))

            // A drag-only deck renders no direction buttons.
            try await client.makeDeck("drag-only", titles: ["a"], allowButtons: false)
            let d = try await client.get("/d/drag-only").text
            #expect(!d.contains(#"name="direction""#))
            #expect(d.contains(#"data-allow-buttons="false""#))
        }
    }

    @Test(
        "form swipes: 303 back to the deck, stored as button input, next card on top; form undo brings it back; data-undo says when there is one"
    )
    func formSwipeAndUndo() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("f", titles: ["c0", "c1", "c2"])
            let me = cookie("formuser")
            let r = try await client.postForm("/d/f/swipe", "card=\(ids[0])&direction=right", headers: me)
            #expect(r.status == .seeOther)
            #expect(r.headers[.location] == "/d/f")
            let row = try #require(
                try await env.row(
                    "SELECT * FROM swipes WHERE participantId = ?", [try await identity("formuser", in: "f", env)]))
            #expect(row["input"] as String? == "button")
            #expect(row["direction"] as String? == "right")
            #expect(row["cardId"] as Int64? == ids[0])

            #expect(try await client.get("/d/f", headers: cookie("fresh")).text.contains(#"data-undo="false""#))
            let next = try await client.get("/d/f", headers: me).text
            #expect(next.contains(#"data-undo="true""#), "a live swipe to undo")
            #expect(next.contains(#"data-card="\#(ids[1])" data-depth="0""#))
            #expect(!next.contains(#"data-card="\#(ids[0])""#))
            #expect(next.contains(#"name="card" value="\#(ids[1])""#))

            // A double submit of the same form is not an error.
            let twice = try await client.postForm("/d/f/swipe", "card=\(ids[0])&direction=right", headers: me)
            #expect(twice.status == .seeOther)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM swipes WHERE participantId = ?",
                    [try await identity("formuser", in: "f", env)]) == 1)

            let undo = try await client.postForm("/d/f/undo", "card=\(ids[1])", headers: me)
            #expect(undo.status == .seeOther)
            #expect(undo.headers[.location] == "/d/f")
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM swipes WHERE participantId = ?",
                    [try await identity("formuser", in: "f", env)]) == 1)
            #expect(
                try await env.row(
                    "SELECT undoneAt FROM swipes WHERE participantId = ?",
                    [try await identity("formuser", in: "f", env)])?["undoneAt"] as Double? == fixedTime)
            let back = try await client.get("/d/f", headers: me).text
            #expect(back.contains(#"data-card="\#(ids[0])" data-depth="0""#))
            #expect(back.contains(#"data-undo="false""#), "the only swipe is undone")

            // Undo with nothing to undo still redirects.
            #expect(try await client.postForm("/d/f/undo", "", headers: cookie("nobody")).status == .seeOther)
        }
    }

    @Test("form swipe errors: invalid form 400, unknown deck 404, drag-only deck 422, unknown card 404 (HTML pages)")
    func formSwipeErrors() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("f", titles: ["a"])
            let closed = try await client.makeDeck("closed", titles: ["a"], allowButtons: false)
            let me = cookie("formerr")
            let bad = try await client.postForm("/d/f/swipe", "direction=right", headers: me)
            #expect(bad.status == .badRequest)
            #expect(bad.contentType.hasPrefix("text/html"))
            let garbage = try await client.postForm("/d/f/swipe", "card=abc&direction=right", headers: me)
            #expect(garbage.status == .badRequest)
            #expect(
                try await client.postForm("/d/nope/swipe", "card=\(ids[0])&direction=right", headers: me).status
                    == .notFound)
            #expect(try await client.postForm("/d/nope/undo", "", headers: me).status == .notFound)
            #expect(
                try await client.postForm("/d/f/swipe", "card=999999&direction=right", headers: me).status == .notFound)
            #expect(
                try await client.postForm("/d/f/swipe", "card=\(ids[0])&direction=sideways", headers: me).status
                    == .badRequest)
            let refused = try await client.postForm("/d/closed/swipe", "card=\(closed[0])&direction=left", headers: me)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.contentType.hasPrefix("text/html"))
            // Form bodies are capped at 16 KiB.
            let huge = try await client.postForm(
                "/d/f/swipe", "card=\(ids[0])&direction=right&pad=" + String(repeating: "x", count: 17 * 1024),
                headers: me)
            #expect(huge.status == .contentTooLarge)
            #expect(huge.contentType.hasPrefix("text/html"))
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
        }
    }

    @Test("the empty-deck view once every card is swiped")
    func emptyDeck() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("e", titles: ["a", "b"])
            let me = cookie("finisher")
            for id in ids {
                #expect(
                    try await client.postForm("/d/e/swipe", "card=\(id)&direction=left", headers: me).status
                        == .seeOther)
            }
            let html = try await client.get("/d/e", headers: me).text
            #expect(html.contains(#"<div class="stack-state state-finished empty-state" role="status">"#))
            #expect(html.contains("all caught up"))
            // No card on the stack; only the empty card in <template> that deck.js fills from fetched JSON.
            #expect(html.components(separatedBy: #"<article class="card""#).count == 2)
            #expect(
                html.contains(
                    #"<template id="card-template"><article class="card" id="card-" data-card="" data-depth="""#))
            #expect(html.contains(#"data-remaining="0""#))
            #expect(html.contains(#"value="left" aria-label="NOPE" title="NOPE (←)" disabled"#))
            // Somebody else still gets the stack.
            let other = try await client.get("/d/e", headers: cookie("newcomer")).text
            #expect(other.contains(#"<div class="stack-state state-finished empty-state" role="status" hidden>"#))
        }
    }

    @Test("unknown deck, card or route: the HTML 404 page")
    func notFoundPages() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("one", titles: ["a"])
            let other = try await client.makeDeck("two", titles: ["b"])
            for uri in [
                "/d/nope", "/d/nope/results", "/d/nope/history", "/d/one/cards/999999", "/d/one/cards/\(other[0])",
                "/d/one/cards/abc",
                "/d/nope/cards/\(ids[0])", "/no/such/page",
            ] {
                let r = try await client.get(uri)
                #expect(r.status == .notFound, "\(uri)")
                #expect(r.contentType.hasPrefix("text/html"), "\(uri)")
                #expect(r.text.contains("<h1>404</h1>"), "\(uri)")
            }
            #expect(try await client.get("/d/nope").text.contains("No such deck."))
        }
    }

    @Test("GET /css/stack/{profile}.css holds the StackSlot transforms and touch-action; unknown is 404")
    func stackCSS() async throws {
        try await withApp { client, _ in
            for profile in SwipeProfile.all {
                let r = try await client.get("/css/stack/\(profile.name).css")
                #expect(r.status == .ok)
                #expect(r.contentType.hasPrefix("text/css"))
                let s = profile.stack
                for depth in 0...s.visible {
                    let slot = StackSlot.at(depth: depth, count: s.visible + 1, w: 380, stack: s)
                    // Cards under the top one scale about their top edge: a clean edge, not a sliver.
                    let origin = depth > 0 ? "transform-origin:50% 0;" : ""
                    #expect(
                        r.text.contains(
                            #".card[data-depth="\#(depth)"]{transform:translate(\#(slot.translateX)px,\#(slot.translateY)px) scale(\#(slot.scaleX),\#(slot.scaleY));\#(origin)opacity:\#(slot.opacity > 0 ? 1.0 : 0.0);z-index:\#(slot.zIndex)}"#
                        ),
                        "\(profile.name) depth \(depth)")
                    // The slot's alpha is on the content (an opaque card hides the one under it); no rule at 0 or 1.
                    let content = #".card[data-depth="\#(depth)"]>:not(.overlay){opacity:\#(slot.opacity)}"#
                    #expect(
                        r.text.contains(content) == (slot.opacity > 0 && slot.opacity < 1),
                        "\(profile.name) depth \(depth)")
                }
                // Every touch move on a card goes to the card, whatever directions the profile throws.
                #expect(r.text.contains(".card{touch-action:none}"), "\(profile.name)")
                #expect(!r.text.contains("pan-y"), "\(profile.name)")
            }
            for uri in ["/css/stack/nope.css", "/css/stack/standard", "/css/stack/standard.js"] {
                let r = try await client.get(uri)
                #expect(r.status == .notFound, "\(uri)")
            }
        }
    }

    @Test("results page: counts, ranked table and links to the exports")
    func resultsPage() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("r", titles: ["a", "b"])
            let empty = try await client.get("/d/r/results", headers: admin)
            #expect(empty.status == .ok)
            #expect(empty.text.contains("No swipes yet"))
            #expect(empty.text.contains("None: every swipe sent matched the gesture it claimed."))

            #expect(
                try await client.postForm("/d/r/swipe", "card=\(ids[0])&direction=right", headers: cookie("u1")).status
                    == .seeOther)
            #expect(
                try await client.postForm("/d/r/swipe", "card=\(ids[0])&direction=left", headers: cookie("u2")).status
                    == .seeOther)
            #expect(
                try await client.postForm("/d/r/swipe", "card=\(ids[1])&direction=left", headers: cookie("u2")).status
                    == .seeOther)
            let html = try await client.get("/d/r/results", headers: admin).text
            #expect(
                html.contains(
                    #"<b data-stat="participants">2</b><span data-stat="participantsLabel">participants</span>"#))
            #expect(html.contains(#"<b data-stat="swipes">3</b><span>swipes counted</span>"#))
            #expect(html.contains(#"<b data-stat="likes">1</b><span>LIKE</span>"#))
            #expect(html.contains(#"<b data-stat="passes">2</b><span>NOPE</span>"#))
            #expect(html.contains(#"<svg class="bars""#))
            #expect(html.contains(#"href="/api/v1/decks/r/results.csv""#))
            #expect(html.contains("<td class=\"num\">2</td><td class=\"num\">1 of 2</td><td class=\"num\">50%</td>"))
        }
    }

    @Test("results chart: sized in percent of its box (no fixed-width viewBox), long titles shortened, full title kept")
    func resultsChartFitsAnyWidth() async throws {
        try await withApp { client, _ in
            let long = "An extraordinarily long card title that goes on and on past any label column"
            let ids = try await client.makeDeck("w", titles: [long, "Short"])
            for (card, direction, who) in [(ids[0], "right", "u1"), (ids[0], "left", "u2"), (ids[1], "right", "u1")] {
                #expect(
                    try await client.postForm("/d/w/swipe", "card=\(card)&direction=\(direction)", headers: cookie(who))
                        .status == .seeOther)
            }
            let html = try await client.get("/d/w/results", headers: admin).text
            let start = try #require(html.range(of: #"<svg class="bars""#))
            let end = try #require(html.range(of: "<figcaption>", range: start.upperBound..<html.endIndex))
            let svg = String(html[start.lowerBound..<end.upperBound])
            #expect(!svg.contains("viewBox"), "a viewBox scales the text down with the chart")
            #expect(!svg.contains("600"))
            // Each track spans the chart; the sure and possible bars are fractions of it (one vote of
            // one: the solid bar stops at the interval's lower bound, the pale one runs to 100 %).
            #expect(svg.components(separatedBy: #"class="bar-bg" x="0""#).count == 3)
            #expect(svg.contains(#"width="100%""#))
            let short = WilsonInterval(successes: 1, trials: 1)
            #expect(
                svg.contains(
                    #"width="\#(ResultsView.percent(short.lower))" height="16" rx="8"/><rect class="bar-mark""#),
                "\(svg)")
            #expect(
                !svg.contains(#"width="100.0%" height="16" rx="8"/><rect class="bar-mark""#),
                "no full solid bar: \(svg)")
            #expect(svg.contains(#"class="bar-range" x="\#(ResultsView.percent(short.lower))""#), "\(svg)")
            // The long title is cut with an ellipsis in the label; the whole title is the tooltip.
            #expect(svg.contains(">An extraordinarily lo…</text>"), "\(svg)")
            #expect(svg.contains("<title>\(long)</title>"))
            #expect(svg.contains(">Short</text>"))
            #expect(svg.contains(">100% · 1 vote</text>") && svg.contains(">50% · 2 votes</text>"))
        }
    }

    @Test("history page lists my swipes; its forms undo and flip them")
    func historyPage() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("h", titles: ["First card", "Second card"])
            let me = cookie("historian")
            let empty = try await client.get("/d/h/history", headers: me)
            #expect(empty.status == .ok)
            #expect(empty.text.contains("No swipes yet"))
            #expect(
                scriptContent(empty.text, id: "reveal-profile").flatMap {
                    try? JSONDecoder().decode(SwipeProfile.self, from: Data($0.utf8))
                } == .reveal)

            #expect(
                try await client.postForm("/d/h/swipe", "card=\(ids[0])&direction=right", headers: me).status
                    == .seeOther)
            #expect(
                try await client.postForm("/d/h/swipe", "card=\(ids[1])&direction=left", headers: me).status
                    == .seeOther)
            let first = try #require(
                try await env.row("SELECT id FROM swipes WHERE cardId = ?", [ids[0]])?["id"] as String?)

            let html = try await client.get("/d/h/history", headers: me).text
            #expect(html.contains(#"<b dir="auto">First card</b>"#))
            #expect(html.contains(#"<b dir="auto">Second card</b>"#))
            #expect(html.contains(#"data-swipe="\#(first)" data-direction="right""#))
            #expect(html.contains(#"action="/d/h/swipes/\#(first)/undo""#))
            #expect(html.contains("Flip to NOPE"))
            #expect(html.contains("just now"))
            let second = try #require(html.range(of: "Second card"))
            #expect(second.lowerBound < html.range(of: "First card")!.lowerBound, "newest first")
            // Somebody else's history is empty.
            #expect(try await client.get("/d/h/history", headers: cookie("stranger")).text.contains("No swipes yet"))

            let flip = try await client.postForm("/d/h/swipes/\(first)/flip", "", headers: me)
            #expect(flip.status == .seeOther)
            #expect(flip.headers[.location] == "/d/h/history")
            #expect(
                try await env.row("SELECT direction FROM swipes WHERE id = ?", [first])?["direction"] as String?
                    == "left")
            #expect(try await env.count("SELECT COUNT(*) FROM flips WHERE swipeId = ?", [first]) == 1)

            // Another participant may neither flip nor undo it.
            #expect(
                try await client.postForm("/d/h/swipes/\(first)/flip", "", headers: cookie("stranger")).status
                    == .forbidden)
            #expect(
                try await client.postForm("/d/h/swipes/\(first)/undo", "", headers: cookie("stranger")).status
                    == .forbidden)
            #expect(try await client.postForm("/d/h/swipes/nope/undo", "", headers: me).status == .notFound)
            #expect(try await client.postForm("/d/h/swipes/nope/flip", "", headers: me).status == .notFound)
            // The deck in the URL must be the swipe's deck.
            #expect(try await client.postForm("/d/getaways/swipes/\(first)/flip", "", headers: me).status == .notFound)
            #expect(try await client.postForm("/d/nope/swipes/\(first)/undo", "", headers: me).status == .notFound)
            #expect(try await env.count("SELECT COUNT(*) FROM flips WHERE swipeId = ?", [first]) == 1)

            let undo = try await client.postForm("/d/h/swipes/\(first)/undo", "", headers: me)
            #expect(undo.status == .seeOther)
            #expect(undo.headers[.location] == "/d/h/history")
            #expect(
                try await env.row("SELECT undoneAt FROM swipes WHERE id = ?", [first])?["undoneAt"] as Double?
                    == fixedTime)
            let after = try await client.get("/d/h/history", headers: me).text
            #expect(!after.contains(#"<b dir="auto">First card</b>"#))
            #expect(after.contains(#"<b dir="auto">Second card</b>"#))
        }
    }

    @Test("card detail page: title, body paragraphs, link, position")
    func detailPage() async throws {
        try await withApp { client, _ in
            let body =
                #"{"slug":"det","title":"Det","cards":[{"title":"Zero"},{"title":"Lake","subtitle":"Calm","body":"Para one.\nPara two.","link":"https://example.com/lake"}]}"#
            #expect(try await client.createDeck(body).status == .created)
            let ids = try await client.cardIds("det")
            let r = try await client.get("/d/det/cards/\(ids[1])")
            #expect(r.status == .ok)
            let html = r.text
            #expect(html.contains(#"<h1 dir="auto">Lake</h1>"#))
            #expect(html.contains(#"<p class="lead" dir="auto">Calm</p>"#))
            #expect(
                html.contains(
                    #"<p class="fade-row" dir="auto">Para one.</p><p class="fade-row" dir="auto">Para two.</p>"#))
            #expect(html.contains(#"<a class="long-link" href="https://example.com/lake" rel="noopener">"#))
            #expect(
                html.contains("Card 2 of 2 in “Det”."), "the deck's title and size, not the card's title and the slug")
            #expect(html.contains(#"href="/d/det#card-\#(ids[1])""#))
        }
    }
}
