import Hummingbird

/// 429 with `Retry-After` when an IP exceeds its budget of state-changing requests. Reads go
/// unlimited. A participant's budget counts decisions, not requests: every swipe, batch item,
/// undo and flip takes one from the identity it acts as (`SwipeService.takeDecision`), whether
/// the cookie or the body names the participant.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let perIP: RateLimiter
    /// Seconds since 1970 (the app's clock, so tests control the refill).
    let clock: @Sendable () -> Double

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.method == .get || request.method == .head { return try await next(request, context) }
        let now = clock()
        if let ip = context.remoteAddress, let wait = perIP.take("ip:" + ip, now: now) {
            throw ApiError.rateLimited(retryAfter: wait)
        }
        return try await next(request, context)
    }
}
