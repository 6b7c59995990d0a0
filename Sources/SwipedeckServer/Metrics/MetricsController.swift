import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /metrics`: the Prometheus text format, for a scraper holding the metrics token.
///
/// Registered only when a token is configured (`--metrics-token`), so without one the path is a
/// plain 404. A request without `Authorization: Bearer <token>`, or with another token, gets 401
/// `unauthorized`; the token is compared as SHA-256 digests in constant time.
struct MetricsController {
    let metrics: AppMetrics
    /// SHA-256 of the metrics token (hex).
    let tokenHash: String
    let live: LiveResults
    let writer: SwipeWriter

    func register(on router: Router<AppRequestContext>) {
        router.get("/metrics", use: scrape)
    }

    @Sendable func scrape(_ request: Request, context: AppRequestContext) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            Secret.constantTimeEqual(Secret.sha256(String(header.dropFirst(7))), tokenHash)
        else {
            // JSON for a scraper, although /metrics is not under /api/ (where ErrorMiddleware picks JSON).
            return try ApiError.unauthorized.response(from: request, context: context)
        }
        // Figures that are a state, not an event: read now.
        metrics.liveStreams.record(live.openStreams)
        let (queued, busy) = await writer.load
        metrics.writerQueued.record(queued)
        metrics.writerBusy.record(busy ? 1 : 0)
        var body: [UInt8] = []
        metrics.registry.emit(into: &body)
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
