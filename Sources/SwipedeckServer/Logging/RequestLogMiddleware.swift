import Dispatch
import HTTPTypes
import Hummingbird
import Logging

/// With `--log-format json`: gives every request an id and logs one access line per request.
///
/// The id is the incoming `X-Request-Id` when it is sane (1–128 characters of A–Z, a–z, 0–9,
/// `.`, `_`, `:`, `-`; a proxy's id then ties its log to ours), else 16 random hex digits. It is
/// echoed in the response's `X-Request-Id` and added to the request's logger as `request_id`.
///
/// The access line (`"access"`, level info) carries `method`, `path` (without the query: it may
/// hold tokens), `status`, `duration_ms` (until the response head is ready) and `client` (the
/// client address the app uses, `context.remoteAddress`).
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let header = HTTPField.Name("X-Request-Id")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let id =
            request.headers[Self.header].flatMap { Self.isSane($0) ? $0 : nil } ?? String(Secret.token().prefix(16))
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            var response = try await next(request, context)
            response.headers[Self.header] = id
            access(request, context: context, status: response.status.code, start: start)
            return response
        } catch {
            access(
                request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500, start: start)
            throw error
        }
    }

    private func access(_ request: Request, context: Context, status: Int, start: UInt64) {
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
        context.logger.info(
            "access",
            metadata: [
                "method": .string(request.method.rawValue),
                "path": .string(request.uri.path),
                "status": .stringConvertible(status),
                "duration_ms": .string(String(format: "%.2f", ms)),
                "client": .string(context.remoteAddress ?? "-"),
            ])
    }

    /// Whether an incoming id can be logged and echoed as it is.
    static func isSane(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E
                    || c == 0x5F || c == 0x3A || c == 0x2D
            }
    }
}
