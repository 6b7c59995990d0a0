import Hummingbird

/// 429 with `Retry-After` when a participant or an IP exceeds its budget of state-changing
/// requests. Reads go unlimited.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let perParticipant: RateLimiter
    let perIP: RateLimiter
    /// Seconds since 1970 (the app's clock, so tests control the refill).
    let clock: @Sendable () -> Double

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method == .get || request.method == .head { return try await next(request, context) }
        let now = clock()
        if let ip = context.remoteAddress, let wait = perIP.take("ip:" + ip, now: now) { throw ApiError.rateLimited(retryAfter: wait) }
        if let p = context.participant, let wait = perParticipant.take("p:" + p, now: now) { throw ApiError.rateLimited(retryAfter: wait) }
        return try await next(request, context)
    }
}
