import Foundation
import Hummingbird

/// JSON responses with one shared encoder configuration.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
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
