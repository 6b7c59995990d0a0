import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

/// Turns every error into an honest response: `ApiError` keeps its status and code, a
/// `StoreError` gets its mapped one (`ApiError.init(_: StoreError)`); the
/// router's own 404/405 and body-limit errors are mapped to ours; a body the HTTP/1.1 parser
/// refuses while a handler reads it (a damaged chunked encoding: NIO's `HTTPParserError`
/// surfaces from the body stream) is 400 `malformed_body` with `Connection: close` (the parser
/// cannot find the next request on that connection), and so is a connection the client closed
/// or reset mid-request (nothing to log); anything else is a logged 500 with code
/// `internal`. API paths get JSON; pages get the HTML error page.
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let renderer: PageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            let apiError = Self.map(error, request: request, logger: context.logger)
            if Self.prefersJSON(request) { return try apiError.response(from: request, context: context) }
            var page = renderer.errorPage(status: apiError.status, message: apiError.message, logger: context.logger)
            page.headers.append(contentsOf: apiError.headers)
            return page
        }
    }

    /// Whether an error is answered in JSON (`ApiError.response`) rather than as the HTML error
    /// page: API paths, the OpenAPI document, and any client that accepts JSON.
    static func prefersJSON(_ request: Request) -> Bool {
        request.uri.path.hasPrefix("/api/") || request.uri.path == "/openapi.json"
            || (request.headers[.accept]?.contains("application/json") ?? false)
    }

    static func map(_ error: any Error, request: Request, logger: Logger) -> ApiError {
        if let e = ApiError.of(error) { return e }
        if let e = error as? HTTPError {
            switch e.status.code {
            case 404: return .notFound("route")
            case 405: return .notFound("route for this method")
            case 413: return .tooLarge(0)
            case 400: return .malformedJSON(e.body ?? "bad request")
            default: break
            }
        }
        if error is HTTPParserError { return .malformedBody }
        // The client closed or reset the connection while its body was read (an upload aborted
        // by leaving the page): nobody reads the answer, and nothing went wrong here.
        if Self.isConnectionGone(error) {
            logger.debug("connection closed by the client mid-request", metadata: ["path": "\(request.uri.path)"])
            return .malformedBody
        }
        // A body collected with `collect(upTo:)` that outgrew the limit (chunked, no Content-Length).
        if let e = error as? NIOTooManyBytesError { return .tooLarge(e.maxBytes ?? 0) }
        if error is DecodingError { return .malformedJSON(String(describing: error).prefix(200).description) }
        logger.error("internal error", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
        return .internalError
    }

    /// Whether `error` says the peer went away: a reset or broken connection, or a channel
    /// closed under the handler.
    static func isConnectionGone(_ error: any Error) -> Bool {
        if let e = error as? IOError { return [ECONNRESET, EPIPE, ECONNABORTED].contains(e.errnoCode) }
        if let e = error as? ChannelError {
            switch e {
            case .ioOnClosedChannel, .eof, .inputClosed, .outputClosed, .alreadyClosed: return true
            default: return false
            }
        }
        return false
    }
}
