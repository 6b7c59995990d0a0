import HTTPTypes
import Hummingbird

/// The outermost middleware: learns who the client is (`ClientOrigin`: the forwarded address,
/// scheme and host when the peer is a trusted proxy) and, over HTTPS, hardens the cookies.
///
/// Over HTTPS every cookie the server sets (all named `sd_…`) gets `Secure` and the `__Host-`
/// prefix (all are `Path=/` without a `Domain`, so the browser accepts it only from this very
/// origin over HTTPS; under a `--base-path` the path is not `/`, so `__Secure-`); on the way in
/// the prefix is removed again, so the rest of the server
/// sees the plain names, and an unprefixed `sd_…` cookie (one a plain-HTTP page or a sibling
/// domain could have planted) is dropped. With `hsts`, HTTPS answers carry
/// `Strict-Transport-Security`.
struct ClientMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let trusted: TrustedProxies
    /// The configured public URL is https.
    let publicHTTPS: Bool
    /// Send `Strict-Transport-Security` on HTTPS answers (`--hsts`).
    let hsts: Bool
    /// The prefix a cookie set over HTTPS carries on the wire: `hostPrefix`, or `securePrefix`
    /// when cookies are scoped to a sub-path.
    let cookiePrefix: String

    /// Bound to this origin and `Path=/`.
    static let hostPrefix = "__Host-"
    /// Sent over HTTPS only, any path.
    static let securePrefix = "__Secure-"
    /// One year, as browsers' preload lists ask for.
    static let hstsValue = "max-age=31536000"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let origin = ClientOrigin.resolve(
            // HTTP/1.1 carries the host as a `Host` field; HTTP/2 and the NIO HTTP/1 codec as `:authority`.
            peer: context.peerAddress, authority: request.headers[.init("Host")!] ?? request.head.authority,
            headers: request.headers, trusted: trusted, publicHTTPS: publicHTTPS)
        context.remoteAddress = origin.address
        context.isHTTPS = origin.https
        context.host = origin.host
        guard origin.https else { return try await next(request, context) }
        var head = request.head
        head.headerFields = Self.inbound(head.headerFields, prefix: cookiePrefix)
        var response = try await next(Request(head: head, body: request.body), context)
        response.headers = Self.outbound(response.headers, prefix: cookiePrefix)
        if hsts { response.headers[.strictTransportSecurity] = Self.hstsValue }
        return response
    }

    /// The request's cookies as the server names them: `__Host-sd_x` read as `sd_x`, a bare `sd_x` dropped.
    static func inbound(_ fields: HTTPFields, prefix hostPrefix: String) -> HTTPFields {
        var out = fields
        out[values: .cookie] = fields[values: .cookie].map { header in
            header.split(separator: ";").compactMap { pair -> String? in
                // Spaces and tabs, as the cookie parser trims them (a tab must not sneak a bare name in).
                let trimmed = pair.drop { $0 == " " || $0 == "\t" }
                if trimmed.hasPrefix(hostPrefix + "sd_") { return String(trimmed.dropFirst(hostPrefix.count)) }
                return trimmed.hasPrefix("sd_") ? nil : String(trimmed)
            }.joined(separator: "; ")
        }.filter { !$0.isEmpty }
        return out
    }

    /// The response's `sd_…` cookies with the `__Host-` prefix and `Secure`.
    static func outbound(_ fields: HTTPFields, prefix hostPrefix: String) -> HTTPFields {
        var out = fields
        out[values: .setCookie] = fields[values: .setCookie].map { cookie in
            cookie.hasPrefix("sd_") ? hostPrefix + cookie + "; Secure" : cookie
        }
        return out
    }
}
