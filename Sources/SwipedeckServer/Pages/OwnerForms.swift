import Foundation
import Hummingbird

/// Reading the owner's HTML forms: URL-encoded bodies (at most 64 KiB), and the cross-site
/// check every owner form passes: a hidden `csrf` field equal to a token derived from the
/// session, on top of the SameSite=Strict cookie and `SameOriginMiddleware`.
enum OwnerForms {
    struct Empty: Decodable {}

    /// The form's token for a session: SHA-256 of the session's stored hash (the cookie's token
    /// never leaves the cookie; the hash never leaves the server but through this).
    static func csrfToken(_ context: AppRequestContext) -> String {
        guard case .owner(_, _, let session?) = context.owner else { return "" }
        return Secret.sha256("csrf:" + session)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let body = try await request.body.collect(upTo: 64 * 1024)
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: String(buffer: body))
        } catch {
            throw ApiError.invalidField(
                code: "invalid_form", message: "The form is missing a field or has one of the wrong kind.")
        }
    }

    struct Token: Decodable { var csrf: String? }

    /// An owner form's fields after the session and token checks: name → values in order
    /// (checkbox groups repeat a name). Bodies up to `limit` bytes (default 64 KiB; 413 above).
    static func fields(_ request: Request, _ context: AppRequestContext, limit: Int = 64 * 1024) async throws
        -> FormFields
    {
        guard case .owner(_, _, _?) = context.owner else { throw ApiError.unauthorized }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limit)
        } catch {
            throw ApiError.tooLarge(limit)
        }
        let form = FormFields(String(buffer: body))
        guard Secret.constantTimeEqual(form["csrf"] ?? "", csrfToken(context)) else {
            throw ApiError.crossOrigin
        }
        return form
    }

    /// Decodes an owner form after checking the session and its token.
    /// - Throws: 401 without a signed-in owner, 403 `cross_origin` when the token is wrong.
    static func checked<T: Decodable>(_ type: T.Type, _ request: Request, _ context: AppRequestContext) async throws
        -> T
    {
        guard case .owner(_, _, _?) = context.owner else { throw ApiError.unauthorized }
        return try await checked(type, request, token: csrfToken(context))
    }

    /// Decodes a form whose hidden `csrf` field must equal `token` (the caller has decided who
    /// sends it: `Presenter.csrf` on the big screen's controls).
    /// - Throws: 403 `cross_origin` when the field is missing or wrong, 400 `invalid_form`.
    static func checked<T: Decodable>(_ type: T.Type, _ request: Request, token: String) async throws -> T {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let text = String(buffer: body)
        // A form that does not decode has no token: refused below as cross-origin, like a wrong one.
        let sent = (try? URLEncodedFormDecoder().decode(Token.self, from: text))?.csrf ?? ""
        guard !token.isEmpty, Secret.constantTimeEqual(sent, token) else { throw ApiError.crossOrigin }
        do {
            return try URLEncodedFormDecoder().decode(T.self, from: text)
        } catch {
            throw ApiError.invalidField(
                code: "invalid_form", message: "The form is missing a field or has one of the wrong kind.")
        }
    }
}
