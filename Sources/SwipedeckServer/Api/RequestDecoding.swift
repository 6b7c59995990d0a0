import Foundation
import HTTPTypes
import Hummingbird

/// Reading request bodies and query parameters the same way on every API route: 415 unless
/// JSON, 413 over the size limit, 400 with the failing path for JSON that does not fit.
public struct RequestDecoding: Sendable {
    /// Largest accepted body, bytes.
    let maxBodyBytes: Int
    /// The memory all bodies being read may hold together.
    let budget: BodyBudget

    public init(maxBodyBytes: Int, budget: BodyBudget = BodyBudget(bytes: 0)) {
        self.maxBodyBytes = maxBodyBytes
        self.budget = budget
    }

    /// The body of a JSON route: 415 unless `Content-Type: application/json`, 413 over the limit,
    /// 503 `server_busy` when the bodies being read hold the whole `budget`.
    func collectJSONBody(_ request: Request) async throws -> ByteBuffer {
        guard let type = request.headers[.contentType], type.lowercased().hasPrefix("application/json") else {
            throw ApiError.unsupportedMediaType
        }
        let length = request.headers[.contentLength].flatMap(Int.init)
        if let length, length > maxBodyBytes { throw ApiError.tooLarge(maxBodyBytes) }
        let reserved = max(0, length ?? maxBodyBytes)
        guard budget.reserve(reserved) else { throw ApiError.bodiesBusy(retryAfter: 1) }
        defer { budget.release(reserved) }
        do {
            return try await request.body.collect(upTo: length ?? maxBodyBytes)
        } catch let e as HTTPError where e.status == .contentTooLarge {
            throw ApiError.tooLarge(maxBodyBytes)
        }
    }

    func decodeJSON<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        try Self.decode(type, try await collectJSONBody(request))
    }

    static func decode<T: Decodable>(_ type: T.Type, _ buffer: ByteBuffer) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: buffer)
        } catch let e as DecodingError {
            throw ApiError.malformedJSON(Self.describe(e))
        }
    }

    public static func describe(_ e: DecodingError) -> String {
        func path(_ c: DecodingError.Context) -> String {
            let p = c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return p.isEmpty ? "" : " at \(p)"
        }
        switch e {
        case .keyNotFound(let k, let c): return "missing field '\(k.stringValue)'\(path(c))"
        case .typeMismatch(_, let c): return "wrong type\(path(c))"
        case .valueNotFound(_, let c): return "null value\(path(c))"
        case .dataCorrupted(let c): return "invalid JSON\(path(c))"
        @unknown default: return "invalid JSON"
        }
    }

    /// A query parameter given at most once (nil when absent); a repeated one is a 400 `invalid_<name>`.
    static func query(_ request: Request, _ name: String) throws -> String? {
        let all = request.uri.queryParameters.getAll(name)
        if all.count > 1 { throw ApiError.invalidField(code: "invalid_\(name)", message: "\(name) may be given once.") }
        return all.first
    }

    /// An integer query parameter; absent gives the default, anything else (empty too) must be in range.
    static func intParam(_ s: String?, name: String, default d: Int, range: ClosedRange<Int>) throws -> Int {
        guard let s else { return d }
        guard let v = Int(s), range.contains(v) else {
            throw ApiError.invalidField(
                code: "invalid_\(name)",
                message: "\(name) must be an integer in \(range.lowerBound)…\(range.upperBound).")
        }
        return v
    }
}

extension HTTPTypes.HTTPField.Name {
    static let idempotencyKey = Self("Idempotency-Key")!
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}
