import Foundation
import Hummingbird

/// The app's one JSON encoder configuration, for every JSON body it writes: API responses
/// (`AppRequestContext.responseEncoder`), error bodies, live results events, exports.
enum JSONCoding {
    /// Keys sorted (a body is the same bytes for the same value: tests, caches and the live
    /// stream's events compare them) and slashes unescaped (URLs read as written).
    static let outputFormatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]

    /// A new encoder with the app's settings.
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = outputFormatting
        return encoder
    }

    /// The encoder every request context answers with (configured once; encoding does not
    /// change an encoder, so requests share it).
    static let shared = encoder()
}

/// `{"error":{"code":"…","message":"…"}}`: the body of every API error.
struct ErrorBody: Encodable {
    struct Inner: Encodable {
        let code: String
        let message: String
    }
    let error: Inner

    init(_ error: ApiError) {
        self.error = Inner(code: error.code, message: error.message)
    }
}

extension ApiError: HTTPResponseError {
    /// The headers an error answer carries on top of its body: `Retry-After` for errors that
    /// pass with time, `Connection: close` after a body the parser could not frame (it cannot
    /// find the next request on that connection).
    var headers: HTTPFields {
        var fields: HTTPFields = [:]
        if let seconds = retryAfter { fields[.retryAfter] = String(seconds) }
        if self == .malformedBody { fields[.connection] = "close" }
        return fields
    }

    /// The JSON answer: `status`, `headers` and `ErrorBody`, written by the context's
    /// `responseEncoder`. Whether a client gets this or the HTML error page is decided by
    /// `ErrorMiddleware.prefersJSON`.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try context.responseEncoder.encode(ErrorBody(self), from: request, context: context)
        response.status = status
        response.headers.append(contentsOf: headers)
        return response
    }
}
