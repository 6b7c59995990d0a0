import CoreMetrics
import Foundation
import Prometheus
import Synchronization

/// The server's own metrics, exported at `GET /metrics` (Prometheus text format).
///
/// Every metric is created through a `PrometheusMetricsFactory` over the `registry` passed in,
/// never through the process-global `MetricsSystem`: the CLI bootstraps that once with the same
/// registry (so library metrics land there too), while each test passes a fresh registry and
/// reads exactly its own app's figures.
///
/// Exported (names after the factory's sanitising):
/// - `http_server_requests_total{route,method,status}` and
///   `http_server_request_duration_seconds{route,method,status}` (histogram): every request;
///   `route` is the matched route pattern (`/api/v1/decks/{deck}/swipes`), `NotFound` for an
///   unknown path, `none` for static files, so paths never make new series.
/// - `swipedeck_swipes_stored_total`: swipe rows written (inserted, not replayed).
/// - `swipedeck_swipes_refused_total{code}`: swipes refused, by the `ApiError` code of the answer.
/// - `swipedeck_swipes_suspect_total{reason}`: stored swipes flagged suspect, by reason.
/// - `swipedeck_swipe_batch_size` (histogram): items per group-commit transaction.
/// - `swipedeck_swipe_commit_duration_seconds` (histogram): one group-commit transaction.
/// - `swipedeck_live_streams_open`: live results streams open now (set when scraped).
/// - `swipedeck_swipe_writer_queued`: swipes waiting for the next group commit (set when scraped).
/// - `swipedeck_swipe_writer_busy`: 1 while a group-commit transaction holds the database's
///   writer (SQLite's single writer, one PostgreSQL connection), else 0 (set when scraped). The
///   stores do not expose their connection pools' use; this is the write path's share of it.
public final class AppMetrics: Sendable {
    /// Where every metric is kept; `GET /metrics` writes it out.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    let swipesStored: CoreMetrics.Counter
    let batchSize: CoreMetrics.Recorder
    let commitDuration: CoreMetrics.Timer
    let liveStreams: CoreMetrics.Gauge
    let writerQueued: CoreMetrics.Gauge
    let writerBusy: CoreMetrics.Gauge
    /// Labelled counters made so far, by label and label value.
    private let labelled = Mutex<[String: CoreMetrics.Counter]>([:])

    /// Upper bounds of the batch-size histogram, items: 1 (a quiet server) up to 256 (`maxBatch`'s default).
    static let batchBuckets: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]
    /// Upper bounds of the latency histograms: 0.5 ms to 10 s, a commit's and a request's range.
    static let durationBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5),
        .seconds(10),
    ]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.durationBuckets
        factory.valueHistogramBuckets = ["swipedeck_swipe_batch_size": Self.batchBuckets]
        self.factory = factory
        swipesStored = CoreMetrics.Counter(label: "swipedeck_swipes_stored_total", factory: factory)
        batchSize = CoreMetrics.Recorder(label: "swipedeck_swipe_batch_size", factory: factory)
        commitDuration = CoreMetrics.Timer(label: "swipedeck_swipe_commit_duration_seconds", factory: factory)
        liveStreams = CoreMetrics.Gauge(label: "swipedeck_live_streams_open", factory: factory)
        writerQueued = CoreMetrics.Gauge(label: "swipedeck_swipe_writer_queued", factory: factory)
        writerBusy = CoreMetrics.Gauge(label: "swipedeck_swipe_writer_busy", factory: factory)
    }

    /// The factory for metrics created elsewhere in the app (same registry).
    public var metricsFactory: any MetricsFactory { factory }

    /// One group commit: its size, how long the transaction took, and the rows it wrote.
    func recordCommit(items: Int, duration: Duration, stored: [Swipe]) {
        batchSize.record(items)
        commitDuration.recordNanoseconds(duration.nanoseconds)
        swipesStored.increment(by: stored.count)
        for swipe in stored where swipe.suspect {
            counter(label: "swipedeck_swipes_suspect_total", key: "reason", value: swipe.suspectReason ?? "unknown")
                .increment()
        }
    }

    /// A swipe answered with an error: `code` is the answer's `ApiError.code`.
    func recordRefusal(code: String) {
        counter(label: "swipedeck_swipes_refused_total", key: "code", value: code).increment()
    }

    private func counter(label: String, key: String, value: String) -> CoreMetrics.Counter {
        labelled.withLock { counters in
            let name = label + "\u{1F}" + value
            if let c = counters[name] { return c }
            let c = CoreMetrics.Counter(label: label, dimensions: [(key, value)], factory: factory)
            counters[name] = c
            return c
        }
    }
}

extension Duration {
    /// Whole nanoseconds (saturating; a commit never lasts 292 years).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
