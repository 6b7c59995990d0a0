import HTTPTypes
import Hummingbird

/// Strict Content-Security-Policy on every response: scripts and styles from this origin only,
/// no inline script or style, no plugins, no framing; plus nosniff and a same-origin referrer.
struct SecurityHeadersMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let policy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; "
        + "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        return response
    }
}
