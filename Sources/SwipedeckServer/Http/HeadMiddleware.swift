import Hummingbird

/// Sends no body in answer to `HEAD`. Hummingbird's router has no implicit `HEAD`: the router is
/// built with `.autoGenerateHeadEndpoints`, which routes a `HEAD` to the path's `GET` handler, and
/// `FileMiddleware` answers `HEAD` for static files itself; but a `HEAD` that reaches no handler
/// (an unknown path, or a path without `GET`) gets the error page or JSON error of the matching
/// `GET`, body included. Installed first, this middleware keeps that response's status and headers
/// and drops its body, so every `HEAD` answers like its `GET` without the bytes. `Content-Length`
/// stays the GET body's length (every body here is one buffer, so its length is known).
struct HeadMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
