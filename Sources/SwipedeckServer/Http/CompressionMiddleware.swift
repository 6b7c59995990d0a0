import HTTPTypes
import Hummingbird
import NIOCore

/// gzip for HTML and JSON answers of at least `minimumBytes` when the client takes it (static
/// files come precompressed from `StaticFilesMiddleware`). Only bodies of known length are
/// compressed, so streams (the live results, exports) pass through untouched and at once.
struct CompressionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    /// Below about a kilobyte gzip saves less than a packet and costs a little CPU per request.
    static let minimumBytes = 1024

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        guard let length = response.body.contentLength, length >= Self.minimumBytes,
            response.headers[.contentEncoding] == nil,
            let type = response.headers[.contentType],
            type.hasPrefix("text/html") || type.hasPrefix("application/json"),
            AcceptEncoding.allowsGzip(request.headers[.acceptEncoding])
        else { return response }
        let collector = BodyCollector(capacity: length)
        try await response.body.write(collector)
        guard let compressed = Gzip.compress(collector.buffer) else {
            response.body = .init(byteBuffer: collector.buffer)
            return response
        }
        response.headers[.contentEncoding] = "gzip"
        response.headers[.contentLength] = nil
        response.headers[.vary] = response.headers[.vary].map { $0 + ", Accept-Encoding" } ?? "Accept-Encoding"
        response.body = .init(byteBuffer: compressed)
        return response
    }
}
