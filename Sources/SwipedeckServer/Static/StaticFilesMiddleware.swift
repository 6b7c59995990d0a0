import Foundation
import Hummingbird
import HTTPTypes

/// Answers `GET`/`HEAD` of static paths from the `StaticAssets` table: hashed URLs cached for a
/// year as immutable, plain URLs revalidated (`no-cache` + ETag, 304 on a match), gzip when the
/// client takes it. Any other request, and a static path not in the table, goes on to the router.
///
/// A path with a dot segment (`..` or `.`, also percent-encoded) is refused with 400
/// `invalid_path` whatever it names: no route takes one, and a file lookup must never see one.
struct StaticFilesMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let immutable = "public, max-age=31536000, immutable"
    let assets: StaticAssets

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if Self.hasDotSegment(path) {
            throw ApiError.invalidField(code: "invalid_path", message: "A URL path may not contain . or .. segments.")
        }
        guard request.method == .get || request.method == .head, StaticAssets.isStaticPath(path),
              let (asset, hashed) = assets.lookup(path)
        else { return try await next(request, context) }
        let gzip = asset.gzipped != nil && AcceptEncoding.allowsGzip(request.headers[.acceptEncoding])
        // Each encoding is its own representation, with its own strong ETag.
        let etag = gzip ? String(asset.etag.dropLast()) + "-gzip\"" : asset.etag
        var headers: HTTPFields = [
            .contentType: asset.contentType, .eTag: etag, .cacheControl: hashed ? Self.immutable : "no-cache",
        ]
        if asset.gzipped != nil { headers[.vary] = "Accept-Encoding" }
        if let match = request.headers[.ifNoneMatch], match.split(separator: ",").contains(where: {
            $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*"
        }) {
            return Response(status: .notModified, headers: headers)
        }
        if gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: gzip ? asset.gzipped! : asset.body))
    }

    /// Whether `path` has a `.` or `..` segment, decoding `%2e` first.
    static func hasDotSegment(_ path: String) -> Bool {
        let decoded = path.replacingOccurrences(of: "%2e", with: ".", options: .caseInsensitive)
        return decoded.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." }
    }
}
