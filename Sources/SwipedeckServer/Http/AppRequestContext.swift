import Foundation
import Hummingbird
import NIOCore

/// Request context: the client (address, scheme, host), the participant (from the cookie or
/// freshly assigned) and the owner.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The browser's device credential from the `sd_pid` cookie, checked (set by
    /// `ParticipantMiddleware`); each deck derives its own identity from it.
    public var participant: ParticipantCredential?
    /// True when `participant` was just assigned (the request carried no cookie): such a
    /// credential identifies nobody yet, so it is not part of a request's idempotency fingerprint.
    public var participantIsNew = false
    /// True when the request carried a participant cookie this server did not issue (forged,
    /// altered, expired, retired, or signed with another secret): a swipe relying on it is refused 403.
    public var participantRejected = false
    /// Seconds until this client's network may join again, when the join budget (`JoinBudget`)
    /// refused to mint a device credential on this page view (`ParticipantMiddleware`); nil otherwise.
    public var joinWait: Int?
    /// Admissions to decks that take invited people only, by deck id (`sd_d<id>` cookies, checked).
    public var deckCredentials: [Int64: ParticipantCredential] = [:]
    /// Who manages decks on this request: the admin token, or an owner by session or API token.
    public var owner: OwnerIdentity?
    /// The owner signed in by session, on owner pages (set by `SessionOwnerMiddleware`).
    public var sessionOwner: SessionOwner?
    /// Who runs the deck's big screen, on its presenter routes (set by `PresenterMiddleware`).
    public var presenter: Presenter?
    /// The socket peer's IP address (a reverse proxy's, behind one); nil in router tests.
    public let peerAddress: String?
    /// The client's IP address, for rate limits, join budgets, sign-in limits and logs: the peer,
    /// or the address a trusted proxy forwarded for (`ClientMiddleware`); nil in router tests.
    public var remoteAddress: String?
    /// The client reached the server over HTTPS (`ClientOrigin.https`).
    public var isHTTPS = false
    /// The host the client asked for (`ClientOrigin.host`), for same-origin checks and links.
    public var host: String?

    /// Every handler's model, and every API error, is written by this encoder (`JSONCoding`).
    public var responseEncoder: JSONEncoder { JSONCoding.shared }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        remoteAddress = peerAddress
    }
}

extension AppRequestContext {
    /// Every participant credential the browser sent.
    var cookies: ParticipantCookies {
        ParticipantCookies(device: participant, decks: deckCredentials, rejected: participantRejected)
    }

    /// The client's network (`ClientNetwork.key` of the peer address); nil in router tests.
    var network: String? { remoteAddress.map(ClientNetwork.key) }

    /// The cookie credential's signed body, unless it was assigned by this very request (a part
    /// of the idempotency fingerprint: the same body from another browser is another request).
    var knownParticipant: String? { participantIsNew ? nil : participant?.body }
}
