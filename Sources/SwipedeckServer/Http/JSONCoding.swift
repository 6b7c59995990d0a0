import Foundation
import Hummingbird

/// JSON responses with one shared encoder configuration.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        let data = encode(value)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `value` as JSON with the shared settings; `{}` if it cannot be encoded (none of the
    /// app's response types can fail: they hold strings, numbers and arrays of them).
    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    struct ErrorBody: Encodable {
        struct Inner: Encodable {
            let code: String
            let message: String
        }
        let error: Inner
    }

    static func error(_ e: ApiError) -> Response {
        make(ErrorBody(error: .init(code: e.code, message: e.message)), status: e.status)
    }
}
