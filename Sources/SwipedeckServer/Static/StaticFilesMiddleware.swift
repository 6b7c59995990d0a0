import Foundation
import HTTPTypes
import Hummingbird

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

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
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
        if let match = request.headers[.ifNoneMatch],
            match.split(separator: ",").contains(where: {
                $0.trimmingCharacters(in: .whitespaces) == etag || $0.trimmingCharacters(in: .whitespaces) == "*"
            })
        {
            return Response(status: .notModified, headers: headers)
        }
        if gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: gzip ? asset.gzipped! : asset.body))
    }

    /// Whether `path` has a `.` or `..` segment, `%2e` (either case) counting as a dot. Runs on
    /// every request, so it scans the UTF-8 bytes once and allocates nothing.
    static func hasDotSegment(_ path: String) -> Bool {
        let bytes = path.utf8
        var index = bytes.startIndex
        var dots = 0
        var onlyDots = true
        while index != bytes.endIndex {
            let byte = bytes[index]
            var step = 1
            if byte == UInt8(ascii: "/") {
                if onlyDots && (dots == 1 || dots == 2) { return true }
                dots = 0
                onlyDots = true
            } else if byte == UInt8(ascii: ".") {
                dots += 1
            } else if byte == UInt8(ascii: "%"), Self.isEncodedDot(bytes[index...]) {
                dots += 1
                step = 3
            } else {
                onlyDots = false
            }
            index = bytes.index(index, offsetBy: step)
        }
        return onlyDots && (dots == 1 || dots == 2)
    }

    /// Whether `bytes` starts with `%2e` or `%2E`.
    private static func isEncodedDot(_ bytes: Substring.UTF8View) -> Bool {
        var iterator = bytes.makeIterator()
        _ = iterator.next()
        return iterator.next() == UInt8(ascii: "2") && (iterator.next().map { $0 | 0x20 } == UInt8(ascii: "e"))
    }
}
