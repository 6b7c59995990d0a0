import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Votes nobody else can rewrite: credentials are never published, act on one deck and expire;
/// what owners and exports show acts on nothing; a closed deck's decisions are frozen.
@Suite("Participant credentials, pseudonyms and frozen decks")
struct CredentialTests {
    static let signer = ParticipantSigner(secret: participantSecret)

    /// A minted credential with the test secret, as the server would mint it at `now`.
    static func minted(_ scope: ParticipantCredential.Scope, now: Double = fixedTime) -> String {
        signer.mint(scope, now: now)
    }

    @Test("a minted credential checks, expires after its lifetime, and derives one identity per deck")
    func credentialShape() throws {
        let device = Self.minted(.device)
        #expect(device.utf8.count == 62 && Participant.isValidId(device))
        guard case .valid(let c) = Self.signer.check(device, now: fixedTime + 1) else {
            Issue.record("not valid")
            return
        }
        #expect(c.scope == .device && c.mintedAt == fixedTime)
        #expect(Self.signer.check(device, now: fixedTime + ParticipantSigner.deviceLifetime + 1) == .expired)
        let a = try #require(Self.signer.identity(of: c, deckId: 1))
        let b = try #require(Self.signer.identity(of: c, deckId: 2))
        #expect(a.id != b.id && ParticipantSigner.isIdentity(a.id) && ParticipantSigner.isIdentity(b.id))
        #expect(Self.signer.identity(of: c, deckId: 1) == a)
        #expect(!a.id.contains(c.body) && !device.contains(a.id))

        let api = Self.minted(.deck(7, .open))
        guard case .valid(let d) = Self.signer.check(api, now: fixedTime) else {
            Issue.record("not valid")
            return
        }
        #expect(Self.signer.identity(of: d, deckId: 7) != nil)
        #expect(Self.signer.identity(of: d, deckId: 8) == nil)
        #expect(Self.signer.check(api, now: fixedTime + ParticipantSigner.deckLifetime + 1) == .expired)

        // Altered, foreign and retired credentials are unknown.
        var altered = Array(api)
        altered[5] = altered[5] == "0" ? "1" : "0"
        #expect(Self.signer.check(String(altered), now: fixedTime) == .unknown)
        #expect(ParticipantSigner(secret: "another-secret-0123456789").check(api, now: fixedTime) == .unknown)
        #expect(Self.signer.check(Self.retired("p0190a1b2c3d4e5f60718293a4b5c6d"), now: fixedTime) == .unknown)
    }

    /// An id of the first signed format (HMAC over "participant:" + body), as exports published them.
    static func retired(_ body: String) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Array(participantSecret.utf8)))
        hmac.update(data: Array(("participant:" + body).utf8))
        return body + "-" + Hex.string(hmac.finalize().prefix(12))
    }

    @Test("what an export shows cannot undo, flip or read anybody's swipes; the credential can")
    func exportGivesNothingThatActs() async throws {
        try await withApp({ $0.participantRateLimit = 0 }) { client, env in
            let ids = try await client.makeDeck("pub", titles: ["a", "b"])
            #expect(
                try await client.execute(
                    uri: "/api/v1/decks/pub", method: .patch, headers: merged(jsonType, admin),
                    body: ByteBuffer(string: #"{"resultsPublic":true}"#)
                ).status == .ok)
            let victim = try await client.swipe("pub", card: ids[0], direction: "right", participant: "victim")
            #expect(victim.status == .created)
            let swipeId = try #require(try victim.json()["swipe"]["id"].string)

            // The export (the owner's, also with public results) names the victim by pseudonym only.
            expectAPIError(try await client.get("/api/v1/decks/pub/swipes.jsonl"), .unauthorized, "unauthorized")
            let export = try await client.get("/api/v1/decks/pub/swipes.jsonl", headers: admin)
            #expect(export.status == .ok)
            let line = try #require(export.text.split(separator: "\n").first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let shown = try #require(object["participant"] as? String)
            let deckId = try #require(
                try await env.row("SELECT id FROM decks WHERE slug = 'pub'")?.value(at: 0) as Int64?)
            #expect(shown == identity("victim", deckId: deckId))
            #expect(!export.text.contains(pid("victim")))
            #expect(
                !(try await client.get("/api/v1/decks/pub/swipes.csv", headers: admin).text.contains(pid("victim"))))

            // The pseudonym is no credential: as a body or query field, nor as a cookie.
            let flipBody = #"{"direction":"left","participant":"\#(shown)"}"#
            expectAPIError(
                try await client.postJSON("/api/v1/swipes/\(swipeId)/flip", flipBody), .forbidden, "unknown_participant"
            )
            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/\(swipeId)?participant=\(shown)", method: .delete),
                .forbidden, "unknown_participant")
            expectAPIError(
                try await client.get("/api/v1/decks/pub/history?participant=\(shown)"), .forbidden,
                "unknown_participant")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/swipes/\(swipeId)/flip", #"{"direction":"left"}"#, headers: [.cookie: "sd_pid=\(shown)"]),
                .forbidden, "unknown_participant")
            // Another participant's own credential is not the victim's.
            let other = #"{"direction":"left","participant":"\#(pid("mallory"))"}"#
            expectAPIError(
                try await client.postJSON("/api/v1/swipes/\(swipeId)/flip", other), .forbidden, "not_your_swipe")
            #expect(
                try await env.count("SELECT COUNT(*) FROM swipes WHERE direction = 'right' AND undoneAt IS NULL") == 1)

            // The victim's credential still acts.
            let history = try await client.get("/api/v1/decks/pub/history?participant=\(pid("victim"))")
            #expect(try history.json()["swipes"].array.count == 1)
            #expect(
                try await client.execute(uri: "/api/v1/swipes/\(swipeId)?participant=\(pid("victim"))", method: .delete)
                    .status == .ok)
        }
    }

    @Test("ids of the retired format keep counting but act on nothing; their pseudonym names them to the owner")
    func retiredIdsCountButDoNotAct() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("old", titles: ["a", "b"])
            let old = Self.retired("legacyperson")
            // A swipe stored before credentials were split (as migration-era rows are).
            let stored = try await env.openStore()
            let deck = try #require(try await stored.deck(slug: "old"))
            var swipe = Swipe(
                id: "old-1", deckId: deck.id, cardId: ids[0], participantId: old, direction: .right, input: .button,
                trace: nil,
                velocityX: nil, velocityY: nil, durationMs: nil, decisionMs: nil, suspect: false, requestHash: "h",
                createdAt: fixedTime, undoneAt: nil)
            swipe.cardRevision = 1
            _ = try await stored.writeSwipes([.swipe(swipe)])
            let results = try await client.get("/api/v1/decks/old/results", headers: admin)
            #expect(try results.json()["allSwipes"].int == 1)
            // It cannot act any more, by body or by cookie (bodies built by hand: `client.swipe` signs what it is given).
            let body =
                #"{"participant":"\#(old)","#
                + String(try swipeBody(card: ids[1], direction: "right", participant: nil).dropFirst())
            expectAPIError(
                try await client.postJSON("/api/v1/decks/old/swipes", body), .forbidden, "unknown_participant")
            expectAPIError(
                try await client.swipe(
                    "old", card: ids[1], direction: "right", participant: nil, headers: [.cookie: "sd_pid=\(old)"]),
                .forbidden, "unknown_participant")
            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/old-1?participant=\(old)", method: .delete), .forbidden,
                "unknown_participant")
            // The export shows its pseudonym, never the old id; the owner acts on it by that name.
            let export = try await client.get("/api/v1/decks/old/swipes.csv", headers: admin)
            #expect(!export.text.contains(old))
            let shown = Self.signer.pseudonym(of: old, deckId: deck.id)
            #expect(export.text.contains(shown) && shown.hasPrefix("x"))
            let excluded = try await client.postJSON(
                "/api/v1/decks/old/participants/\(shown)/exclude", "{}", headers: admin)
            #expect(excluded.status == .ok)
            #expect(try excluded.json()["participant"].string == shown && excluded.json()["excluded"].bool == true)
            #expect(try await env.count("SELECT COUNT(*) FROM exclusions WHERE participantId = ?", [old]) == 1)
        }
    }

    @Test("an API credential acts on its deck only, and not after it expired")
    func apiCredentialBoundToDeckAndExpiring() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, _ in
            let a = try await client.makeDeck("da", titles: ["a"])
            let b = try await client.makeDeck("db", titles: ["b"])
            let minted = try await client.postJSON("/api/v1/decks/da/participants", "{}")
            #expect(minted.status == .created)
            let credential = try #require(try minted.json()["participant"].string)
            #expect(try minted.json()["expiresAt"].string?.hasPrefix("20") == true)
            expectAPIError(
                try await client.swipe("db", card: b[0], direction: "right", participant: credential), .forbidden,
                "participant_other_deck")
            clock.advance(by: ParticipantSigner.deckLifetime + 1)
            expectAPIError(
                try await client.swipe("da", card: a[0], direction: "right", participant: credential), .forbidden,
                "participant_expired")
            let fresh = try #require(
                try await client.postJSON("/api/v1/decks/da/participants", "{}").json()["participant"].string)
            clock.advance(by: 1)
            #expect(try await client.swipe("da", card: a[0], direction: "right", participant: fresh).status == .created)
        }
    }

    @Test("a credential dated in the future is refused, beyond a few minutes' clock skew between servers")
    func futureCredentialRefused() async throws {
        // Ten years ahead acted for ever before: its lifetime counted from a time not yet come.
        for scope in [ParticipantCredential.Scope.device, .deck(7, .open), .deck(7, .code)] {
            let future = Self.signer.mint(scope, now: fixedTime + 10 * 365 * 24 * 3600)
            #expect(Self.signer.check(future, now: fixedTime) == .unknown, "\(scope)")
            let ahead = Self.signer.mint(scope, now: fixedTime + ParticipantSigner.clockSkew)
            guard case .valid = Self.signer.check(ahead, now: fixedTime) else {
                Issue.record("a credential \(ParticipantSigner.clockSkew) s ahead (another server's clock) is refused")
                continue
            }
            let beyond = Self.signer.mint(scope, now: fixedTime + ParticipantSigner.clockSkew + 1)
            #expect(Self.signer.check(beyond, now: fixedTime) == .unknown)
        }
        try await withApp { client, env in
            let ids = try await client.makeDeck("fut", titles: ["a"])
            let deckId = try #require(
                try await env.row("SELECT id FROM decks WHERE slug = 'fut'")?.value(at: 0) as Int64?)
            let forged = Self.minted(.deck(deckId, .open), now: fixedTime + 10 * 365 * 24 * 3600)
            // Bodies built by hand: `client.swipe` signs what it does not recognise.
            let body =
                #"{"participant":"\#(forged)","#
                + String(try swipeBody(card: ids[0], direction: "right", participant: nil).dropFirst())
            expectAPIError(
                try await client.postJSON("/api/v1/decks/fut/swipes", body), .forbidden, "unknown_participant")
            // As a browser's cookie it is no credential either.
            let device = Self.minted(.device, now: fixedTime + 10 * 365 * 24 * 3600)
            expectAPIError(
                try await client.swipe(
                    "fut", card: ids[0], direction: "right", participant: nil, headers: [.cookie: "sd_pid=\(device)"]),
                .forbidden, "unknown_participant")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
        }
    }

    @Test("one browser is a different, stable participant in each deck")
    func browserUnlinkableAcrossDecks() async throws {
        try await withApp { client, env in
            let a = try await client.makeDeck("ba", titles: ["a"])
            let b = try await client.makeDeck("bb", titles: ["b"])
            #expect(
                try await client.swipe(
                    "ba", card: a[0], direction: "right", input: "button", trace: nil, participant: nil,
                    headers: cookie("phone")
                ).status == .created)
            #expect(
                try await client.swipe(
                    "bb", card: b[0], direction: "right", input: "button", trace: nil, participant: nil,
                    headers: cookie("phone")
                ).status == .created)
            let people = try await env.rows("SELECT participantId FROM swipes ORDER BY deckId").map {
                $0.value(at: 0) as String?
            }
            #expect(people.count == 2 && people[0] != people[1])
            #expect(people.allSatisfy { ParticipantSigner.isIdentity($0 ?? "") && $0 != pid("phone") })
        }
    }

    @Test("a closed deck's decisions are frozen: undo and flip answer 409 deck_closed and change nothing")
    func closedDeckIsFrozen() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("fz", titles: ["a", "b"])
            let s = try await client.swipe("fz", card: ids[0], direction: "right", input: "button", trace: nil)
            let id = try #require(try s.json()["swipe"]["id"].string)
            let dragged = try #require(
                try await client.swipe("fz", card: ids[1], direction: "right").json()["swipe"]["id"].string)
            #expect(
                try await client.execute(
                    uri: "/api/v1/decks/fz", method: .patch, headers: merged(jsonType, admin),
                    body: ByteBuffer(string: #"{"open":false}"#)
                ).status == .ok)
            let me = pid("alice")
            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/\(id)?participant=\(me)", method: .delete), .conflict,
                "deck_closed")
            expectAPIError(
                try await client.postJSON("/api/v1/swipes/\(id)/flip", #"{"direction":"left","participant":"\#(me)"}"#),
                .conflict, "deck_closed")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/swipes/\(dragged)/flip", #"{"direction":"left","participant":"\#(me)"}"#), .conflict,
                "deck_closed")
            // The forms of the history and stack pages are refused too.
            #expect(
                try await client.postForm("/d/fz/swipes/\(id)/flip", "", headers: cookie("alice")).status == .conflict)
            #expect(
                try await env.count("SELECT COUNT(*) FROM swipes WHERE direction = 'right' AND undoneAt IS NULL") == 2)
            #expect(try await env.count("SELECT COUNT(*) FROM flips") == 0)
        }
    }

    @Test("an archived card refuses new swipes, flips and undos with 409 card_archived; its swipes stay counted")
    func archivedCardRefusesSwipes() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("ar", titles: ["a", "b"])
            #expect(
                try await client.swipe("ar", card: ids[0], direction: "right", participant: "early").status == .created)
            #expect(
                try await client.postJSON("/api/v1/decks/ar/cards/\(ids[0])/archive", "{}", headers: admin).status
                    == .ok)
            expectAPIError(
                try await client.swipe("ar", card: ids[0], direction: "right", participant: "late"), .conflict,
                "card_archived")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 1)
            // Its tally is frozen too: no flip, no undo.
            let early = try #require(try await env.row("SELECT id FROM swipes")?.value(at: 0) as String?)
            let me = pid("early")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/swipes/\(early)/flip", #"{"direction":"left","participant":"\#(me)"}"#), .conflict,
                "card_archived")
            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/\(early)?participant=\(me)", method: .delete), .conflict,
                "card_archived")
            #expect(
                try await env.count("SELECT COUNT(*) FROM swipes WHERE undoneAt IS NULL AND direction = 'right'") == 1)
            #expect(
                try await client.swipe("ar", card: ids[1], direction: "right", participant: "late").status == .created)
        }
    }

    @Test(
        "a flipped drag is not turned into a traced decision: it is undone and the new direction is a button decision")
    func flippedDragBecomesButtonDecision() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("fl", titles: ["a"])
            let s = try await client.swipe(
                "fl", card: ids[0], direction: "left", trace: leftDrag(), participant: nil, headers: cookie("flipper"))
            let id = try #require(try s.json()["swipe"]["id"].string)
            let flipped = try await client.postJSON(
                "/api/v1/swipes/\(id)/flip", #"{"direction":"right"}"#, headers: cookie("flipper"))
            #expect(flipped.status == .ok)
            let j = try flipped.json()["swipe"]
            #expect(j["id"].string != id && j["direction"].string == "right" && j["input"].string == "button")
            // The traced swipe is kept, undone, still saying left.
            let old = try #require(
                try await env.row("SELECT direction, undoneAt IS NOT NULL FROM swipes WHERE id = ?", [id]))
            #expect(old.value(at: 0) as String? == "left" && old.value(at: 1) as Bool? == true)
            let results = try await client.get("/api/v1/decks/fl/results", headers: admin).json()
            #expect(results["swipesByKind"]["drag"].int == 0 && results["swipesByKind"]["button"].int == 1)
        }
    }

    @Test("the participant budget counts decisions: batch items and body-named participants, not requests")
    func budgetCountsItems() async throws {
        // 1 per second, burst 4: a batch of 10 from one participant stores 4.
        try await withApp({ $0.participantRateLimit = 1 }) { client, env in
            let ids = try await client.makeDeck("bt", titles: (0..<10).map { "c\($0)" })
            let items = try ids.map {
                try swipeBody(card: $0, direction: "right", input: "button", trace: nil, participant: "batcher")
            }
            let r = try await client.postJSON(
                "/api/v1/decks/bt/swipes/batch", #"{"swipes":[\#(items.joined(separator: ","))]}"#)
            #expect(r.status == .ok)
            let statuses = try r.json()["results"].array.map { $0["status"].int ?? 0 }
            #expect(statuses.filter { $0 == 201 }.count == 4)
            #expect(statuses.filter { $0 == 429 }.count == 6)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 4)
            // Body-named participants have budgets of their own, cookie or not.
            let other = try await client.swipe(
                "bt", card: ids[9], direction: "right", input: "button", trace: nil, participant: "second")
            #expect(other.status == .created)
        }
    }

    @Test("drags are paced like buttons: three within 0.6 s flag the third drag_burst; it is kept, not counted")
    func dragBurstFlagged() async throws {
        let clock = TestClock()
        try await withApp(clock: clock.read) { client, env in
            let ids = try await client.makeDeck("pace", titles: ["a", "b", "c", "d"])
            for i in 0..<3 {
                #expect(
                    try await client.swipe("pace", card: ids[i], direction: "right", participant: "flicker").status
                        == .created)
                clock.advance(by: 0.1)
            }
            clock.advance(by: 2)
            #expect(
                try await client.swipe("pace", card: ids[3], direction: "right", participant: "flicker").status
                    == .created)
            let reasons = try await env.rows("SELECT suspectReason FROM swipes ORDER BY createdAt").map {
                $0.value(at: 0) as String?
            }
            #expect(reasons == [nil, nil, "drag_burst", nil])
            let results = try await client.get("/api/v1/decks/pace/results", headers: admin).json()
            #expect(results["swipesByKind"]["suspectDrag"].int == 1 && results["swipesByKind"]["drag"].int == 3)
        }
    }

    @Test("join budgets count networks: an IPv4 /24 and an IPv6 /64 are one key")
    func networkKeys() {
        #expect(ClientNetwork.key("203.0.113.7") == "203.0.113.0/24")
        #expect(ClientNetwork.key("203.0.113.250") == ClientNetwork.key("203.0.113.7"))
        #expect(ClientNetwork.key("203.0.114.7") != ClientNetwork.key("203.0.113.7"))
        #expect(ClientNetwork.key("::ffff:203.0.113.9") == "203.0.113.0/24")
        #expect(ClientNetwork.key("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(ClientNetwork.key("2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64")
        #expect(ClientNetwork.key("2001:db8:1:3::1") != ClientNetwork.key("2001:db8:1:2::1"))
        #expect(ClientNetwork.key("2001:db8::1") == "2001:db8:0:0::/64")
        #expect(ClientNetwork.key("::1") == "0:0:0:0::/64")
    }
}
