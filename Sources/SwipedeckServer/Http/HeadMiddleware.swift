import Hummingbird

/// Sends no body in answer to `HEAD`. Hummingbird's router has no implicit `HEAD`, so it is built
/// with `.autoGenerateHeadEndpoints` (a `HEAD` runs the path's `GET` handler), and
/// `StaticFilesMiddleware` answers `HEAD` of static files as their `GET`; a `HEAD` that reaches no
/// handler (an unknown path, or a path without `GET`) gets the same error page or JSON error as
/// its `GET`, body included.
/// Installed first, this middleware keeps every `HEAD` response's status and headers and drops its
/// body. `Content-Length` stays the GET body's length: every body here is one buffer of known
/// length. (A streamed body of unknown length would be announced as 0 by `createHeadResponse`.)
struct HeadMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
