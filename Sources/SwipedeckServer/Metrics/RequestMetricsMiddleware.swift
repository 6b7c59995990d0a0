import Dispatch
import Hummingbird
import Metrics
import Synchronization

/// Counts every request and records its latency by route, method and status, through the app's
/// `AppMetrics` factory. Hummingbird's `MetricsMiddleware` does the same through the
/// process-global `MetricsSystem`, which tests cannot give a registry of their own; this is its
/// pattern on a passed factory. The latency is until the response is ready to write (its head):
/// a live results stream would otherwise count as a request of hours.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let metrics: AppMetrics
    private let cache = Cache()

    init(metrics: AppMetrics) {
        self.metrics = metrics
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = DispatchTime.now().uptimeNanoseconds
        func record(_ status: Int) {
            let series = cache.series(
                route: context.endpointPath, method: request.method, status: status, factory: metrics.metricsFactory)
            series.count.increment()
            series.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
        }
        do {
            let response = try await next(request, context)
            record(response.status.code)
            return response
        } catch {
            // Errors that escape every middleware: Hummingbird answers them by their status, else 500.
            record((error as? any HTTPResponseError)?.status.code ?? 500)
            throw error
        }
    }

    /// One counter and one timer per route, method and status, made once.
    final class Cache: Sendable {
        struct Key: Hashable {
            let route: String
            let method: String
            let status: Int
        }

        struct Series: Sendable {
            let count: Counter
            let duration: Timer
        }

        private let series = Mutex<[Key: Series]>([:])

        func series(route: String?, method: HTTPRequest.Method, status: Int, factory: any MetricsFactory) -> Series {
            let key = Key(route: route ?? "none", method: method.rawValue, status: status)
            return series.withLock { all in
                if let s = all[key] { return s }
                let dimensions = [("route", key.route), ("method", key.method), ("status", String(key.status))]
                let s = Series(
                    count: Counter(label: "http_server_requests_total", dimensions: dimensions, factory: factory),
                    duration: Timer(
                        label: "http_server_request_duration_seconds", dimensions: dimensions, factory: factory))
                all[key] = s
                return s
            }
        }
    }
}
