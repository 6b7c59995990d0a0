import Hummingbird
import NIOCore

/// Request context: the participant (from the cookie or freshly assigned) and the peer address.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The browser participant id from the `sd_pid` cookie (set by `ParticipantMiddleware`).
    public var participant: String?
    /// Peer IP for rate limiting; nil in router tests.
    public let remoteAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }
}
