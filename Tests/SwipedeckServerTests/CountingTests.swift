import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import SwipedeckServer

/// Counting by kind, the deck's counting setting, the human-pace rule for buttons, exclusions,
/// private results and participants stored before signing.
@Suite("Trust: kinds, pace, exclusions, privacy, legacy participants")
struct CountingTests {
    @Test("button bursts and buttons before the page could be read are suspect, kept and not counted")
    func pace() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, env in
            let ids = try await client.makeDeck("pace", titles: ["a", "b", "c", "d", "e"])
            // A participant minted now presses a button 0.1 s later: it could not have read the card.
            let minted = try #require(
                try await client.execute(uri: "/api/v1/decks/pace/participants", method: .post).json()["participant"]
                    .string)
            clock.advance(by: 0.1)
            #expect(
                try await client.swipe(
                    "pace", card: ids[0], direction: "right", input: "button", trace: nil, participant: minted
                ).status == .created)
            guard
                case .valid(let credential) = ParticipantSigner(secret: participantSecret).check(
                    minted, now: clock.read()),
                let mintedIdentity = ParticipantSigner(secret: participantSecret).identity(
                    of: credential,
                    deckId: try #require(
                        try await env.row("SELECT id FROM decks WHERE slug = 'pace'")?.value(at: 0) as Int64?))
            else {
                Issue.record("not a credential: \(minted)")
                return
            }
            #expect(
                try await env.row("SELECT suspectReason FROM swipes WHERE participantId = ?", [mintedIdentity.id])?[
                    "suspectReason"] as String? == "button_before_read")
            // Three decisions within 0.6 s: the third is a burst; a fourth 2 s later is human again.
            let fast = pid("fast")
            let fastIdentity = try await identity("fast", in: "pace", env)
            for (i, dt) in [0.0, 0.2, 0.2].enumerated() {
                clock.advance(by: dt)
                #expect(
                    try await client.swipe(
                        "pace", card: ids[i], direction: "right", input: "key", trace: nil, participant: fast
                    ).status == .created)
            }
            clock.advance(by: 2)
            #expect(
                try await client.swipe(
                    "pace", card: ids[3], direction: "left", input: "button", trace: nil, participant: fast
                ).status == .created)
            let reasons: [String?] = try await env.rows(
                "SELECT suspectReason FROM swipes WHERE participantId = ? ORDER BY createdAt", [fastIdentity]
            ).map { $0.value(at: 0) }
            #expect(reasons == [nil, nil, "button_burst", nil])
            // A drag at a human pace (its two decisions before lie 2 s back) is not suspect.
            #expect(
                try await client.swipe("pace", card: ids[4], direction: "right", participant: fast).status == .created)
            #expect(
                try await env.row(
                    "SELECT suspect FROM swipes WHERE participantId = ? AND cardId = ?", [fastIdentity, ids[4]])?[
                        "suspect"] as Bool? == false)

            let j = try await client.get("/api/v1/decks/pace/results", headers: admin).json()
            #expect(j["swipesByKind"]["suspectButton"].int == 2)
            #expect(j["swipesByKind"]["button"].int == 3)
            #expect(j["swipesByKind"]["drag"].int == 1)
            #expect(j["suspectExcluded"].int == 2)
            #expect(j["swipes"].int == 4)
            #expect(j["allSwipes"].int == 6)
            let report = try await client.get("/api/v1/decks/pace/participants/\(fastIdentity)", headers: admin).json()
            #expect(report["suspectReasons"]["button_burst"].int == 1)
        }
    }

    @Test("counts by kind add up to the totals, and the counting setting chooses what ranks")
    func kinds() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("k", titles: ["x", "y"])
            #expect(try await client.swipe("k", card: ids[0], direction: "right", participant: "d1").status == .created)
            var bot = rightDrag()
            bot.t = (0..<bot.t.count).map { Double($0) * 10 }
            bot.x = (0..<bot.x.count).map { Double($0) * 20 }
            bot.y = bot.x.map { _ in 0 }
            #expect(
                try await client.swipe("k", card: ids[0], direction: "right", trace: bot, participant: "d2").status
                    == .created)
            #expect(
                try await client.swipe(
                    "k", card: ids[0], direction: "left", input: "button", trace: nil, participant: "b1"
                ).status == .created)
            #expect(
                try await client.swipe(
                    "k", card: ids[1], direction: "right", input: "api", trace: nil, participant: "a1"
                ).status == .created)
            #expect(
                try await client.swipe(
                    "k", card: ids[1], direction: "right", input: "api", trace: rightDrag(), participant: "a2"
                ).status == .created)

            func results() async throws -> JSONValue {
                try await client.get("/api/v1/decks/k/results", headers: admin).json()
            }
            var j = try await results()
            #expect(j["countedInputs"].array.compactMap(\.string) == ["drag", "button"])
            #expect(j["swipesByKind"]["drag"].int == 2 && j["swipesByKind"]["suspectDrag"].int == 1)
            #expect(
                j["swipesByKind"]["button"].int == 1 && j["swipesByKind"]["api"].int == 1
                    && j["swipesByKind"]["suspectButton"].int == 0)
            #expect(j["allSwipes"].int == 5)
            for card in j["cards"].array {
                let sum = SwipeKind.allCases.compactMap { card["kinds"][$0.rawValue].int }.reduce(0, +)
                #expect(sum == card["all"].int)
            }
            #expect(j["cards"].array.compactMap { $0["all"].int }.reduce(0, +) == j["allSwipes"].int)
            #expect(j["swipes"].int == 3)  // d1's drag, b1's button, a2's traced API swipe

            #expect(try await client.patchDeck("k", #"{"countedInputs":["drag"]}"#).status == .ok)
            j = try await results()
            #expect(j["swipes"].int == 2)
            #expect(j["allSwipes"].int == 5)
            expectAPIError(
                try await client.patchDeck("k", #"{"countedInputs":["suspect"]}"#), .badRequest,
                "invalid_counted_inputs")
            expectAPIError(
                try await client.patchDeck("k", #"{"countedInputs":[]}"#), .badRequest, "invalid_counted_inputs")

            let csv = try await client.get("/api/v1/decks/k/results.csv", headers: admin).text
            #expect(csv.hasPrefix("rank,card_id,title,archived,"))
            let page = try await client.get("/d/k/results", headers: admin).text
            #expect(page.contains("Drags that looked automated"))
        }
    }

    @Test("an owner excludes a participant (an event, nothing deleted) and includes them again")
    func exclusion() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("ex", titles: ["x"])
            for p in ["u1", "u2", "u3"] {
                #expect(
                    try await client.swipe("ex", card: ids[0], direction: "right", participant: p).status == .created)
            }
            // Owners name a participant as results and exports do: by the identity, never the credential.
            let u3 = try await identity("u3", in: "ex", env)
            let excludeURI = "/api/v1/decks/ex/participants/\(u3)/exclude"
            let r = try await client.postJSON(excludeURI, #"{"reason":"one person, three phones"}"#, headers: admin)
            #expect(r.status == .ok)
            #expect(try r.json()["excluded"].bool == true)
            var j = try await client.get("/api/v1/decks/ex/results", headers: admin).json()
            #expect(j["swipes"].int == 2 && j["excludedParticipants"].int == 1 && j["excludedSwipes"].int == 1)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 3)
            expectAPIError(try await client.postJSON(excludeURI, "{}"), .unauthorized, "unauthorized")
            let include = try await client.execute(
                uri: "/api/v1/decks/ex/participants/\(u3)/include", method: .post, headers: admin)
            #expect(include.status == .ok)
            j = try await client.get("/api/v1/decks/ex/results", headers: admin).json()
            #expect(j["swipes"].int == 3 && j["excludedParticipants"].int == 0)
            #expect(try await env.count("SELECT COUNT(*) FROM exclusions WHERE liftedAt IS NOT NULL") == 1)
            #expect(try include.json()["history"].array.count == 1)
        }
    }

    @Test("private results refuse anonymous readers on the page, JSON and CSV; public ones do not")
    func privateResults() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("p", titles: ["x"])
            #expect(try await client.swipe("p", card: ids[0], direction: "right", participant: "s").status == .created)
            expectAPIError(try await client.get("/api/v1/decks/p/results"), .unauthorized, "unauthorized")
            expectAPIError(try await client.get("/api/v1/decks/p/results.csv"), .unauthorized, "unauthorized")
            let page = try await client.get("/d/p/results")
            #expect(page.status == .seeOther)
            #expect(page.headers[.location] == "/owner/sign-in?next=/d/p/results")
            #expect(!page.text.contains("x"))
            // The swiper's pages do not link to private results; the end of the deck offers their picks.
            let deck = try await client.get("/d/p", headers: cookie("s")).text
            #expect(!deck.contains("/d/p/results"))
            #expect(deck.contains("See your picks"))
            #expect(try await client.patchDeck("p", #"{"resultsPublic":true}"#).status == .ok)
            #expect(try await client.get("/api/v1/decks/p/results").status == .ok)
            #expect(try await client.get("/api/v1/decks/p/results.csv").status == .ok)
            #expect(try await client.get("/d/p/results").status == .ok)
            #expect(try await client.get("/d/p", headers: cookie("s")).text.contains("/d/p/results"))
        }
    }

    @Test(
        "participants stored before signing keep counting after the migration but act on nothing; nothing is erased",
        .sqliteOnly)
    func legacyParticipants() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        // A database as the previous release left it: migrated to v2, with an unsigned participant.
        let old = try DatabaseQueue(path: path)
        let upToV2 = AppDatabase.migrator
        try upToV2.migrate(old, upTo: "v2-results-indexes")
        try await old.write { db in
            try db.execute(
                sql: "INSERT INTO decks (slug, title, profile, createdAt) VALUES ('old', 'Old', 'standard', 1)")
            try db.execute(sql: "INSERT INTO cards (deckId, position, title) VALUES (1, 0, 'a'), (1, 1, 'b')")
            try db.execute(sql: "INSERT INTO participants (id, kind, createdAt) VALUES ('oldtimer', 'browser', 1)")
            try db.execute(
                sql: """
                    INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, requestHash, createdAt)
                    VALUES ('k1', 1, 1, 'oldtimer', 'right', 'button', 'h', 1)
                    """)
        }
        try old.close()
        try await withApp({
            $0.database = path
            $0.seedSampleDeck = false
        }) { client, env in
            #expect(
                try await env.count("SELECT COUNT(*) FROM participants WHERE id = 'oldtimer' AND legacy = TRUE") == 1)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes WHERE id = 'k1' AND cardRevision = 1") == 1)
            #expect(try await env.count("SELECT COUNT(*) FROM cardRevisions") == 2)
            // Its swipe still counts, but the old id acts on nothing any more (it was published in exports).
            #expect(try await client.get("/api/v1/decks/old/results", headers: admin).json()["allSwipes"].int == 1)
            let r = try await client.postJSON(
                "/api/v1/decks/old/swipes", #"{"card":2,"direction":"left","input":"button","participant":"oldtimer"}"#)
            expectAPIError(r, .forbidden, "unknown_participant")
            // As a cookie it is ignored: the read gets a fresh participant, who has no swipes.
            #expect(
                try await client.get("/api/v1/decks/old/history", headers: [.cookie: "sd_pid=oldtimer"]).json()[
                    "swipes"
                ].array.isEmpty)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 1)
            // A new unsigned id is refused too.
            let newcomer = try await client.postJSON(
                "/api/v1/decks/old/swipes", #"{"card":1,"direction":"left","input":"button","participant":"newcomer"}"#)
            expectAPIError(newcomer, .forbidden, "unknown_participant")
        }
    }
}
