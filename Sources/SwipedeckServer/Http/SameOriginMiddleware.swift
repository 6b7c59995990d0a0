import HTTPTypes
import Hummingbird

/// Refuses state-changing requests (POST, PUT, PATCH, DELETE) that a browser marks as coming
/// from another origin: an `Origin` header whose host is neither the host the client asked for
/// (`AppRequestContext.host`: `Host`, or a trusted proxy's forwarded host) nor the public URL's,
/// or `Sec-Fetch-Site: cross-site`. Requests without either header (curl, programs) carry no
/// ambient browser credentials and pass.
struct SameOriginMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// The host (and port) of the configured public URL, if any.
    let publicHost: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        switch request.method {
        case .get, .head, .options: return try await next(request, context)
        default: break
        }
        if let origin = request.headers[.origin] {
            let stripped = origin.replacingOccurrences(of: "https://", with: "").replacingOccurrences(
                of: "http://", with: "")
            if origin == "null" || (stripped != context.host && stripped != publicHost) { throw ApiError.crossOrigin }
        } else if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
            throw ApiError.crossOrigin
        }
        return try await next(request, context)
    }
}
