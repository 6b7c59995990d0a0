import Foundation
import HTTPTypes
import HummingbirdTesting
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// One idempotency fingerprint (`SwipeFingerprint`) for a swipe sent alone or in a batch.
@Suite("API: idempotency")
struct IdempotencyTests {
    static let key = HTTPField.Name("Idempotency-Key")!

    @Test(
        "a swipe sent alone, then as a batch item under the same key (other spelling), is replayed; another request is not"
    )
    func singleThenBatch() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a", "b"])
            let alone = try swipeBody(card: ids[0], direction: "right", participant: "idem", decisionMs: 640)
            let first = try await client.postJSON(
                "/api/v1/decks/d/swipes", "  " + alone + "\n", headers: [Self.key: "same-1"])
            #expect(first.status == .created)
            let item = try swipeBody(
                card: ids[0], direction: "right", participant: "idem", decisionMs: 640, key: "same-1")
            let other = try swipeBody(
                card: ids[1], direction: "right", participant: "idem", decisionMs: 640, key: "same-1")
            let r = try await client.postJSON("/api/v1/decks/d/swipes/batch", #"{"swipes":[\#(item),\#(other)]}"#)
            let results = try r.json()["results"].array
            #expect(results.map { $0["status"].int } == [201, 422])
            #expect(results[0]["replayed"].bool == true)
            #expect(results[1]["error"]["code"].string == "idempotency_mismatch")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 1)
        }
    }

    @Test("a batch item, then the same swipe alone under its key, is replayed")
    func batchThenSingle() async throws {
        try await withApp { client, env in
            let ids = try await client.makeDeck("d", titles: ["a"])
            let item = try swipeBody(card: ids[0], direction: "right", participant: "idem2", key: "same-2")
            let r = try await client.postJSON("/api/v1/decks/d/swipes/batch", #"{"swipes":[\#(item)]}"#)
            #expect(try r.json()["results"].array.map { $0["status"].int } == [201])
            let alone = try swipeBody(card: ids[0], direction: "right", participant: "idem2")
            let again = try await client.postJSON("/api/v1/decks/d/swipes", alone, headers: [Self.key: "same-2"])
            #expect(again.status == .created)
            #expect(again.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            #expect(try await env.count("SELECT COUNT(*) FROM swipes") == 1)
        }
    }

    @Test("every store refusal maps to its API error")
    func storeErrorMapping() {
        let cases: [(StoreError, String, HTTPResponse.Status)] = [
            (.notFound(.deck), "not_found", .notFound), (.slugTaken, "slug_taken", .conflict),
            (.ownerNameTaken, "owner_name_taken", .conflict), (.notYourSwipe, "not_your_swipe", .forbidden),
            (.alreadyUndone, "already_undone", .conflict), (.alreadySwiped, "already_swiped", .conflict),
            (.quotaReached(3), "quota_reached", .conflict),
            (.idempotencyMismatch, "idempotency_mismatch", .unprocessableContent),
        ]
        for (error, code, status) in cases {
            #expect(ApiError(error).code == code, "\(error)")
            #expect(ApiError(error).status == status, "\(error)")
            #expect(ApiError.of(error) == ApiError(error))
        }
        #expect(ApiError(.notFound(.card)) == .notFound("card"))
        #expect(ApiError(.quotaReached(3)) == .quotaReached(3))
        #expect(ApiError.of(StorageError.unreachable("x")) == nil)
    }
}
