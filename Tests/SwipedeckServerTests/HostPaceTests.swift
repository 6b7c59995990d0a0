import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import SwipedeckServer

/// Host-paced decks (`Pacing`): the presenter shows one card at a time and only that card takes
/// decisions, on every phone, until the presenter moves on or its timer ends.
@Suite("Host-paced: the presenter's card alone takes decisions")
struct HostPaceTests {
    /// A press of the presenter's controls with extra form fields.
    static func press(
        _ client: any TestClientProtocol, _ session: HTTPFields, _ fields: String, slug: String = "getaways"
    ) async throws -> TestResponse {
        let page = try await client.get("/d/\(slug)/present", headers: session)
        let csrf = OwnerAuthTests.csrf(page.text)
        return try await client.postForm("/d/\(slug)/present", "csrf=\(csrf)&\(fields)", headers: session)
    }

    static func state(_ client: any TestClientProtocol, _ session: HTTPFields) async throws -> TestResponse {
        try await client.get("/d/getaways/present/state", headers: session)
    }

    /// The cards the API deals `who` now.
    static func dealt(_ client: any TestClientProtocol, _ who: String) async throws -> [Int64] {
        let page = try await client.get("/api/v1/decks/getaways/cards?limit=100&participant=\(pid(who))")
        return try page.json()["cards"].array.compactMap { $0["id"].int.map(Int64.init) }
    }

    @Test("the rule: any card self-paced; host-paced only the presenter's, until its timer ends; Next walks the list")
    func rule() {
        #expect(Pacing.off.takes(card: 7, at: 0))
        let started = Pacing(hosted: true)
        #expect(!started.takes(card: 7, at: 0), "before the first card, none")
        let first = started.next(in: [7, 8], now: 100)
        #expect(first == Pacing(hosted: true, cardId: 7, step: 1))
        #expect(first.takes(card: 7, at: 1e9) && !first.takes(card: 8, at: 100), "no timer: until Next")
        var timed = started
        timed.cardSeconds = 20
        let second = timed.next(in: [7, 8], now: 100).next(in: [7, 8], now: 110)
        #expect(second.cardId == 8 && second.step == 2 && second.closesAt == 130)
        #expect(second.takes(card: 8, at: 129.9) && !second.takes(card: 8, at: 130) && !second.takes(card: 7, at: 111))
        let end = second.next(in: [7, 8], now: 140)
        #expect(end.cardId == nil && end.step == 3 && end.closesAt == nil && !end.takes(card: 8, at: 140))
        #expect(end.next(in: [7, 8], now: 150).step == 3, "past the end stays there")

        let presentation = Presentation(
            deckId: 1, joinCode: "ABCDEF", revealed: false, pacing: second, createdAt: 0, updatedAt: 0)
        let stage = DeckStage.of(open: true, presentation: presentation, steps: 2, now: 112.5)
        #expect(
            stage
                == DeckStage(
                    open: true, revealed: false, revealIn: nil, paced: true, card: 8, cardOpen: true, step: 2, steps: 2,
                    cardClosesIn: 18))
        let over = DeckStage.of(open: true, presentation: presentation, steps: 2, now: 131)
        #expect(!over.cardOpen && over.cardClosesIn == nil && over.card == 8)
        #expect(over.differs(from: stage, elapsed: 18.5), "the card's time ran out")
        #expect(
            !DeckStage.of(open: true, presentation: presentation, steps: 2, now: 120).differs(from: stage, elapsed: 7.5)
        )
        var moved = presentation
        moved.pacing = end
        #expect(DeckStage.of(open: true, presentation: moved, steps: 2, now: 141).differs(from: stage, elapsed: 28.5))
        // The big screen's columns for a deck's cards (present-view.js presentDensity).
        #expect(
            [1, 4, 5, 10, 11, 40].map { PresentView.density(cards: $0) } == [
                "one", "one", "two", "two", "three", "three",
            ])
        // The words the phones and the presenter read.
        #expect(DeckStage.of(open: true, presentation: nil, now: 0).waitingWords == "")
        var waiting = presentation
        waiting.pacing = started
        #expect(DeckStage.of(open: true, presentation: waiting, steps: 2, now: 0).waitingWords.contains("starts soon"))
        #expect(over.waitingWords.contains("Time is up"))
        #expect(stage.presenterWords(cardTitle: "Lisbon") == "Card 2 of 2: Lisbon")
        #expect(over.presenterWords(cardTitle: "Lisbon") == "Card 2 of 2: Lisbon · time is up")
        #expect(DeckStage.of(open: true, presentation: moved, steps: 2, now: 141).waitingWords.contains("last card"))
    }

    @Test("a host-paced page's stack: the presenter's card, else waiting (or at the limit), never finished")
    func stackState() {
        let deck = Deck(id: 1, NewDeck(slug: "s", title: "S", createdAt: 0))
        #expect(StackState.of(deck, activeCards: 3, remaining: 1, paced: true, retired: 1) == .open)
        #expect(StackState.of(deck, activeCards: 3, remaining: 0, paced: true, retired: 3) == .waiting)
        #expect(StackState.of(deck, activeCards: 3, remaining: 0, paced: true, retired: 0) == .waiting)
        var limited = deck
        limited.quota = 2
        #expect(StackState.of(limited, activeCards: 3, remaining: 0, paced: true, retired: 1) == .limitReached)
        #expect(StackState.of(limited, activeCards: 3, remaining: 1, paced: true, retired: 1) == .open)
    }

    @Test("swipes, undos and deals follow the presenter: Next, a card timer, the end, self-paced again")
    func pacedSwipes() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let cards = try await client.cardIds("getaways")
            #expect(cards.count >= 3)
            let next = try await Self.press(client, dee, "action=next")
            #expect(next.status == .badRequest && next.text.contains("The deck is self-paced"), "\(next.status)")
            #expect(try await Self.press(client, dee, "action=hostPaced").status == .seeOther)
            let waiting = try await Self.state(client, dee).json()
            #expect(waiting["paced"].bool == true && waiting["step"].int == 0 && waiting["card"].isNull)
            #expect(waiting["steps"].int == cards.count)
            expectAPIError(
                try await client.swipe("getaways", card: cards[0], direction: "right", participant: "ann"), .conflict,
                "card_not_current")
            #expect(try await Self.dealt(client, "ann") == [])
            let page = try await client.get("/d/getaways", headers: cookie("ann"))
            #expect(page.text.contains(#"data-paced="true""#) && page.text.contains(#"data-state="waiting""#))
            #expect(page.text.contains(#"<div class="stack-state state-waiting" role="status">"#))
            #expect(page.text.contains("The presenter starts soon."))
            #expect(!page.text.contains(#"data-card="\#(cards[0])""#), "no card on the stack")
            let screen = try await client.get("/d/getaways/present", headers: dee)
            #expect(screen.text.contains("Show the first card") && screen.text.contains("press Show the first card"))

            // The first card: it alone takes decisions, for everyone.
            #expect(try await Self.press(client, dee, "action=next").status == .seeOther)
            let first = try await Self.state(client, dee).json()
            #expect(
                first["card"].int.map(Int64.init) == cards[0] && first["step"].int == 1
                    && first["cardOpen"].bool == true)
            #expect(try await Self.dealt(client, "ann") == [cards[0]])
            expectAPIError(
                try await client.swipe("getaways", card: cards[1], direction: "right", participant: "ann"), .conflict,
                "card_not_current")
            let liked = try await client.swipe("getaways", card: cards[0], direction: "right", participant: "ann")
            #expect(liked.status == .created)
            #expect(try await Self.dealt(client, "ann") == [], "decided: nothing to deal until Next")
            #expect(
                try await client.get("/d/getaways", headers: cookie("ann")).text.contains("Thank you! The next card"))
            let onScreen = try await client.get("/d/getaways/present", headers: dee)
            #expect(onScreen.text.contains("Next card") && onScreen.text.contains("Card 1 of \(cards.count)"))
            #expect(onScreen.text.contains(#"<li class="present-card present-current" data-card="\#(cards[0])""#))

            // A card timer: the card takes decisions until it runs out.
            let odd = try await Self.press(client, dee, "action=cardTimer&cardSeconds=7")
            #expect(
                odd.status == .badRequest && odd.text.contains("cardSeconds must be 0 or one of 10, 20, 30, 60, 120."))
            #expect(try await Self.press(client, dee, "action=cardTimer&cardSeconds=10").status == .seeOther)
            #expect(try await Self.state(client, dee).json()["cardClosesIn"].int == 10)
            clock.advance(by: 11)
            let over = try await Self.state(client, dee).json()
            #expect(over["cardOpen"].bool == false && over["card"].int.map(Int64.init) == cards[0])
            expectAPIError(
                try await client.swipe("getaways", card: cards[0], direction: "right", participant: "bo"), .conflict,
                "card_not_current")
            #expect(try await Self.dealt(client, "bo") == [])

            // Next: the second card, with the timer; the first one's decision can no longer be undone.
            #expect(try await Self.press(client, dee, "action=next").status == .seeOther)
            #expect(try await Self.state(client, dee).json()["cardClosesIn"].int == 10)
            #expect(try await Self.dealt(client, "bo") == [cards[1]])
            let id = try liked.json()["swipe"]["id"].string ?? ""
            let undo = try await client.execute(
                uri: "/api/v1/swipes/\(id)?participant=\(pid("ann"))", method: .delete, headers: [:], body: nil)
            expectAPIError(undo, .conflict, "card_not_current")
            // The deck page's Undo (the latest swipe) is refused alike.
            let undoLatest = try await client.postForm(
                "/d/getaways/undo", "", headers: merged(cookie("ann"), [.accept: "application/json"]))
            expectAPIError(undoLatest, .conflict, "card_not_current")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes WHERE undoneAt IS NOT NULL") == 0)

            // Past the last card: nothing takes decisions; the phones say so.
            for _ in 1..<cards.count { #expect(try await Self.press(client, dee, "action=next").status == .seeOther) }
            let end = try await Self.state(client, dee).json()
            #expect(end["card"].isNull && end["step"].int == cards.count + 1, "\(end)")
            #expect(try await client.get("/d/getaways", headers: cookie("cy")).text.contains("That was the last card."))

            // Self-paced again: every card, at each person's pace.
            #expect(try await Self.press(client, dee, "action=selfPaced").status == .seeOther)
            #expect(try await Self.state(client, dee).json()["paced"].bool == false)
            #expect(
                try await client.swipe("getaways", card: cards[1], direction: "right", participant: "ann").status
                    == .created)
            #expect(try await Self.dealt(client, "cy").count == cards.count)
        }
    }

    @Test(
        "every phone hears Next at once with the card itself (the edit wakes the stage, not the tick)",
        .timeLimit(.minutes(3)))
    func phonesGetTheCard() async throws {
        // A reading every 20 s: what the phone hears within the test comes from the edits themselves.
        try await withApp({ $0.liveInterval = .seconds(20) }, testing: .live) { client, env in
            let dee = try await OwnerAuthTests.signIn(client, "dee", adding: env)
            let port = try #require(client.port)
            let cards = try await client.cardIds("getaways")
            #expect(try await Self.press(client, dee, "action=hostPaced").status == .seeOther)
            let firstSeen = Mutex(false)
            async let streamed = PresentTests.followStage(port: port, as: "ann", events: 2) {
                firstSeen.withLock { $0 = true }
            }
            for _ in 0..<150 where !firstSeen.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(100)) }
            #expect(try await Self.press(client, dee, "action=next").status == .seeOther)
            let text = try await streamed
            let events = PresentTests.stageEvents(text)
            #expect(events.count == 2, "\(events)\n\(env.diagnosis())")
            #expect(events.first?.contains(#""paced":true"#) == true && events.first?.contains(#""step":0"#) == true)
            #expect(events.first?.contains(#""dealt""#) == false)
            let card = try #require(events.last)
            #expect(card.contains(#""card":\#(cards[0])"#) && card.contains(#""dealt":{"#), "\(card)")
            #expect(card.contains(#""id":\#(cards[0])"#) && card.contains(#""title":"#), "\(card)")
        }
    }
}
