import Foundation
import Hummingbird

/// Identifies anonymous browser participants by a server-signed device credential in an
/// HttpOnly, SameSite=Lax cookie. Installed outside `ErrorMiddleware`, so an error response also
/// sets a new cookie.
///
/// - A credential the server issued and that has not expired is used as is.
/// - Any other cookie (forged, altered, expired, of the retired format) is ignored and flagged
///   (`participantRejected`): a swipe relying on it gets 403 `unknown_participant`; a page view
///   replaces it with a fresh one.
/// - A fresh credential is minted only for page views (GET or HEAD of a non-asset path), within
///   the join budget of the client's network (`JoinBudget`, which `POST …/participants` shares);
///   past it the page is served without one (a deck whose owner raised its join limit then
///   admits the visitor to that deck alone: `PageController.deckPage`). Static assets never
///   mint: a `Set-Cookie` would keep shared caches from storing them; nor does the way in by a
///   join code (`isWayIn`), nor a deck's stage stream (`isStage`).
struct ParticipantMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "sd_pid"
    let signer: ParticipantSigner
    let joins: JoinBudget
    let clock: @Sendable () -> Double

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        let now = clock()
        context.deckCredentials = Self.admissions(request, signer: signer, now: now)
        if let value = request.cookies[Self.cookieName]?.value {
            if case .valid(let credential) = signer.check(value, now: now) {
                context.participant = credential
                return try await next(request, context)
            }
            context.participantRejected = true
        }
        guard request.method == .get || request.method == .head, !Self.isAsset(request.uri.path),
            !Self.isWayIn(request.uri.path), !Self.isStage(request.uri.path)
        else {
            return try await next(request, context)
        }
        if let wait = try await joins.take(address: context.remoteAddress, deck: nil, now: now) {
            // The page says so in plain words and tries again after `wait` (PageController.deckPage).
            context.joinWait = wait
            return try await next(request, context)
        }
        let (fresh, credential) = signer.issue(.device, now: now)
        context.participant = credential
        context.participantIsNew = true
        context.participantRejected = false
        var response = try await next(request, context)
        response.setCookie(
            Cookie(
                name: Self.cookieName, value: fresh, maxAge: Int(ParticipantSigner.deviceLifetime), path: "/",
                httpOnly: true, sameSite: .lax))
        return response
    }

    /// The valid admissions among the request's `sd_d<deck id>` cookies, by deck id (a cookie
    /// whose credential is for another deck than its name says is ignored).
    static func admissions(_ request: Request, signer: ParticipantSigner, now: Double) -> [Int64: ParticipantCredential]
    {
        var found: [Int64: ParticipantCredential] = [:]
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop { $0 == " " }
                guard trimmed.hasPrefix("sd_d"), let equals = trimmed.firstIndex(of: "="),
                    let deckId = Int64(trimmed[trimmed.index(trimmed.startIndex, offsetBy: 4)..<equals]),
                    case .valid(let credential) = signer.check(
                        String(trimmed[trimmed.index(after: equals)...]), now: now),
                    case .deck(let id, _) = credential.scope, id == deckId & 0xFFFF_FFFF
                else { continue }
                found[deckId] = credential
            }
        }
        return found
    }

    /// `/j` and `/j/{code}`: a field and a redirect to a deck, whose page mints if it must. Minting
    /// there would only spend the join budget (a script sweeping `/j` from many networks drained
    /// the shared pool).
    static func isWayIn(_ path: String) -> Bool {
        path == "/j" || path.hasPrefix("/j/")
    }

    /// `/d/{deck}/stage`: a stream only a person the deck knows may follow (`StageController`); a
    /// credential minted for it would be refused by it all the same.
    static func isStage(_ path: String) -> Bool {
        path.hasPrefix("/d/") && path.hasSuffix("/stage")
    }

    /// Scripts, stylesheets (the per-profile stack CSS too), images (QR codes too), the OpenAPI
    /// document and the health check.
    static func isAsset(_ path: String) -> Bool {
        path.hasPrefix("/js/") || path.hasPrefix("/css/") || path.hasPrefix("/img/") || path.hasPrefix("/images/")
            || path.hasSuffix("/qr.svg") || path == "/openapi.json" || path == "/healthz"
    }
}
