import Hummingbird
import NIOCore

/// Request context: the participant (from the cookie or freshly assigned) and the peer address.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The browser participant id from the `sd_pid` cookie (set by `ParticipantMiddleware`).
    public var participant: String?
    /// True when `participant` was just assigned (the request carried no cookie): such an id
    /// identifies nobody yet, so it is not part of a request's idempotency fingerprint.
    public var participantIsNew = false
    /// True when the request carried a participant cookie this server did not issue (forged,
    /// altered, or signed with another secret): a swipe relying on it is refused 403.
    public var participantRejected = false
    /// Who manages decks on this request: the admin token, or an owner by session or API token.
    public var owner: OwnerIdentity?
    /// Peer IP for rate limiting; nil in router tests.
    public let remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}

extension AppRequestContext {
    /// The cookie participant, unless it was assigned by this very request.
    var knownParticipant: String? { participantIsNew ? nil : participant }
}
