import Foundation
import GRDB
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// `POST /api/v1/decks/{deck}/swipes` and its batch, undo, flip and history.
@Suite("API: swipes")
struct SwipeApiTests {
    static let replayedHeader = HTTPField.Name("Idempotent-Replayed")!

    @Test("a valid drag is 201 and lands in SQLite with its trace, velocity and input")
    func validDrag() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a", "b"])
            let sent = rightDrag()
            let body = try swipeBody(
                card: ids[0], direction: "right", trace: sent, participant: "alice", decisionMs: 1234)
            let r = try await client.postJSON(
                "/api/v1/decks/d/swipes", body, headers: [.init("Idempotency-Key")!: "key-1"])
            #expect(r.status == .created)
            #expect(r.headers[.location] == "/api/v1/swipes/key-1")
            let j = try r.json()["swipe"]
            #expect(j["id"].string == "key-1")
            #expect(j["deck"].string == "d")
            #expect(j["card"].int == Int(ids[0]))
            #expect(j["direction"].string == "right")
            #expect(j["input"].string == "drag")
            #expect(j["participant"].string == (try await identity("alice", in: "d", env)))
            #expect(j["suspect"].bool == false)
            #expect(j["undone"].bool == false)
            #expect(j["createdAt"].double == fixedTime)
            #expect(j["durationMs"].double == sent.t.last)
            #expect(j["decisionMs"].double == 1234)

            let row = try #require(try await env.row("SELECT * FROM swipes WHERE id = 'key-1'"))
            #expect(row["direction"] as String? == "right")
            #expect(row["input"] as String? == "drag")
            #expect(row["participantId"] as String? == (try await identity("alice", in: "d", env)))
            #expect(row["suspect"] as Bool? == false)
            #expect(row["cardId"] as Int64? == ids[0])
            #expect(row["createdAt"] as Double? == fixedTime)
            #expect((row["undoneAt"] as Double?) == nil)
            #expect((row["decisionMs"] as Double?) == 1234)
            #expect((row["durationMs"] as Double?) == sent.t.last)
            let expected = try validate(sent, claimed: .right, profile: .standard)
            #expect((row["velocityX"] as Double?) == expected.velocity.x)
            #expect((row["velocityY"] as Double?) == expected.velocity.y)
            // Stored in TraceCodec's binary form (the JSON column stays empty), the same doubles.
            #expect((row["trace"] as String?) == nil)
            let stored = try #require(row["traceData"] as Data?)
            #expect(TraceCodec.decode(Array(stored)) == sent)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM participants WHERE id = ? AND kind = 'browser'",
                    [try await identity("alice", in: "d", env)]) == 1)
        }
    }

    @Test(
        "a replay with the same Idempotency-Key and body is 201 Idempotent-Replayed with no new row; another body is 422"
    )
    func idempotency() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a", "b"])
            let first = try await client.swipe("d", card: ids[0], direction: "right", key: "same-key")
            #expect(first.status == .created)
            #expect(first.headers[Self.replayedHeader] == nil)
            let before = try await env.count("SELECT COUNT(*) FROM swipes")

            let again = try await client.swipe("d", card: ids[0], direction: "right", key: "same-key")
            #expect(again.status == .created)
            #expect(again.headers[Self.replayedHeader] == "true")
            #expect(try again.json()["swipe"]["id"].string == "same-key")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == before)

            // A browser replays with its cookie instead of a participant field.
            let c1 = try await client.swipe(
                "d", card: ids[1], direction: "left", trace: leftDrag(), participant: nil, key: "cookie-key",
                headers: cookie("bob"))
            #expect(c1.status == .created)
            let c2 = try await client.swipe(
                "d", card: ids[1], direction: "left", trace: leftDrag(), participant: nil, key: "cookie-key",
                headers: cookie("bob"))
            #expect(c2.status == .created)
            #expect(c2.headers[Self.replayedHeader] == "true")

            // A client with neither cookie nor participant field is refused (a POST never mints one).
            let ids2 = try await client.makeDeck("e", titles: ["c"])
            let n1 = try await client.swipe("e", card: ids2[0], direction: "right", participant: nil, key: "anon-key")
            expectAPIError(n1, .badRequest, "participant_required")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes WHERE id = 'anon-key'") == 0)

            let other = try await client.swipe("d", card: ids[1], direction: "left", trace: leftDrag(), key: "same-key")
            expectAPIError(other, .unprocessableContent, "idempotency_mismatch")
            let otherDirection = try await client.swipe(
                "d", card: ids[0], direction: "left", trace: leftDrag(), key: "same-key")
            expectAPIError(otherDirection, .unprocessableContent, "idempotency_mismatch")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == before + 1)
            #expect(
                try await env.row("SELECT direction FROM swipes WHERE id = 'same-key'")?["direction"] as String?
                    == "right")
        }
    }

    @Test("decision_mismatch and not_a_throw: the server re-runs the physics on the trace")
    func decisionRules() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a"])
            expectAPIError(
                try await client.swipe("d", card: ids[0], direction: "left", trace: rightDrag()), .unprocessableContent,
                "decision_mismatch")
            expectAPIError(
                try await client.swipe("d", card: ids[0], direction: "right", trace: springBack()),
                .unprocessableContent, "not_a_throw")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM rejections WHERE code IN ('decision_mismatch', 'not_a_throw')") == 2)
        }
    }

    /// Traces that break each shape rule of `checkTrace`, as raw JSON.
    static let badTraces: [(String, String)] = {
        func num(_ xs: [Double]) -> String { "[" + xs.map { String($0) }.joined(separator: ",") + "]" }
        func tr(_ t: String, _ x: String, _ y: String, w: String = "400") -> String {
            #"{"t":\#(t),"x":\#(x),"y":\#(y),"w":\#(w),"h":600,"vw":400,"vh":800,"gx":200,"gy":300}"#
        }
        let many = (1...1201).map { Double($0) * 8 }
        return [
            (tr(#"[16,"NaN",48]"#, "[0,100,200]", "[0,0,0]"), "malformed"),
            (tr("[16,32,48]", #"[0,"Infinity",200]"#, "[0,0,0]"), "malformed"),
            (tr("[16,32,48]", "[0,100]", "[0,0,0]"), "malformed"),
            (tr("[16,32,32,48]", "[0,50,100,200]", "[0,0,0,0]"), "non_monotonic_time"),
            (tr("[-5,32,48]", "[0,50,100]", "[0,0,0]"), "non_monotonic_time"),
            (tr("[16]", "[0]", "[0]"), "too_few_samples"),
            (tr("[0,40]", "[0,200]", "[0,0]"), "too_few_samples"),
            (tr("[16,17,18]", "[0,1,2]", "[0,0,0]"), "too_short"),
            (tr(num(many), num(many.map { $0 * 0.1 }), num(many.map { _ in 0 })), "too_long"),
            (tr("[16,5000,10016]", "[0,100,200]", "[0,0,0]"), "too_long"),
            (tr("[16,32,48]", "[0,1000,1000]", "[0,0,0]"), "impossible_speed"),
            (tr("[16,32,48]", "[0,50,100]", "[0,0,0]", w: "5"), "size_out_of_range"),
        ]
    }()

    @Test("each physics rejection is a 422 naming the rule, stores no swipe, and is counted in results")
    func physicsRejections() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a"])
            for (trace, code) in Self.badTraces {
                let body =
                    #"{"card":\#(ids[0]),"direction":"right","input":"drag","participant":"\#(pid("alice"))","trace":\#(trace)}"#
                let r = try await client.postJSON("/api/v1/decks/d/swipes", body)
                expectAPIError(r, .unprocessableContent, code)
            }
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)

            var expected: [String: Int] = [:]
            for (_, code) in Self.badTraces { expected[code, default: 0] += 1 }
            let results = try await client.get("/api/v1/decks/d/results", headers: admin).json()
            let got = (results["rejections"].object ?? [:]).mapValues { $0.int ?? -1 }
            #expect(got == expected)

            let page = try await client.get("/d/d/results", headers: admin)
            #expect(page.status == .ok)
            // Each code as the sentence people read, with the code as its tooltip.
            for code in expected.keys {
                let message = try #require(SwipeRejection(rawValue: code)).message
                #expect(page.text.contains(#"<span class="reason" title="\#(code)">\#(message)</span>"#), "\(code)")
            }
            #expect(
                page.text.contains("Swipes refused <small data-stat=\"rejectedTotal\">\(Self.badTraces.count)</small>"))
        }
    }

    @Test("a suspect (machine-like) trace is stored with the flag and left out of the results")
    func suspect() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a", "b"])
            let r = try await client.swipe(
                "d", card: ids[0], direction: "right", trace: machineDrag(), participant: "bot", key: "bot-1")
            #expect(r.status == .created)
            #expect(try r.json()["swipe"]["suspect"].bool == true)
            #expect(try await env.row("SELECT suspect FROM swipes WHERE id = 'bot-1'")?["suspect"] as Bool? == true)
            #expect(
                try await client.swipe("d", card: ids[1], direction: "right", participant: "human").status == .created)

            let results = try await client.get("/api/v1/decks/d/results", headers: admin).json()
            #expect(results["suspectExcluded"].int == 1)
            #expect(results["swipes"].int == 1)
            #expect(results["participants"].int == 1)
            let a = try #require(results["cards"].array.first { $0["cardId"].int == Int(ids[0]) })
            #expect(a["total"].int == 0)

            let page = try await client.get("/d/d/results", headers: admin).text
            #expect(page.contains(#"<b data-stat="notCounted">1</b><span>not counted</span>"#))
            #expect(page.contains(#"(<span data-stat="suspect">1</span>) never count."#))
            #expect(page.contains(#"<b data-stat="swipes">1</b><span>swipes counted</span>"#))
        }
    }

    @Test("404 for an unknown deck, an unknown card, and a card of another deck")
    func unknowns() async throws {
        try await withApp { client, env in
            let a = try await client.makeDeck("deck-a", titles: ["a"])
            let b = try await client.makeDeck("deck-b", titles: ["b"])
            expectAPIError(try await client.swipe("nope", card: a[0], direction: "right"), .notFound, "not_found")
            expectAPIError(try await client.swipe("deck-a", card: 999_999, direction: "right"), .notFound, "not_found")
            expectAPIError(try await client.swipe("deck-a", card: b[0], direction: "right"), .notFound, "not_found")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
        }
    }

    @Test("a second live swipe on the same card by the same participant is 409 already_swiped")
    func alreadySwiped() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a"])
            #expect(try await client.swipe("d", card: ids[0], direction: "right", key: "k1").status == .created)
            expectAPIError(
                try await client.swipe("d", card: ids[0], direction: "left", trace: leftDrag(), key: "k2"), .conflict,
                "already_swiped")
            // Another participant may.
            #expect(
                try await client.swipe(
                    "d", card: ids[0], direction: "left", trace: leftDrag(), participant: "zoe", key: "k3"
                ).status == .created)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 2)
        }
    }

    @Test("button and key swipes are accepted only when the deck allows buttons")
    func buttons() async throws {
        try await withApp { client, env in
            let open = try await client.makeDeck("open", titles: ["a", "b", "c"])
            let r = try await client.swipe(
                "open", card: open[0], direction: "left", input: "button", trace: nil, key: "btn")
            #expect(r.status == .created)
            let row = try #require(try await env.row("SELECT * FROM swipes WHERE id = 'btn'"))
            #expect(row["input"] as String? == "button")
            #expect((row["trace"] as String?) == nil)
            #expect((row["velocityX"] as Double?) == nil)
            // A key swipe; a trace sent with it is ignored.
            #expect(
                try await client.swipe(
                    "open", card: open[1], direction: "right", input: "key", trace: springBack(), key: "kbd"
                ).status == .created)
            #expect(try await env.row("SELECT trace FROM swipes WHERE id = 'kbd'")?["trace"] as String? == nil)
            // An API decision without a trace.
            #expect(
                try await client.swipe("open", card: open[2], direction: "right", input: nil, trace: nil, key: "prog")
                    .status == .created)
            #expect(try await env.row("SELECT input FROM swipes WHERE id = 'prog'")?["input"] as String? == "api")
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM participants WHERE id = ? AND kind = 'browser'",
                    [try await identity("alice", in: "open", env)]) == 1)
            // The standard profile enables left and right only.
            expectAPIError(
                try await client.swipe(
                    "open", card: open[2], direction: "up", input: "button", trace: nil, participant: "other"),
                .badRequest, "direction_not_enabled")

            let closed = try await client.makeDeck("closed", titles: ["a"], allowButtons: false)
            expectAPIError(
                try await client.swipe("closed", card: closed[0], direction: "left", input: "button", trace: nil),
                .unprocessableContent, "input_not_allowed")
            expectAPIError(
                try await client.swipe("closed", card: closed[0], direction: "left", input: "key", trace: nil),
                .unprocessableContent, "input_not_allowed")
            expectAPIError(
                try await client.swipe("closed", card: closed[0], direction: "left", input: "api", trace: nil),
                .unprocessableContent, "input_not_allowed")
            // A drag needs its trace on any deck.
            expectAPIError(
                try await client.swipe(
                    "open", card: open[2], direction: "left", input: "drag", trace: nil, participant: "other"),
                .unprocessableContent, "input_not_allowed")
            // The drag-only deck still takes drags.
            #expect(
                try await client.swipe("closed", card: closed[0], direction: "left", trace: leftDrag()).status
                    == .created)
        }
    }

    @Test("400 for an invalid direction, input, participant, idempotency key, decisionMs or JSON")
    func invalidFields() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a"])
            let card = ids[0]
            expectAPIError(
                try await client.swipe("d", card: card, direction: "sideways"), .badRequest, "invalid_direction")
            expectAPIError(
                try await client.swipe("d", card: card, direction: "none", trace: springBack()), .badRequest,
                "invalid_direction")
            expectAPIError(
                try await client.swipe("d", card: card, direction: "right", input: "telepathy"), .badRequest,
                "invalid_input")
            expectAPIError(
                try await client.swipe("d", card: card, direction: "right", participant: "bad id!"), .badRequest,
                "invalid_participant")
            expectAPIError(
                try await client.swipe("d", card: card, direction: "right", participant: ""), .badRequest,
                "invalid_participant")
            expectAPIError(
                try await client.swipe(
                    "d", card: card, direction: "right", participant: String(repeating: "p", count: 65)), .badRequest,
                "invalid_participant")
            expectAPIError(
                try await client.swipe("d", card: card, direction: "right", key: "has space"), .badRequest,
                "invalid_idempotency_key")
            expectAPIError(
                try await client.swipe("d", card: card, direction: "right", key: "slash/key"), .badRequest,
                "invalid_idempotency_key")
            expectAPIError(
                try await client.swipe("d", card: card, direction: "right", key: String(repeating: "k", count: 129)),
                .badRequest,
                "invalid_idempotency_key")
            let negative = try swipeBody(card: card, direction: "right", decisionMs: -1)
            expectAPIError(
                try await client.postJSON("/api/v1/decks/d/swipes", negative), .badRequest, "invalid_decision_ms")
            for bad in [
                #"{"card":"#, "not json", "[]", #"{"direction":"right"}"#, #"{"card":"one","direction":"right"}"#, "{}",
                "",
            ] {
                expectAPIError(try await client.postJSON("/api/v1/decks/d/swipes", bad), .badRequest, "malformed_json")
            }
            let badTraceShape = #"{"card":\#(card),"direction":"right","trace":{"t":[1,2]}}"#
            expectAPIError(
                try await client.postJSON("/api/v1/decks/d/swipes", badTraceShape), .badRequest, "malformed_json")
            let badTraceString =
                #"{"card":\#(card),"direction":"right","trace":{"t":[16,"soon"],"x":[0,1],"y":[0,0],"w":400,"h":600,"vw":400,"vh":800,"gx":1,"gy":1}}"#
            expectAPIError(
                try await client.postJSON("/api/v1/decks/d/swipes", badTraceString), .badRequest, "malformed_json")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)
        }
    }

    @Test("415 for a body that is not JSON, 413 for a body over maxBodyBytes")
    func bodyRules() async throws {
        try await withApp({ $0.maxBodyBytes = 200 }) { client, env in
            let ids = try await client.makeDeck("d", titles: ["a"])
            let small = try swipeBody(card: ids[0], direction: "left", input: "button", trace: nil)
            let plain = try await client.execute(
                uri: "/api/v1/decks/d/swipes", method: .post, headers: [.contentType: "text/plain"],
                body: .init(string: small))
            expectAPIError(plain, .unsupportedMediaType, "unsupported_media_type")
            let none = try await client.execute(
                uri: "/api/v1/decks/d/swipes", method: .post, body: .init(string: small))
            expectAPIError(none, .unsupportedMediaType, "unsupported_media_type")
            let form = try await client.postForm("/api/v1/decks/d/swipes", "card=\(ids[0])&direction=left")
            expectAPIError(form, .unsupportedMediaType, "unsupported_media_type")

            let big = try swipeBody(card: ids[0], direction: "right", trace: rightDrag())
            #expect(big.utf8.count > 200)
            #expect(small.utf8.count < 200)
            expectAPIError(try await client.postJSON("/api/v1/decks/d/swipes", big), .contentTooLarge, "body_too_large")
            expectAPIError(
                try await client.postJSON("/api/v1/decks/d/swipes/batch", #"{"swipes":[\#(big)]}"#), .contentTooLarge,
                "body_too_large")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 0)

            // Under the limit the same route works.
            #expect(try await client.postJSON("/api/v1/decks/d/swipes", small).status == .created)
        }
    }

    @Test("a 100,000-sample trace within the default limit is refused as too_long, not a 5xx")
    func hugeTrace() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("d", titles: ["a"])
            let n = 100_000
            let t = (1...n).map { String($0) }.joined(separator: ",")
            let z = [String](repeating: "0", count: n).joined(separator: ",")
            let body =
                #"{"card":\#(ids[0]),"direction":"right","input":"drag","trace":{"t":[\#(t)],"x":[\#(z)],"y":[\#(z)],"w":400,"h":600,"vw":400,"vh":800,"gx":1,"gy":1}}"#
            #expect(body.utf8.count < 2 * 1024 * 1024)
            expectAPIError(
                try await client.postJSON("/api/v1/decks/d/swipes", body, headers: cookie("huge")),
                .unprocessableContent, "too_long")
        }
    }

    @Test("batch: results per item in order; 400 invalid_batch_size for 0 or 101 items")
    func batch() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a", "b", "c"])
            let items = [
                try swipeBody(card: ids[0], direction: "right", participant: "bat", key: "b-1"),
                try swipeBody(card: ids[1], direction: "sideways", participant: "bat", key: "b-2"),
                try swipeBody(card: 999_999, direction: "left", participant: "bat", key: "b-3"),
                try swipeBody(card: ids[2], direction: "left", trace: rightDrag(), participant: "bat", key: "b-4"),
                try swipeBody(
                    card: ids[2], direction: "left", input: "button", trace: nil, participant: "bat", key: "b-5"),
            ]
            let body = #"{"swipes":[\#(items.joined(separator: ","))]}"#
            let r = try await client.postJSON("/api/v1/decks/d/swipes/batch", body)
            #expect(r.status == .ok)
            let results = try r.json()["results"].array
            #expect(results.map { $0["status"].int } == [201, 400, 404, 422, 201])
            #expect(results[0]["swipe"]["id"].string == "b-1")
            #expect(results[0]["replayed"].bool == false)
            #expect(results[1]["error"]["code"].string == "invalid_direction")
            #expect(results[2]["error"]["code"].string == "not_found")
            #expect(results[3]["error"]["code"].string == "decision_mismatch")
            #expect(results[4]["swipe"]["input"].string == "button")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 2)

            // Replaying the batch replays the stored items and repeats the refusals.
            let again = try await client.postJSON("/api/v1/decks/d/swipes/batch", body).json()["results"].array
            #expect(again.map { $0["status"].int } == [201, 400, 404, 422, 201])
            #expect(again[0]["replayed"].bool == true)
            #expect(again[4]["replayed"].bool == true)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 2)

            expectAPIError(
                try await client.postJSON("/api/v1/decks/d/swipes/batch", #"{"swipes":[]}"#), .badRequest,
                "invalid_batch_size")
            let one = try swipeBody(card: ids[0], direction: "left", input: "button", trace: nil, participant: "many")
            let many = #"{"swipes":[\#([String](repeating: one, count: 101).joined(separator: ","))]}"#
            expectAPIError(
                try await client.postJSON("/api/v1/decks/d/swipes/batch", many), .badRequest, "invalid_batch_size")
            expectAPIError(
                try await client.postJSON("/api/v1/decks/d/swipes/batch", #"{"items":[]}"#), .badRequest,
                "malformed_json")
            expectAPIError(
                try await client.postJSON("/api/v1/decks/nope/swipes/batch", #"{"swipes":[\#(one)]}"#), .notFound,
                "not_found")

            // 100 is allowed, each item a decision of its participant: the budget's burst of 40 goes
            // through (one created, 39 already swiped: same participant and card, fresh keys), the
            // other 60 are rate-limited.
            let hundred = #"{"swipes":[\#([String](repeating: one, count: 100).joined(separator: ","))]}"#
            let h = try await client.postJSON("/api/v1/decks/d/swipes/batch", hundred).json()["results"].array
            #expect(h.count == 100)
            #expect(h.filter { $0["status"].int == 201 }.count == 1)
            #expect(h.filter { $0["error"]["code"].string == "already_swiped" }.count == 39)
            #expect(h.filter { $0["error"]["code"].string == "rate_limited" }.count == 60)
        }
    }

    @Test("DELETE /api/v1/swipes/{id}: own swipe undone (row kept), another's 403, unknown 404; then swipe again")
    func undo() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a"])
            #expect(
                try await client.swipe("d", card: ids[0], direction: "right", participant: "ann", key: "u-1").status
                    == .created)

            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/u-1?participant=\(pid("ben"))", method: .delete),
                .forbidden, "not_your_swipe")
            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/u-1", method: .delete, headers: cookie("ben")),
                .forbidden, "not_your_swipe")
            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/nope?participant=\(pid("ann"))", method: .delete),
                .notFound, "not_found")
            expectAPIError(
                try await client.execute(uri: "/api/v1/swipes/u-1?participant=bad%20id", method: .delete), .badRequest,
                "invalid_participant")
            #expect(try await env.row("SELECT undoneAt FROM swipes WHERE id = 'u-1'")?["undoneAt"] as Double? == nil)

            let r = try await client.execute(uri: "/api/v1/swipes/u-1?participant=\(pid("ann"))", method: .delete)
            #expect(r.status == .ok)
            #expect(try r.json()["swipe"]["undone"].bool == true)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 1)
            #expect(
                try await env.row("SELECT undoneAt FROM swipes WHERE id = 'u-1'")?["undoneAt"] as Double? == fixedTime)
            // Undo is idempotent.
            #expect(
                try await client.execute(uri: "/api/v1/swipes/u-1", method: .delete, headers: cookie("ann")).status
                    == .ok)

            // The card can be swiped again, under a new key.
            let again = try await client.swipe(
                "d", card: ids[0], direction: "left", trace: leftDrag(), participant: "ann", key: "u-2")
            #expect(again.status == .created)
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 2)
            let results = try await client.get("/api/v1/decks/d/results", headers: admin).json()
            #expect(results["swipes"].int == 1)
            #expect(results["directionTotals"]["left"].int == 1)
            #expect(results["directionTotals"]["right"].isNull)
        }
    }

    @Test("POST /api/v1/swipes/{id}/flip rewrites the direction of a swipe without a trace and logs the old one")
    func flip() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a"])
            #expect(
                try await client.swipe(
                    "d", card: ids[0], direction: "right", input: "button", trace: nil, participant: "fay", key: "f-1"
                ).status == .created)

            let r = try await client.postJSON(
                "/api/v1/swipes/f-1/flip", #"{"direction":"left","participant":"\#(pid("fay"))"}"#)
            #expect(r.status == .ok)
            #expect(try r.json()["swipe"]["direction"].string == "left")
            #expect(
                try await env.row("SELECT direction FROM swipes WHERE id = 'f-1'")?["direction"] as String? == "left")
            let log = try #require(try await env.row("SELECT * FROM flips WHERE swipeId = 'f-1'"))
            #expect(log["fromDirection"] as String? == "right")
            #expect(log["toDirection"] as String? == "left")
            #expect(log["createdAt"] as Double? == fixedTime)
            // The participant may come from the cookie too.
            #expect(
                try await client.postJSON("/api/v1/swipes/f-1/flip", #"{"direction":"right"}"#, headers: cookie("fay"))
                    .status == .ok)
            #expect(try await env.count("SELECT COUNT(*) FROM flips WHERE swipeId = 'f-1'") == 2)

            expectAPIError(
                try await client.postJSON(
                    "/api/v1/swipes/f-1/flip", #"{"direction":"left","participant":"\#(pid("gus"))"}"#), .forbidden,
                "not_your_swipe")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/swipes/nope/flip", #"{"direction":"left","participant":"\#(pid("fay"))"}"#), .notFound,
                "not_found")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/swipes/f-1/flip", #"{"direction":"sideways","participant":"\#(pid("fay"))"}"#),
                .badRequest, "invalid_direction")
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/swipes/f-1/flip", #"{"direction":"up","participant":"\#(pid("fay"))"}"#), .badRequest,
                "direction_not_enabled")
            expectAPIError(
                try await client.postJSON("/api/v1/swipes/f-1/flip", #"{"participant":"\#(pid("fay"))"}"#), .badRequest,
                "malformed_json")

            #expect(
                try await client.execute(uri: "/api/v1/swipes/f-1?participant=\(pid("fay"))", method: .delete).status
                    == .ok)
            expectAPIError(
                try await client.postJSON(
                    "/api/v1/swipes/f-1/flip", #"{"direction":"left","participant":"\#(pid("fay"))"}"#), .conflict,
                "already_undone")
        }
    }

    @Test("GET /api/v1/decks/{deck}/history lists the participant's live swipes, newest first")
    func historyApi() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a", "b", "c"])
            #expect(
                try await client.swipe("d", card: ids[0], direction: "right", participant: "hal", key: "h-1").status
                    == .created)
            #expect(
                try await client.swipe(
                    "d", card: ids[1], direction: "left", trace: leftDrag(), participant: "hal", key: "h-2"
                ).status == .created)
            #expect(
                try await client.swipe("d", card: ids[2], direction: "right", participant: "ivy", key: "h-3").status
                    == .created)
            #expect(
                try await client.execute(uri: "/api/v1/swipes/h-1?participant=\(pid("hal"))", method: .delete).status
                    == .ok)
            #expect(
                try await client.swipe(
                    "d", card: ids[0], direction: "left", trace: leftDrag(), participant: "hal", key: "h-4"
                ).status == .created)

            let h = try await client.get("/api/v1/decks/d/history?participant=\(pid("hal"))").json()["swipes"].array
            #expect(h.map { $0["id"].string } == ["h-4", "h-2"])
            let hal = try await identity("hal", in: "d", env)
            #expect(h.allSatisfy { $0["participant"].string == hal && $0["deck"].string == "d" })
            let byCookie = try await client.get("/api/v1/decks/d/history", headers: cookie("ivy")).json()["swipes"]
                .array
            #expect(byCookie.map { $0["id"].string } == ["h-3"])
            let nobody = try await client.get("/api/v1/decks/d/history?participant=\(pid("nobody"))").json()["swipes"]
                .array
            #expect(nobody.isEmpty)
            expectAPIError(
                try await client.get("/api/v1/decks/d/history?participant=a%2Fb"), .badRequest, "invalid_participant")
        }
    }

    @Test("results rank by the Wilson lower bound: 9 of 10 likes beats 1 of 1")
    func ranking() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("rank", titles: ["B one of one", "A nine of ten", "C nothing"])
            // Programs' decisions without a trace count only when the owner says so.
            let counting = try await client.execute(
                uri: "/api/v1/decks/rank", method: .patch, headers: merged(jsonType, admin),
                body: ByteBuffer(string: #"{"countedInputs":["drag","button","api"]}"#))
            #expect(counting.status == .ok)
            let a = ids[1]
            let b = ids[0]
            var items: [String] = []
            for i in 0..<10 {
                items.append(
                    try swipeBody(
                        card: a, direction: i < 9 ? "right" : "left", input: "api", trace: nil,
                        participant: "voter\(i)", decisionMs: Double(100 * (i + 1))))
            }
            items.append(
                try swipeBody(
                    card: b, direction: "right", input: "api", trace: nil, participant: "voter0", decisionMs: 5000))
            let r = try await client.postJSON(
                "/api/v1/decks/rank/swipes/batch", #"{"swipes":[\#(items.joined(separator: ","))]}"#)
            #expect(try r.json()["results"].array.allSatisfy { $0["status"].int == 201 })

            let j = try await client.get("/api/v1/decks/rank/results", headers: admin).json()
            #expect(j["deck"].string == "rank")
            let cards = j["cards"].array
            #expect(cards.map { $0["title"].string } == ["A nine of ten", "B one of one", "C nothing"])
            #expect(cards.map { $0["rank"].int } == [1, 2, 3])
            #expect(cards[0]["likes"].int == 9)
            #expect(cards[0]["total"].int == 10)
            #expect(cards[0]["counts"]["right"].int == 9)
            #expect(cards[0]["counts"]["left"].int == 1)
            let wa = WilsonInterval(successes: 9, trials: 10)
            let wb = WilsonInterval(successes: 1, trials: 1)
            #expect(cards[0]["wilson"]["lower"].double == wa.lower)
            #expect(cards[1]["wilson"]["lower"].double == wb.lower)
            #expect(wa.lower > wb.lower)
            #expect(cards[1]["likeRate"].double == 1)
            #expect(cards[2]["total"].int == 0)
            #expect(cards[2]["wilson"]["upper"].double == 1)
            #expect(j["participants"].int == 10)
            #expect(j["swipes"].int == 11)
            #expect(j["directionTotals"]["right"].int == 10)
            // Decision times 100, 200, … 1000 and 5000: the median of 11 is the 6th, 600 ms.
            #expect(j["medianDecisionMs"].double == 600)

            let page = try await client.get("/d/rank/results", headers: admin)
            #expect(page.status == .ok)
            let html = page.text
            #expect(
                html.contains(
                    #"<b data-stat="participants">10</b><span data-stat="participantsLabel">participants</span>"#))
            #expect(html.contains(#"<b data-stat="swipes">11</b><span>swipes counted</span>"#))
            #expect(html.contains(#"<b data-stat="median">0.6 s</b><span>typical time to decide</span>"#))
            let first = try #require(html.range(of: "A nine of ten</span></div></td>"))
            let second = try #require(html.range(of: "B one of one</span></div></td>"))
            #expect(first.lowerBound < second.lowerBound)
            #expect(html.contains("<td class=\"num\">10</td><td class=\"num\">9 of 10</td><td class=\"num\">90%</td>"))
        }
    }

    @Test("results.csv: header line, quoted titles, formulas neutralised")
    func resultsCSV() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("csv", titles: [#"=HYPERLINK("http://evil.example"),cheap"#, "Plain"])
            #expect(
                try await client.swipe("csv", card: ids[0], direction: "right", participant: "cat").status == .created)
            let r = try await client.get("/api/v1/decks/csv/results.csv", headers: admin)
            #expect(r.status == .ok)
            #expect(r.contentType.hasPrefix("text/csv"))
            #expect(r.headers[.contentDisposition] == #"attachment; filename="csv-results.csv""#)
            let lines = r.text.components(separatedBy: "\r\n")
            #expect(lines.first?.hasPrefix("rank,card_id,title,archived,") == true)
            #expect(lines.count == 4)  // header, two cards, and the empty string after the last CRLF
            #expect(lines.last == "")
            #expect(lines[1].hasPrefix("1,\(ids[0]),\"'=HYPERLINK(\"\"http://evil.example\"\"),cheap\",0,1,1,1.0,"))
            #expect(lines[2].hasPrefix("2,\(ids[1]),Plain,0,0,0,0.0,"))
            #expect(!r.text.contains(",=HYPERLINK"))
        }
    }
}
