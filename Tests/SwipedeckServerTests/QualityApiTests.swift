import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Issue 29, quality control for labelling decks: known-answer cards, feedback to the swiper,
/// each participant's accuracy and agreement, flags and automatic exclusion, the deck's κ and α,
/// and their exports. On both engines.
@Suite("Quality control: known answers, flags, agreement")
struct QualityApiTests {
    /// A labelling deck `slug`: cards "gold 1…n" with answer `right`, then "plain 1…m" without.
    static func labellingDeck(
        _ client: any TestClientProtocol, _ slug: String, gold: Int, plain: Int, quality: String
    ) async throws -> (gold: [Int64], plain: [Int64]) {
        let cards =
            (1...gold).map { ["title": "gold \($0)", "answer": "right"] } + (0..<plain).map { ["title": "plain \($0)"] }
        let body = try jsonString(["slug": slug, "title": "Labels", "cards": cards])
        let created = try await client.createDeck(body)
        #expect(created.status == .created, "\(created.text)")
        let r = try await client.patchJSON("/api/v1/decks/\(slug)", #"{"quality":\#(quality)}"#)
        #expect(r.status == .ok, "\(r.text)")
        let ids = try await Self.idsByTitle(client, slug)
        return ((1...gold).compactMap { ids["gold \($0)"] }, (0..<plain).compactMap { ids["plain \($0)"] })
    }

    /// The deck's card ids by title (dealt order is not the deck's order on a labelling deck).
    static func idsByTitle(_ client: any TestClientProtocol, _ slug: String) async throws -> [String: Int64] {
        let r = try await client.get("/api/v1/decks/\(slug)/cards?limit=100&participant=\(pid("nobody-yet"))")
        var ids: [String: Int64] = [:]
        for card in try r.json()["cards"].array {
            if let title = card["title"].string, let id = card["id"].int { ids[title] = Int64(id) }
        }
        return ids
    }

    @Test(
        "a card carries its answer for the owner only; the deck's quality settings are checked, stored and shown to the owner only"
    )
    func answersAndSettings() async throws {
        try await withApp { client, env in
            let (gold, plain) = try await Self.labellingDeck(
                client, "lab", gold: 1, plain: 1, quality: #"{"mode":"feedback","knownShare":0.2}"#)
            // A swiper's cards never show the answer (it would be copied).
            let dealt = try await client.get("/api/v1/decks/lab/cards?participant=\(pid("sam"))")
            #expect(dealt.status == .ok)
            #expect(!dealt.text.contains("answer"), "\(dealt.text)")
            #expect(try await env.row("SELECT answer FROM cards WHERE id = ?", [gold[0]])?.value(at: 0) == "right")
            // Setting an answer alone stores no new revision; the owner's answer names it.
            let edited = try await client.patchJSON("/api/v1/decks/lab/cards/\(plain[0])", #"{"answer":"left"}"#)
            #expect(edited.status == .ok, "\(edited.text)")
            #expect(try edited.json()["answer"].string == "left")
            #expect(try edited.json()["revision"].int == 1)
            let cleared = try await client.patchJSON("/api/v1/decks/lab/cards/\(plain[0])", #"{"answer":""}"#)
            #expect(try cleared.json()["answer"].isNull)
            expectAPIError(
                try await client.patchJSON("/api/v1/decks/lab/cards/\(plain[0])", #"{"answer":"none"}"#),
                .badRequest, "invalid_answer")
            expectAPIError(
                try await client.createDeck(#"{"slug":"bad","title":"B","cards":[{"title":"x","answer":"sideways"}]}"#),
                .badRequest, "invalid_answer")
            // Settings: partial patches keep the other fields; out-of-range values are refused.
            let open = try await client.get("/api/v1/decks/lab")
            #expect(!open.text.contains("quality"), "the settings are the owner's: \(open.text)")
            let listed = try await client.get("/api/v1/decks")
            #expect(!listed.text.contains("quality"), "\(listed.text)")
            let deck = try await client.get("/api/v1/decks/lab", headers: admin).json()
            #expect(deck["quality"]["mode"].string == "feedback")
            #expect(deck["quality"]["knownShare"].double == 0.2)
            #expect(deck["quality"]["minKnownSwipes"].int == 5)
            let more = try await client.patchJSON("/api/v1/decks/lab", #"{"quality":{"minKnownSwipes":3}}"#)
            #expect(try more.json()["quality"]["mode"].string == "feedback")
            #expect(try more.json()["quality"]["minKnownSwipes"].int == 3)
            for bad in [#"{"knownShare":1.5}"#, #"{"accuracyThreshold":-0.1}"#, #"{"minKnownSwipes":0}"#] {
                expectAPIError(
                    try await client.patchJSON("/api/v1/decks/lab", #"{"quality":\#(bad)}"#), .badRequest,
                    "invalid_quality")
            }
        }
    }

    @Test("accuracy is judged on the first decision: wrong, then flipped to the answer feedback told, counts as wrong")
    func firstDecisionCounts() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            let (gold, _) = try await Self.labellingDeck(
                client, "flip", gold: 2, plain: 1, quality: #"{"mode":"feedback","minKnownSwipes":2}"#)
            // One swipe without a trace (flipped in place), one with a trace (undone, a new row).
            for (card, trace) in [(gold[0], nil), (gold[1], leftDrag())] as [(Int64, Trace?)] {
                let wrong = try await client.swipe(
                    "flip", card: card, direction: "left", input: trace == nil ? "api" : "drag", trace: trace,
                    participant: "dan")
                #expect(try wrong.json()["feedback"]["correct"].bool == false, "\(wrong.text)")
                let id = try #require(try wrong.json()["swipe"]["id"].string, "\(wrong.text)")
                clock.advance(by: 1)
                let flipped = try await client.postJSON(
                    "/api/v1/swipes/\(id)/flip", #"{"direction":"right","participant":"\#(pid("dan"))"}"#)
                #expect(flipped.status == .ok, "\(flipped.text)")
                clock.advance(by: 1)
            }
            let q = try await client.get("/api/v1/decks/flip/quality", headers: admin)
            let dan = try #require(try q.json()["participants"].array.first, "\(q.text)")
            #expect(dan["knownAnswers"].int == 2, "\(q.text)")
            #expect(dan["correct"].int == 0 && dan["accuracy"].double == 0, "\(q.text)")
        }
    }

    @Test("feedback mode: the swipe's 201 says right or wrong on a known-answer card, and nothing on others")
    func feedback() async throws {
        try await withApp { client, _ in
            let (gold, plain) = try await Self.labellingDeck(
                client, "fb", gold: 2, plain: 1, quality: #"{"mode":"feedback"}"#)
            let right = try await client.swipe("fb", card: gold[0], direction: "right", participant: "ann")
            #expect(right.status == .created)
            #expect(try right.json()["feedback"]["correct"].bool == true)
            #expect(try right.json()["feedback"]["answer"].string == "right")
            let wrong = try await client.swipe(
                "fb", card: gold[1], direction: "left", trace: leftDrag(), participant: "ann")
            #expect(try wrong.json()["feedback"]["correct"].bool == false)
            let ordinary = try await client.swipe("fb", card: plain[0], direction: "right", participant: "ann")
            #expect(ordinary.status == .created)
            #expect(try ordinary.json()["feedback"].isNull, "\(ordinary.text)")
            // A batch item carries its own feedback.
            let items = try [gold[0], plain[0]].map { card in
                try swipeBody(card: card, direction: "left", trace: leftDrag(), participant: "bea")
            }
            let batch = try await client.postJSON(
                "/api/v1/decks/fb/swipes/batch", #"{"swipes":[\#(items.joined(separator: ","))]}"#)
            #expect(batch.status == .ok, "\(batch.text)")
            let results = try batch.json()["results"].array
            #expect(results.map { $0["status"].int } == [201, 201])
            #expect(
                results[0]["feedback"]["correct"].bool == false && results[0]["feedback"]["answer"].string == "right")
            #expect(results[1]["feedback"].isNull)
        }
    }

    @Test("silent mode tells nothing; training tells only during the first N decisions")
    func silentAndTraining() async throws {
        try await withApp { client, _ in
            let (gold, _) = try await Self.labellingDeck(
                client, "sil", gold: 1, plain: 0, quality: #"{"mode":"silent"}"#)
            let silent = try await client.swipe("sil", card: gold[0], direction: "right", participant: "ann")
            #expect(silent.status == .created)
            #expect(try silent.json()["feedback"].isNull)
            let (train, _) = try await Self.labellingDeck(
                client, "tr", gold: 2, plain: 0, quality: #"{"mode":"training","trainingCards":1}"#)
            let first = try await client.swipe("tr", card: train[0], direction: "right", participant: "ann")
            #expect(try first.json()["feedback"]["correct"].bool == true)
            let second = try await client.swipe("tr", card: train[1], direction: "right", participant: "ann")
            #expect(second.status == .created)
            #expect(try second.json()["feedback"].isNull, "training is over after 1 card")
        }
    }

    @Test("the quality report: accuracy with its interval, the flag, κ and α, per-card agreement, CSV exports")
    func report() async throws {
        // A person's swipes a second apart: none is a burst (suspect, not counted).
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            let (gold, plain) = try await Self.labellingDeck(
                client, "rep", gold: 2, plain: 2, quality: #"{"minKnownSwipes":2,"accuracyThreshold":0.9}"#)
            // ann and bob answer the known cards right, cat wrong; on the plain cards ann and bob
            // agree, cat does not.
            for (who, onGold, onPlain) in [
                ("ann", "right", "right"), ("bob", "right", "right"), ("cat", "left", "left"),
            ] {
                for card in gold + plain {
                    let direction = gold.contains(card) ? onGold : onPlain
                    let r = try await client.swipe(
                        "rep", card: card, direction: direction, trace: direction == "right" ? rightDrag() : leftDrag(),
                        participant: who)
                    #expect(r.status == .created, "\(r.text)")
                    clock.advance(by: 1)
                }
            }
            expectAPIError(try await client.get("/api/v1/decks/rep/quality"), .unauthorized, "unauthorized")
            let q = try await client.get("/api/v1/decks/rep/quality", headers: admin)
            #expect(q.status == .ok, "\(q.text)")
            let j = try q.json()
            #expect(j["knownAnswerCards"].int == 2)
            let people = j["participants"].array
            #expect(people.count == 3)
            let cat = people[0]
            #expect(cat["accuracy"].double == 0 && cat["knownAnswers"].int == 2 && cat["flagged"].bool == true)
            #expect(cat["majorityAgreement"].double == 0 && cat["majorityCompared"].int == 4)
            #expect(cat["reversalShare"].double == 0 && cat["drags"].int == 4)
            let ann = people[1]
            #expect(ann["accuracy"].double == 1 && ann["flagged"].bool == false)
            #expect(ann["accuracyInterval"]["upper"].double == 1)
            #expect(ann["majorityCompared"].int == 0, "ann's two others (bob, cat) disagree: no majority")
            // Each card: two rights and a left: κ = α computed by the pure functions on that table.
            let row = [1, 2, 0, 0, 0, 0, 0, 0]
            let table = Array(repeating: row, count: 4)
            #expect(j["fleissKappa"]["value"].double == Agreement.fleissKappa(table)?.value)
            #expect(j["krippendorffAlpha"].double == Agreement.krippendorffAlpha(table))
            #expect(j["cards"][0]["agreement"].double == 1.0 / 3.0)
            #expect(j["cards"][0]["answer"].string == "right")
            #expect(j["bootstrapResamples"].int == Agreement.bootstrapResamples)
            // The participant's own report carries their figures.
            let catReport = try await client.get(
                "/api/v1/decks/rep/participants/\(cat["participant"].string ?? "")", headers: admin
            ).json()
            #expect(catReport["quality"]["accuracy"].double == 0 && catReport["quality"]["flagged"].bool == true)
            let csv = try await client.get("/api/v1/decks/rep/quality/participants.csv", headers: admin)
            #expect(csv.status == .ok && csv.contentType.hasPrefix("text/csv"))
            let lines = csv.text.split(separator: "\r\n")
            #expect(lines.first.map(String.init) == QualityCSV.participantsHeader)
            #expect(lines.count == 4)
            #expect(lines[1].hasSuffix(",1,0"), "cat is flagged, not excluded: \(lines[1])")
            let cards = try await client.get("/api/v1/decks/rep/quality/cards.csv", headers: admin)
            #expect(cards.text.contains("gold 1,right,LIKE,3,"), "\(cards.text)")
        }
    }

    @Test("a flagged participant is excluded automatically when the deck says so, once")
    func autoExclusion() async throws {
        try await withApp { client, env in
            let (gold, plain) = try await Self.labellingDeck(
                client, "ex", gold: 3, plain: 1,
                quality: #"{"minKnownSwipes":2,"accuracyThreshold":0.9,"excludeFlagged":true}"#)
            let careless = try await identity("cal", in: "ex", env)
            for card in gold.prefix(2) {
                let r = try await client.swipe(
                    "ex", card: card, direction: "left", trace: leftDrag(), participant: "cal")
                #expect(r.status == .created)
            }
            let report = try await client.get("/api/v1/decks/ex/participants/\(careless)", headers: admin).json()
            #expect(report["excluded"].bool == true)
            #expect(report["exclusionReason"].string == KnownAnswers.exclusionReason)
            // The owner lifts it: a later wrong answer does not exclude again.
            let lifted = try await client.postJSON(
                "/api/v1/decks/ex/participants/\(careless)/include", "", headers: admin)
            #expect(lifted.status == .ok, "\(lifted.text)")
            _ = try await client.swipe("ex", card: gold[2], direction: "left", trace: leftDrag(), participant: "cal")
            let after = try await client.get("/api/v1/decks/ex/participants/\(careless)", headers: admin).json()
            #expect(after["excluded"].bool == false)
            #expect(after["history"].array.count == 1)
            // Somebody careful is never excluded.
            for card in gold + plain {
                _ = try await client.swipe("ex", card: card, direction: "right", participant: "kim")
            }
            let kim = try await identity("kim", in: "ex", env)
            #expect(
                try await client.get("/api/v1/decks/ex/participants/\(kim)", headers: admin).json()["excluded"].bool
                    == false)
        }
    }

    @Test("participant.flagged is posted once, on the swipe that makes the rule hold")
    func flagNotice() async throws {
        try await withApp { client, env in
            let (gold, _) = try await Self.labellingDeck(
                client, "nt", gold: 4, plain: 0, quality: #"{"minKnownSwipes":2,"accuracyThreshold":0.9}"#)
            let store = try await env.openStore()
            let recorded = RecordedNotices()
            let names = ParticipantNames(signer: ParticipantSigner(secret: participantSecret), store: store)
            let known = KnownAnswers(store: store, notices: recorded, names: names)
            let deck = try #require(try await store.deck(slug: "nt"))
            var flaggedBy: [Int] = []
            for (i, card) in gold.enumerated() {
                let r = try await client.swipe(
                    "nt", card: card, direction: "left", trace: leftDrag(), participant: "cal", key: "nt-\(i)")
                #expect(r.status == .created)
                let swipe = try #require(try await store.swipe(id: "nt-\(i)"))
                let before = recorded.of(.participantFlagged).count
                _ = try await known.afterSwipe(swipe, deck: deck, now: fixedTime)
                if recorded.of(.participantFlagged).count > before { flaggedBy.append(i) }
            }
            #expect(flaggedBy == [1], "the second wrong answer flags; the later ones do not post again")
            let notice = try #require(recorded.of(.participantFlagged).first)
            #expect(notice.deckId == deck.id)
            let data = try JSONDecoder().decode(JSONValue.self, from: notice.data)
            #expect(data["participant"].string == identity("cal", deckId: deck.id))
            #expect(data["knownAnswers"].int == 2 && data["correct"].int == 0 && data["excluded"].bool == false)
        }
    }

    @Test("the cards dealt bring known-answer cards in at the deck's share, training ones first")
    func dealing() async throws {
        try await withApp { client, _ in
            // 6 ordinary cards, then 2 known-answer ones listed last.
            let cards =
                (1...6).map { ["title": "plain \($0)"] } + (1...2).map { ["title": "gold \($0)", "answer": "left"] }
            #expect(
                try await client.createDeck(try jsonString(["slug": "deal", "title": "D", "cards": cards])).status
                    == .created)
            _ = try await client.patchJSON("/api/v1/decks/deal", #"{"quality":{"knownShare":0.25}}"#)
            func titles(_ who: String, limit: Int) async throws -> [String] {
                let r = try await client.get("/api/v1/decks/deal/cards?limit=\(limit)&participant=\(pid(who))")
                return try r.json()["cards"].array.compactMap { $0["title"].string }
            }
            // One known-answer card in each stretch of 4, at ann's own place in it; the rest in order.
            let ann = try await titles("ann", limit: 8)
            #expect(ann.filter { $0.hasPrefix("plain") } == (1...6).map { "plain \($0)" })
            #expect(ann.filter { $0.hasPrefix("gold") } == ["gold 1", "gold 2"])
            let places = ann.indices.filter { ann[$0].hasPrefix("gold") }
            #expect(places.count == 2 && places[0] < 4 && places[1] >= 4, "\(ann)")
            #expect(try await titles("ann", limit: 8) == ann, "the same deal every time")
            _ = try await client.patchJSON(
                "/api/v1/decks/deal", #"{"quality":{"mode":"training","trainingCards":1,"knownShare":0}}"#)
            #expect(try await titles("bob", limit: 2) == ["gold 1", "plain 1", "plain 2"])
            // Once bob decided the training card, his next cards are in the deck's order.
            let ids = try await Self.idsByTitle(client, "deal")
            #expect(
                try await client.swipe(
                    "deal", card: try #require(ids["gold 1"]), direction: "left", trace: leftDrag(), participant: "bob"
                ).status == .created)
            #expect(try await titles("bob", limit: 2) == ["plain 1", "plain 2"])
        }
    }

    @Test(
        "a fresh participant's full deal holds one known-answer card per stretch of ten, at places nobody can foretell")
    func knownPlacesUnforeseeable() async throws {
        try await withApp { client, _ in
            // 36 ordinary cards and 4 known-answer ones, at the default share of 10 %.
            let cards =
                (1...36).map { ["title": "plain \($0)"] }
                + (1...4).map { ["title": "gold \($0)", "answer": $0 % 2 == 0 ? "left" : "right"] }
            #expect(
                try await client.createDeck(try jsonString(["slug": "spot", "title": "S", "cards": cards])).status
                    == .created)
            var deals = Set<[Int]>()
            var firstPlaces = Set<Int>()
            for who in (1...24).map({ "fresh-\($0)" }) {
                let r = try await client.get("/api/v1/decks/spot/cards?limit=100&participant=\(pid(who))")
                let titles = try r.json()["cards"].array.compactMap { $0["title"].string }
                #expect(titles.count == 40)
                // 1-based places of the known-answer cards: before, always 10, 20, 30 and 40.
                let places = titles.indices.filter { titles[$0].hasPrefix("gold") }.map { $0 + 1 }
                #expect(places.count == 4)
                for (k, place) in places.enumerated() {
                    #expect((k * 10 + 1...k * 10 + 10).contains(place), "\(who): \(places)")
                }
                deals.insert(places)
                firstPlaces.insert(places[0])
            }
            #expect(deals.count >= 20, "24 participants, \(deals.count) different placements")
            #expect(firstPlaces.count >= 6, "first places drawn: \(firstPlaces.sorted())")
        }
    }

    @Test("a participant who swipes one way on every card is flagged on the known answers of the other way")
    func oneDirectionFlaggedByTheReport() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            // 3 known answers "right", 3 "left", 2 ordinary cards; the default settings (0.7, at least 5).
            let cards =
                (1...6).map { ["title": "gold \($0)", "answer": $0 <= 3 ? "right" : "left"] }
                + (1...2).map { ["title": "plain \($0)"] }
            #expect(
                try await client.createDeck(try jsonString(["slug": "dir", "title": "D", "cards": cards])).status
                    == .created)
            let ids = try await Self.idsByTitle(client, "dir")
            for (who, slip) in [("always-right", false), ("careful", true)] {
                for i in 1...6 {
                    let answer = i <= 3 ? "right" : "left"
                    // The careful one slips once; the other says "right" to everything.
                    let direction = who == "always-right" ? "right" : (slip && i == 4 ? "right" : answer)
                    let r = try await client.swipe(
                        "dir", card: try #require(ids["gold \(i)"]), direction: direction,
                        trace: direction == "right" ? rightDrag() : leftDrag(), participant: who)
                    #expect(r.status == .created, "\(r.text)")
                    clock.advance(by: 2)
                }
            }
            let people = try await client.get("/api/v1/decks/dir/quality", headers: admin).json()["participants"].array
            let byAccuracy = Dictionary(uniqueKeysWithValues: people.map { ($0["accuracy"].double ?? -1, $0) })
            let always = try #require(byAccuracy[0.5])
            #expect(always["knownAnswers"].int == 6 && always["flagged"].bool == true, "\(always)")
            let careful = try #require(byAccuracy[5.0 / 6.0])
            #expect(careful["flagged"].bool == false)
        }
    }

    @Test(
        "owner console: quality settings in the deck form, refusals next to their field; the known answer in the card editor; κ, α and accuracy on the results page"
    )
    func console() async throws {
        try await withApp { client, env in
            let (me, csrf, ids) = try await OwnerConsoleTests.lunch(client, env, "qa", ["Ramen", "Tacos"])
            let editor = try await client.get("/owner/decks/lunch", headers: me).text
            #expect(editor.contains(#"<input type="hidden" name="quality" value="1">"#))
            #expect(
                editor.contains(#"id="knownShare" name="knownShare" inputmode="numeric" pattern="[0-9]*" value="10""#))
            let fields = OwnerEditorTests.deckFields.filter { $0.0 != "slug" }
            let quality = [
                ("quality", "1"), ("knownShare", "20"), ("qualityMode", "feedback"), ("trainingCards", "5"),
                ("accuracyThreshold", "80"), ("minKnownSwipes", "3"), ("excludeFlagged", "1"),
            ]
            let saved = try await client.postForm(
                "/owner/decks/lunch/settings", OwnerEditorTests.form([("csrf", csrf)] + fields + quality), headers: me)
            #expect(saved.status == .seeOther, "\(saved.text.prefix(400))")
            let deck = try await client.get("/api/v1/decks/lunch", headers: me).json()
            #expect(deck["quality"]["knownShare"].double == 0.2 && deck["quality"]["mode"].string == "feedback")
            #expect(
                deck["quality"]["accuracyThreshold"].double == 0.8 && deck["quality"]["excludeFlagged"].bool == true)
            for (value, sentence) in [
                ("150", "The share of known-answer cards must be between 0 and 100 %."),
                ("lots", "Write the share of known-answer cards as a whole percentage, 0 to 100."),
            ] {
                let bad = quality.map { $0.0 == "knownShare" ? ("knownShare", value) : $0 }
                let refused = try await client.postForm(
                    "/owner/decks/lunch/settings", OwnerEditorTests.form([("csrf", csrf)] + fields + bad), headers: me)
                #expect(refused.status == .badRequest)
                #expect(
                    refused.text.contains(#"<p class="field-error" id="known-share-error">\#(sentence)</p>"#),
                    "\(value)")
                #expect(
                    refused.text.contains(
                        #"value="\#(value)" aria-invalid="true" aria-describedby="known-share-error""#))
            }
            // A form without the fieldset (another client) leaves the settings as they are.
            _ = try await client.postForm(
                "/owner/decks/lunch/settings", OwnerEditorTests.form([("csrf", csrf)] + fields), headers: me)
            #expect(
                try await client.get("/api/v1/decks/lunch", headers: me).json()["quality"]["excludeFlagged"].bool
                    == true)
            // The card editor offers the deck's directions by label and stores the choice.
            let cardPage = try await client.get("/owner/decks/lunch/cards/\(ids[0])", headers: me).text
            #expect(cardPage.contains(#"<option value="" selected>No known answer</option>"#))
            #expect(cardPage.contains(#"<option value="right">YUM (right)</option>"#))
            let set = try await client.postForm(
                "/owner/decks/lunch/cards/\(ids[0])", OwnerEditorTests.form([("csrf", csrf), ("answer", "right")]),
                headers: me)
            #expect(set.status == .seeOther, "\(set.text.prefix(300))")
            #expect(try await env.row("SELECT answer FROM cards WHERE id = ?", [ids[0]])?.value(at: 0) == "right")
            let again = try await client.get("/owner/decks/lunch/cards/\(ids[0])", headers: me).text
            #expect(again.contains(#"<option value="right" selected>YUM (right)</option>"#))
            // Results: the quality section with κ, α and each participant's accuracy.
            for who in ["ann", "bob"] {
                _ = try await client.swipe("lunch", card: ids[0], direction: "right", participant: who)
                _ = try await client.swipe(
                    "lunch", card: ids[1], direction: "left", trace: leftDrag(), participant: who)
            }
            let results = try await client.get("/d/lunch/results", headers: me).text
            #expect(results.contains("<h2>Agreement and known answers</h2>"))
            #expect(
                results.contains(#"Krippendorff's α: <b data-stat="alpha">1.00"#), "two raters agreeing on both cards")
            #expect(results.contains(#"<td data-label="accuracy">100 % of 1 ("#))
            // Spans live.js redraws from the quality JSON (issue 39).
            #expect(
                results.contains(
                    #"<span data-stat="knownAnswerCards">1 known-answer card</span>; <span data-stat="flaggedPeople">0 people</span> flagged"#
                ))
        }
    }
}
