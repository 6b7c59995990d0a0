import HTTPTypes
import Hummingbird

/// Serves the whole app under a sub-path (`--base-path /decks`), for a proxy that forwards
/// `https://example.org/decks/…` with the prefix kept. It wraps the router's responder (the
/// router picks a route before any middleware runs).
///
/// - On the way in a request's path loses the prefix, so routes, static files and every rule
///   that reads a path see the paths they always see. A path outside the prefix is a 404 (but
///   `/healthz`, for a local probe); the bare prefix redirects to the prefix with a slash.
/// - On the way out a root-relative `Location` and every cookie's `Path=/` gain the prefix.
///   Pages carry it in their links already (`PageRenderer`), scripts read it from the page
///   (`data-root`), stylesheets name images relative to themselves.
public struct BasePathResponder<Inner: HTTPResponder>: HTTPResponder where Inner.Context == AppRequestContext {
    public typealias Context = AppRequestContext
    /// `/decks`: a leading slash, no trailing one (`AppConfiguration.basePath`); empty: the root,
    /// and requests pass as they are.
    let basePath: String
    let inner: Inner

    public func respond(to request: Request, context: Context) async throws -> Response {
        if basePath.isEmpty { return try await inner.respond(to: request, context: context) }
        let target = request.head.path ?? "/"
        let path = request.uri.path
        if path == basePath {
            let query = target.dropFirst(path.count)
            return Response(status: .permanentRedirect, headers: [.location: basePath + "/" + query])
        }
        // The health check answers at the root too, for a probe inside the host or container.
        if path == "/healthz" { return try await inner.respond(to: request, context: context) }
        guard path.hasPrefix(basePath + "/") else {
            return try ApiError.notFound("page").response(from: request, context: context)
        }
        var head = request.head
        head.path = String(target.dropFirst(basePath.count))
        var response = try await inner.respond(to: Request(head: head, body: request.body), context: context)
        if let location = response.headers[.location], location.hasPrefix("/"), !location.hasPrefix("//") {
            response.headers[.location] = basePath + location
        }
        response.headers[values: .setCookie] = response.headers[values: .setCookie].map { cookie in
            cookie.replacingOccurrences(of: "; Path=/;", with: "; Path=\(basePath);")
                .replacingOccurrences(of: "; Path=/", with: "; Path=\(basePath)", options: .anchored.union(.backwards))
        }
        return response
    }
}

/// `--base-path` values.
public enum BasePath {
    /// Whether `path` is a sub-path `--base-path` takes: `/` and one or more segments of letters,
    /// digits, `-`, `_`, `.` and `~`, no trailing slash (`/decks`, `/team/votes`).
    public static func isValid(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.hasSuffix("/") else { return false }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".."
                && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }
        }
    }
}
