import CoreMetrics

/// The webhooks' counters, in the app's registry (`AppMetrics.metricsFactory`):
/// - `swipedeck_webhook_deliveries_sent_total`: attempts a target answered with a 2xx.
/// - `swipedeck_webhook_attempts_failed_total`: attempts that failed (another status, no
///   answer, a refused address); most are tried again.
/// - `swipedeck_webhook_deliveries_failed_total`: deliveries given up after 24 h of failures.
public struct WebhookMetrics: Sendable {
    let sent: CoreMetrics.Counter
    let attemptsFailed: CoreMetrics.Counter
    let failed: CoreMetrics.Counter

    public init(factory: any MetricsFactory) {
        sent = CoreMetrics.Counter(label: "swipedeck_webhook_deliveries_sent_total", factory: factory)
        attemptsFailed = CoreMetrics.Counter(label: "swipedeck_webhook_attempts_failed_total", factory: factory)
        failed = CoreMetrics.Counter(label: "swipedeck_webhook_deliveries_failed_total", factory: factory)
    }
}
