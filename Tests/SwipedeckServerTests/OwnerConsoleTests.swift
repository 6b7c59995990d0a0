import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// The owner console as a first-time owner reads it (issue 26): refusals in sentences next to
/// their field, a confirmation where the changed card is, archived cards apart, the ↑ ↓ buttons
/// moving among the cards swipers see, and dashboard numbers that agree with each other.
@Suite("Owner console: plain words, confirmations, numbers that agree")
struct OwnerConsoleTests {
    typealias Editor = OwnerEditorTests

    /// A signed-in owner with the deck `lunch` holding `titles`; their session, form token and card ids.
    static func lunch(_ client: any TestClientProtocol, _ env: TestEnv, _ name: String, _ titles: [String]) async throws
        -> (HTTPFields, String, [Int64])
    {
        let (me, csrf) = try await Editor.owner(client, env, name)
        #expect(
            try await client.postForm("/owner/decks", Editor.form([("csrf", csrf)] + Editor.deckFields), headers: me)
                .status == .seeOther)
        for title in titles {
            let r = try await client.postForm(
                "/owner/decks/lunch/cards", Editor.form([("csrf", csrf), ("title", title)]), headers: me)
            #expect(r.status == .seeOther, "\(title): \(r.text.prefix(300))")
        }
        return (me, csrf, try await client.cardIds("lunch"))
    }

    @Test(
        "a blank title is refused in a sentence next to the title field, which is marked invalid; what was typed stays")
    func blankTitle() async throws {
        try await withApp { client, env in
            let (me, csrf, _) = try await Self.lunch(client, env, "ada", [])
            let r = try await client.postForm(
                "/owner/decks/lunch/cards", Editor.form([("csrf", csrf), ("title", "  "), ("subtitle", "kept")]),
                headers: me)
            #expect(r.status == .badRequest)
            #expect(r.text.contains(#"<p class="field-error" id="card-title-error">Give the card a title.</p>"#))
            #expect(r.text.contains(#"aria-invalid="true" aria-describedby="card-title-error""#))
            #expect(!r.text.contains("title must be 1–200"))
            #expect(r.text.contains(#"value="kept""#))
            let link = try await client.postForm(
                "/owner/decks/lunch/cards",
                Editor.form([("csrf", csrf), ("title", "Ramen"), ("link", "javascript:alert(1)")]), headers: me)
            #expect(link.status == .badRequest)
            #expect(link.text.contains(#"id="card-link-error">The link must start with https://"#))
            #expect(!link.text.contains(#"id="card-title-error""#))
        }
    }

    @Test("added, edited, archived, restored: the editor confirms it in the card's own row and goes to that row")
    func confirmations() async throws {
        try await withApp { client, env in
            let (me, csrf, ids) = try await Self.lunch(client, env, "bea", ["Ramen"])
            let added = try await client.postForm(
                "/owner/decks/lunch/cards", Editor.form([("csrf", csrf), ("title", "Tacos")]), headers: me)
            let tacos = try await client.cardIds("lunch").last ?? 0
            #expect(added.headers[.location] == "/owner/decks/lunch?added=\(tacos)#card-\(tacos)")
            let page = try await client.get("/owner/decks/lunch?added=\(tacos)", headers: me)
            #expect(page.text.contains("Added “Tacos” to the deck."))
            #expect(page.text.contains(#"class="card-row changed" id="card-\#(tacos)""#))

            let edited = try await client.postForm(
                "/owner/decks/lunch/cards/\(ids[0])", Editor.form([("csrf", csrf), ("title", "Ramen!")]), headers: me)
            #expect(edited.headers[.location] == "/owner/decks/lunch?edited=\(ids[0])#card-\(ids[0])")
            #expect(
                try await client.get("/owner/decks/lunch?edited=\(ids[0])", headers: me).text.contains(
                    "Saved “Ramen!” as a new revision."))

            let archived = try await client.postForm(
                "/owner/decks/lunch/cards/\(ids[0])/archive", "csrf=\(csrf)", headers: me)
            #expect(archived.headers[.location] == "/owner/decks/lunch?archived=\(ids[0])#card-\(ids[0])")
            let after = try await client.get("/owner/decks/lunch?archived=\(ids[0])", headers: me).text
            #expect(after.contains("Archived “Ramen!”: swipers no longer see it."))
            // The archived section opens by itself to show the row it confirms.
            #expect(after.contains(#"<details class="panel archived-cards" id="archived" open>"#))

            let imported = try await client.postForm(
                "/owner/decks/lunch/import/confirm", Editor.form([("csrf", csrf), ("text", "title\nPho\nCurry\n")]),
                headers: me)
            let pho = try await client.cardIds("lunch").dropLast().last ?? 0
            #expect(imported.headers[.location] == "/owner/decks/lunch?imported=2&first=\(pho)#card-\(pho)")
            #expect(
                try await client.get("/owner/decks/lunch?imported=2&first=\(pho)", headers: me).text.contains(
                    "Imported 2 cards: this one and the ones after it."))
        }
    }

    @Test(
        "archived cards are listed apart in a folded section, unnumbered; ↑ moves past them to the previous active card"
    )
    func archivedApart() async throws {
        try await withApp { client, env in
            let (me, csrf, ids) = try await Self.lunch(client, env, "cy", ["Ramen", "Tacos", "Salad"])
            #expect(
                try await client.postForm("/owner/decks/lunch/cards/\(ids[1])/archive", "csrf=\(csrf)", headers: me)
                    .status == .seeOther)
            let page = try await client.get("/owner/decks/lunch", headers: me).text
            let active = try #require(page.range(of: #"<ol class="card-list""#))
            let apart = try #require(page.range(of: #"<details class="panel archived-cards" id="archived">"#))
            #expect(active.upperBound < apart.lowerBound)
            #expect(
                page[apart.upperBound...].contains("Tacos")
                    && !page[active.upperBound..<apart.lowerBound].contains("Tacos"))
            #expect(page.contains("<summary>Archived cards (1)</summary>"))
            #expect(page.contains("Cards <small>2 active</small>"))
            // Salad is card 2 of the active list (not 3 with the archived card counted).
            #expect(page.contains(#"<span class="num">2</span>"#) && !page.contains(#"<span class="num">3</span>"#))

            #expect(
                try await client.postForm("/owner/decks/lunch/cards/\(ids[2])/up", "csrf=\(csrf)", headers: me).status
                    == .seeOther)
            #expect(try await client.cardIds("lunch") == [ids[2], ids[0]])
        }
    }

    @Test("a colour picker's lower-case accent is the same colour: stored upper-case, no new revision")
    func colourPicker() async throws {
        try await withApp { client, env in
            let (me, csrf, ids) = try await Self.lunch(client, env, "dee", ["Ramen"])
            let page = try await client.get("/owner/decks/lunch/cards/\(ids[0])", headers: me).text
            #expect(page.contains(##"name="accent" type="color" value="#6C5CE7""##))
            let r = try await client.postForm(
                "/owner/decks/lunch/cards/\(ids[0])",
                Editor.form([("csrf", csrf), ("title", "Ramen"), ("accent", "#6c5ce7")]), headers: me)
            #expect(r.status == .seeOther)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM cards WHERE id = ? AND revision = 1 AND accent = '#6C5CE7'", [ids[0]]) == 1)
        }
    }

    @Test("dashboard: Cards counts active cards only; Last hour counts live swipes, never more than Swipes")
    func dashboardNumbers() async throws {
        try await withApp { client, env in
            let (me, csrf, ids) = try await Self.lunch(client, env, "eve", ["Ramen", "Tacos", "Salad"])
            #expect(
                try await client.postForm("/owner/decks/lunch/cards/\(ids[2])/archive", "csrf=\(csrf)", headers: me)
                    .status == .seeOther)
            #expect(
                try await client.swipe("lunch", card: ids[0], direction: "right", participant: "ann", key: "k-1").status
                    == .created)
            #expect(
                try await client.swipe("lunch", card: ids[1], direction: "right", participant: "ann", key: "k-2").status
                    == .created)
            #expect(
                try await client.execute(uri: "/api/v1/swipes/k-2", method: .delete, headers: cookie("ann")).status
                    == .ok)
            let page = try await client.get("/owner", headers: me).text
            let row = try #require(page.range(of: "/owner/decks/lunch\""))
            let cells = page[row.upperBound...].prefix(while: { $0 != "\n" })
            let numbers = cells.matches(of: /<td class="num">(\d+)<\/td>/).map { Int($0.output.1) ?? -1 }
            // Cards, Swipes, People, Last hour.
            #expect(numbers == [2, 1, 1, 1])
        }
    }

    @Test(
        "share panel: a loopback link warns that phones cannot open it and names --public-url; a LAN link warns softly; a public one not"
    )
    func shareReach() async throws {
        try await withApp { client, env in
            let (me, _, _) = try await Self.lunch(client, env, "fio", [])
            let local = try await client.get(
                "/owner/decks/lunch/share", headers: merged(me, [.init("Host")!: "127.0.0.1:8080"])
            ).text
            #expect(local.contains("This link points at this computer itself (127.0.0.1)"))
            #expect(local.contains("--public-url https://decks.example.org"))
            let lan = try await client.get(
                "/owner/decks/lunch/share", headers: merged(me, [.init("Host")!: "192.168.1.20:8080"])
            ).text
            #expect(lan.contains("only devices on the same network") && !lan.contains("this computer itself"))
            let name = try await client.get(
                "/owner/decks/lunch/share", headers: merged(me, [.init("Host")!: "localhost:8080"])
            ).text
            #expect(name.contains("this computer itself (localhost)"))
            let world = try await client.get(
                "/owner/decks/lunch/share", headers: merged(me, [.init("Host")!: "decks.example.org"])
            ).text
            #expect(!world.contains("reach-warning"))
        }
        try await withApp({ $0.publicBaseURL = "https://swipe.example.net" }) { client, env in
            let (me, _, _) = try await Self.lunch(client, env, "gil", [])
            let page = try await client.get(
                "/owner/decks/lunch/share", headers: merged(me, [.init("Host")!: "127.0.0.1:8080"])
            ).text
            #expect(page.contains("https://swipe.example.net/d/lunch") && !page.contains("reach-warning"))
        }
    }

    @Test("link reach: loopback, private and link-local addresses and names, IPv4 and IPv6")
    func linkReach() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "app.localhost", "::1", "0.0.0.0"] {
            #expect(LinkReach(host: host) == .thisComputer, "\(host)")
        }
        for host in [
            "10.0.0.5", "172.16.0.1", "172.31.255.255", "192.168.1.20", "169.254.3.4", "100.64.0.1", "fd12::1",
            "fe80::1", "pi.local",
        ] {
            #expect(LinkReach(host: host) == .sameNetwork, "\(host)")
        }
        for host in ["172.32.0.1", "8.8.8.8", "decks.example.org", "2001:db8::1", "192.169.0.1"] {
            #expect(LinkReach(host: host) == .anyone, "\(host)")
        }
        #expect(LinkReach(link: "http://[::1]:8080/d/x") == .thisComputer)
    }

    @Test("signing out lands on the sign-in page saying so")
    func signedOut() async throws {
        try await withApp { client, env in
            let (me, csrf, _) = try await Self.lunch(client, env, "hex", [])
            let out = try await client.postForm("/owner/sign-out", "csrf=\(csrf)", headers: me)
            #expect(out.status == .seeOther)
            let location = try #require(out.headers[.location])
            #expect(try await client.get(location).text.contains("You are signed out."))
            #expect(!(try await client.get("/owner/sign-in").text.contains("You are signed out.")))
        }
    }

    @Test(
        "results at a glance: one vote draws no full bar, unswiped cards say no votes yet, archived cards apart, plain words, the owner's navigation"
    )
    func resultsPage() async throws {
        try await withApp { client, env in
            let (me, csrf, ids) = try await Self.lunch(client, env, "ida", ["Ramen", "Tacos", "Salad"])
            #expect(
                try await client.swipe("lunch", card: ids[0], direction: "right", participant: "ann").status == .created
            )
            #expect(
                try await client.swipe("lunch", card: ids[2], direction: "left", trace: leftDrag(), participant: "ann")
                    .status == .created)
            #expect(
                try await client.postForm("/owner/decks/lunch/cards/\(ids[2])/archive", "csrf=\(csrf)", headers: me)
                    .status == .seeOther)
            let page = try await client.get("/d/lunch/results", headers: me).text
            #expect(page.contains(#"<span data-stat="participantsLabel">participant</span>"#))
            for jargon in [
                "Skip &amp; other", "suspect, excluded", "Wilson", "0.00–1.00", "participant(s)",
                "<span class=\"badge\">archived</span>",
            ] {
                #expect(!page.contains(jargon), "\(jargon)")
            }
            // One YUM: 100 % seen, but the solid bar stops at the interval's lower bound (about 21 %).
            #expect(page.contains("100% · 1 vote"))
            let solid = try #require(page.firstMatch(of: /class="bar-fill" x="0" y="[\d.]+" width="([\d.]+)%"/))
            #expect((Double(solid.output.1) ?? 100) < 25)
            #expect(page.contains("no votes yet"))
            // The ranked table holds the active cards; Salad (archived) is in its own folded table.
            let ranked = try #require(page.range(of: #"<table class="ranked" data-start"#))
            let apart = try #require(page.range(of: #"<table class="ranked archived-table">"#))
            #expect(!page[ranked.upperBound..<apart.lowerBound].contains("Salad"))
            #expect(page[apart.upperBound...].contains("Salad"))
            #expect(page.contains(#"<th class="num">YUM</th>"#))
            #expect(page.contains("<details class=\"panel-lite kinds-details\">"))
            #expect(page.contains(#"<a href="/owner/tokens">API tokens</a>"#), "the owner's navigation stays")
            let visitor = try await client.get("/d/lunch/results", headers: admin).text
            #expect(!visitor.contains(#"<a href="/owner/tokens">"#))

            let csv = try await client.get("/api/v1/decks/lunch/results.csv", headers: me).text
            let lines = csv.split(separator: "\r\n").map(String.init)
            #expect(
                lines[0].hasPrefix(
                    "rank,card_id,title,archived,YUM or SUPER,votes,rate,rate_at_least,rate_at_most,NOPE,YUM,SUPER,LATER,"
                ))
            #expect(lines.contains { $0.contains(",Salad,1,") } && lines.contains { $0.contains(",Ramen,0,") })
            let swipes = try await client.get("/api/v1/decks/lunch/swipes.csv", headers: me).text
            #expect(swipes.contains(",right,YUM,") && swipes.contains(SwipeExport.time(fixedTime)))
        }
    }

    @Test(
        "deck form: a taken address and a bad quota are refused next to their fields; the settings panel opens on its error"
    )
    func deckFormErrors() async throws {
        try await withApp { client, env in
            let (me, csrf, _) = try await Self.lunch(client, env, "jo", [])
            let again = try await client.postForm(
                "/owner/decks", Editor.form([("csrf", csrf)] + Editor.deckFields), headers: me)
            #expect(again.status == .conflict)
            #expect(
                again.text.contains(#"aria-invalid="true">"#)
                    && again.text.contains(
                        #"<p class="field-error" id="slug-error">A deck at /d/lunch exists already; pick another address.</p>"#
                    ))
            let badQuota = Editor.deckFields.map { $0.0 == "quota" ? ("quota", "lots") : $0 }
            let refused = try await client.postForm(
                "/owner/decks/lunch/settings", Editor.form([("csrf", csrf)] + badQuota), headers: me)
            #expect(refused.status == .badRequest)
            #expect(
                refused.text.contains(
                    #"<p class="field-error" id="quota-error">Write how many cards each person decides"#))
            #expect(refused.text.contains(#"aria-invalid="true" aria-describedby="quota-error""#))
            #expect(refused.text.contains(#"<details class="panel" id="settings" open>"#))
        }
    }

    @Test("a clean import preview is a success in green, not \"0 with errors\" in red")
    func cleanImportPreview() async throws {
        try await withApp { client, env in
            let (me, csrf, _) = try await Self.lunch(client, env, "kit", [])
            let ok = try await client.postForm(
                "/owner/decks/lunch/import", Editor.form([("csrf", csrf), ("text", "title\nPho\n")]), headers: me)
            #expect(ok.text.contains(#"<p class="notice ok" role="status">1 row, all ready to add."#))
            #expect(!ok.text.contains("with errors") && !ok.text.contains("form-error"))
            #expect(ok.text.contains(">Add 1 card</button>"))
            let bad = try await client.postForm(
                "/owner/decks/lunch/import", Editor.form([("csrf", csrf), ("text", "title\n\nPho\n,x\n")]), headers: me)
            #expect(bad.text.contains("1 with an error"))
        }
    }

    @Test("results tiles agree: counted plus not counted is every live swipe, left-out people's included")
    func tilesAgree() {
        var tally = ResultsTally()
        tally.add(card: 7, direction: "right", kind: .drag, count: 2, counted: CountedInput.defaultSet)
        tally.add(card: 7, direction: "left", kind: .suspectDrag, count: 1, counted: CountedInput.defaultSet)
        tally.add(card: 7, direction: "left", kind: .api, count: 1, counted: CountedInput.defaultSet)
        let card = Card(id: 7, NewCard(deckId: 1, position: 0, title: "Lake"))
        let deck = Deck(id: 1, NewDeck(slug: "d", title: "D", createdAt: 0))
        let report = ResultsReport(
            deck: deck, cards: [card], tally: tally, participants: 2, medianDecisionMs: nil, rejections: [:],
            excludedParticipants: 1, excludedSwipes: 3)
        let context = ResultsView.context(report, deck: deck)
        #expect(context["swipes"] as? Int == 2)
        // One automated-looking, one API swipe the deck does not count, three of the left-out person.
        #expect(context["notCounted"] as? Int == 5)
        #expect(context["suspect"] as? Int == 1)
    }
}
