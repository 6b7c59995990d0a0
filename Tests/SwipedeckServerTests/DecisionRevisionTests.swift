import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import SwipedeckServer

/// Decisions that stay true: when votes, undos, exclusions or inclusions change a card's verdict
/// after it was recorded, a new revision is recorded and told (`card.decided` with `revision` and
/// `previous`, or `card.undecided`), so the recorded decision never disagrees with the results.
@Suite("Decision revisions")
struct DecisionRevisionTests {
    @Test("the ledger folds records into each card's last revision; keys of revision 1 are the keys decks had")
    func ledger() {
        let ledger = DecisionLedger([
            .init(key: "card:7", kind: .cardDecided, detail: #"{"state":"yes","likes":8,"votes":8}"#),
            .init(key: "card:7#3", kind: .cardDecided, detail: #"{"state":"no","likes":1,"votes":9,"revision":3}"#),
            .init(key: "card:7#2", kind: .cardUndecided, detail: #"{"state":"deciding","likes":4,"votes":4}"#),
            .init(key: "card:9", kind: .cardDecided, detail: "not json"),
            .init(key: "deck", kind: .deckDecided, detail: #"{"decidedCards":2}"#),
            .init(key: "room:1", kind: .cardDecided, detail: "{}"),
        ])
        #expect(ledger.cards[7] == .init(revision: 3, state: .no, likes: 1, votes: 9))
        #expect(ledger.cards[9]?.revision == 1 && ledger.cards[9]?.state == .settled)
        #expect(ledger.deck == .init(revision: 1, decided: true, decidedCards: 2))
        #expect(ledger.revision(card: 7, now: .no) == nil)
        #expect(ledger.revision(card: 7, now: .yes) == 4)
        #expect(ledger.revision(card: 7, now: .deciding) == 4)
        #expect(ledger.revision(card: 8, now: .deciding) == nil)
        #expect(ledger.revision(card: 8, now: .yes) == 1)
        #expect(ledger.deckRevision(decided: true) == nil && ledger.deckRevision(decided: false) == 2)
        #expect(
            DecisionLedger.cardKey(7, revision: 1) == "card:7" && DecisionLedger.cardKey(7, revision: 4) == "card:7#4")
        #expect(DecisionLedger.deckKey(revision: 1) == "deck" && DecisionLedger.deckKey(revision: 2) == "deck#2")
    }

    /// The deck's decision records: (key, kind, detail JSON), oldest first.
    static func records(_ env: TestEnv, _ slug: String) async throws -> [Record] {
        try await env.rows(
            """
            SELECT onceKey, kind, detail FROM deckEvents WHERE onceKey IS NOT NULL
            AND deckId = (SELECT id FROM decks WHERE slug = ?) ORDER BY id
            """, [slug]
        ).map { r in
            Record(
                key: r["onceKey"] ?? "", kind: r["kind"] ?? "",
                detail: try JSONDecoder().decode(JSONValue.self, from: Data((r["detail"] ?? "null").utf8)))
        }
    }

    struct Record {
        var key: String
        var kind: String
        var detail: JSONValue
    }

    /// Waits until the deck has `n` decision records (checks after exclusions run after the answer).
    static func waitFor(
        _ n: Int, _ env: TestEnv, _ slug: String, cardsOnly: Bool = false, seconds: Double = 10
    ) async throws -> [Record] {
        func read() async throws -> [Record] {
            let all = try await records(env, slug)
            return cardsOnly ? all.filter { $0.key.hasPrefix("card:") } : all
        }
        var got = try await read()
        let deadline = Date().addingTimeInterval(seconds)
        while got.count < n && Date() < deadline {
            try await Task.sleep(for: .milliseconds(20))
            got = try await read()
        }
        return got
    }

    @Test(
        "excluding the voters who decided a card records card_undecided (revision 2); including them decides it again (revision 3); both are told to hooks"
    )
    func exclusionsRevise() async throws {
        try await withApp({ $0.webhookAllowPrivate = true }) { client, env in
            let ids = try await client.makeDeck("rev", titles: ["a", "b"])
            let hook = try await client.postJSON(
                "/api/v1/decks/rev/webhooks",
                #"{"url":"http://127.0.0.1:9/in","events":["card.decided","card.undecided"]}"#, headers: admin)
            #expect(hook.status == .created, "\(hook.text)")
            #expect(try await client.patchDeck("rev", #"{"stopRule":{"kind":"threshold"}}"#).status == .ok)
            // Eight likes decide a card yes at the defaults (50 %, 5 %).
            for i in 0..<8 { try await DecideApiTests.like(client, "rev", ids[0], by: "fake\(i)") }
            var got = try await Self.waitFor(1, env, "rev")
            #expect(got.map(\.key) == ["card:\(ids[0])"])
            #expect(got.first?.detail["state"].string == "yes" && got.first?.detail["revision"].int == 1)
            #expect(got.first?.detail["previous"] == .null)

            // The owner leaves four of them out: the card is deciding again, and says so.
            for i in 0..<4 {
                let who = try await identity("fake\(i)", in: "rev", env)
                let r = try await client.postJSON(
                    "/api/v1/decks/rev/participants/\(who)/exclude", #"{"reason":"fake"}"#, headers: admin)
                #expect(r.status == .ok, "\(r.text)")
            }
            got = try await Self.waitFor(2, env, "rev")
            #expect(got.map(\.key) == ["card:\(ids[0])", "card:\(ids[0])#2"])
            #expect(got.last?.kind == "card_undecided")
            #expect(got.last?.detail["state"].string == "deciding" && got.last?.detail["revision"].int == 2)
            #expect(got.last?.detail["previous"]["state"].string == "yes")
            #expect(got.last?.detail["previous"]["likes"].int == 8)
            let results = try await client.get("/api/v1/decks/rev/results", headers: admin).json()
            #expect(results["cards"].array.first { $0["cardId"].int == Int(ids[0]) }?["state"].string == "deciding")

            // Taken back: decided again, revision 3, the previous state "deciding".
            for i in 0..<4 {
                let who = try await identity("fake\(i)", in: "rev", env)
                #expect(
                    try await client.postJSON("/api/v1/decks/rev/participants/\(who)/include", "", headers: admin)
                        .status == .ok)
            }
            got = try await Self.waitFor(3, env, "rev")
            #expect(got.map(\.key).last == "card:\(ids[0])#3")
            #expect(got.last?.kind == "card_decided" && got.last?.detail["state"].string == "yes")
            #expect(got.last?.detail["previous"]["state"].string == "deciding")

            // Every revision reached the hook (one clock here: in the order of their revisions).
            var events: [(revision: Int, event: String)] = []
            for _ in 0..<100 {
                events = try await env.rows("SELECT event, data FROM webhookDeliveries").map { r in
                    let data = try JSONDecoder().decode(JSONValue.self, from: Data((r["data"] ?? "null").utf8))
                    return (data["revision"].int ?? 0, r["event"] ?? "")
                }
                if events.count >= 3 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(
                events.sorted { $0.revision < $1.revision }.map { "\($0.revision) \($0.event)" }
                    == ["1 card.decided", "2 card.undecided", "3 card.decided"])
        }
    }

    @Test(
        "a card recorded no that more votes turn yes is told each step: no, deciding, then yes with its previous state")
    func votesRevise() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("turn", titles: ["a"])
            #expect(try await client.patchDeck("turn", #"{"stopRule":{"kind":"threshold"}}"#).status == .ok)
            for i in 0..<8 { try await DecideApiTests.pass(client, "turn", ids[0], by: "n\(i)") }
            // A check follows every vote and may end after its answer: each step is awaited before
            // the votes that would carry the card past it.
            _ = try await Self.waitFor(1, env, "turn", cardsOnly: true)
            var likes = 0
            while likes < 30 {
                try await DecideApiTests.like(client, "turn", ids[0], by: "y\(likes)")
                likes += 1
                if try await Self.waitFor(2, env, "turn", cardsOnly: true, seconds: 0.5).count >= 2 { break }
            }
            while likes < 30 {
                try await DecideApiTests.like(client, "turn", ids[0], by: "y\(likes)")
                likes += 1
            }
            // Three revisions of the card and three of the deck.
            let got = try await Self.waitFor(6, env, "turn")
            let cards = got.filter { $0.key.hasPrefix("card:") }
            #expect(cards.map { $0.detail["state"].string ?? "" } == ["no", "deciding", "yes"])
            #expect(cards.map { $0.detail["revision"].int ?? 0 } == [1, 2, 3])
            #expect(cards.last?.detail["previous"]["state"].string == "deciding")
            let results = try await client.get("/api/v1/decks/turn/results", headers: admin).json()
            #expect(results["cards"].array.first?["state"].string == "yes")
            // The deck followed its card: decided, undecided, decided again.
            #expect(
                got.filter { !$0.key.hasPrefix("card:") }.map(\.kind) == [
                    "deck_decided", "deck_undecided", "deck_decided",
                ])
        }
    }
}
