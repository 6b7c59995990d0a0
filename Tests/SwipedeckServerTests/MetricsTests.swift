import Foundation
import HTTPTypes
import HummingbirdTesting
import Prometheus
import Testing

@testable import SwipedeckServer

/// `GET /metrics`: off without a token, Bearer-only, and figures that match the database.
@Suite("Metrics")
struct MetricsTests {
    static let token = "metrics-token-0123456789abcdef"
    static let bearer: HTTPFields = [.authorization: "Bearer \(token)"]

    @Test("without --metrics-token /metrics is 404")
    func offByDefault() async throws {
        try await withApp { client, _ in
            let r = try await client.get("/metrics", headers: Self.bearer)
            #expect(r.status == .notFound)
        }
    }

    @Test("with a token: no Authorization or another token is 401 unauthorized (JSON); the token is 200 text")
    func bearerOnly() async throws {
        try await withApp({ $0.metricsToken = Self.token }) { client, _ in
            expectAPIError(try await client.get("/metrics"), .unauthorized, "unauthorized")
            expectAPIError(
                try await client.get("/metrics", headers: [.authorization: "Bearer \(Self.token)x"]), .unauthorized,
                "unauthorized")
            expectAPIError(
                try await client.get("/metrics", headers: [.authorization: "Bearer \(adminToken)"]), .unauthorized,
                "unauthorized")
            let r = try await client.get("/metrics", headers: Self.bearer)
            #expect(r.status == .ok)
            #expect(r.contentType.hasPrefix("text/plain"))
        }
    }

    @Test("the swipe counter equals the rows written; refusals by code, batches, requests by route and status")
    func swipeCounterMatchesRows() async throws {
        let registry = PrometheusCollectorRegistry()
        try await withApp({ $0.metricsToken = Self.token }, metricsRegistry: registry) { client, env in
            let ids = try await client.makeDeck("m", titles: ["a", "b", "c"])
            var created = 0
            for (i, card) in ids.enumerated() {
                for person in ["p\(i)a", "p\(i)b"] {
                    let r = try await client.swipe(
                        "m", card: card, direction: "right", participant: person, key: "k-\(person)")
                    #expect(r.status == .created)
                    created += 1
                }
            }
            // A machine-like drag is stored, flagged suspect.
            #expect(
                try await client.swipe(
                    "m", card: ids[0], direction: "right", trace: machineDrag(), participant: "bot", key: "bot-1"
                ).status == .created)
            created += 1
            // A replay stores nothing; a second swipe on the same card is refused in the transaction.
            #expect(
                try await client.swipe("m", card: ids[0], direction: "right", participant: "p0a", key: "k-p0a").status
                    == .created)
            expectAPIError(
                try await client.swipe(
                    "m", card: ids[0], direction: "left", trace: leftDrag(), participant: "p0a", key: "other"),
                .conflict, "already_swiped")
            expectAPIError(
                try await client.swipe(
                    "m", card: ids[0], direction: "up", input: "button", trace: nil, participant: "p9"), .badRequest,
                "direction_not_enabled")

            let rows = try await env.count("SELECT COUNT(*) FROM swipes")
            #expect(rows == created)
            let text = try await client.get("/metrics", headers: Self.bearer).text
            #expect(Self.value(text, "swipedeck_swipes_stored_total") == Double(rows))
            #expect(Self.value(text, #"swipedeck_swipes_refused_total{code="already_swiped"}"#) == 1)
            #expect(Self.value(text, #"swipedeck_swipes_refused_total{code="direction_not_enabled"}"#) == 1)
            let suspects = try await env.count("SELECT COUNT(*) FROM swipes WHERE suspectReason = 'machine_like_trace'")
            #expect(suspects == 1)
            #expect(
                Self.value(text, #"swipedeck_swipes_suspect_total{reason="machine_like_trace"}"#) == Double(suspects))
            // Every item the writer took is in a batch: the rows, the replay and the refusal decided
            // inside a transaction (the unknown direction is refused before the writer).
            #expect(Self.value(text, "swipedeck_swipe_batch_size_sum") == Double(rows + 2))
            #expect((Self.value(text, "swipedeck_swipe_commit_duration_seconds_count") ?? 0) >= 1)
            #expect(
                Self.value(
                    text, #"http_server_requests_total{route="/api/v1/decks/{deck}/swipes",method="POST",status="201"}"#
                ) == Double(created + 1))  // + the replay
            #expect(Self.value(text, "swipedeck_live_streams_open") == 0)
        }
    }

    /// The value of the sample whose name and labels are exactly `series`, nil when absent.
    static func value(_ text: String, _ series: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }
}
