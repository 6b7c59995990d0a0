import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

extension HTTPServerBuilder {
    /// HTTP/1.1 with the connection limits: `idleTimeout` (Hummingbird's: a connection with no
    /// request in progress for that long is closed), the header-read and body timeouts
    /// (`HeaderDeadlineHandler`), and `limiter`'s caps on open connections
    /// (`ConnectionGuard`).
    static func guardedHTTP1(
        limiter: ConnectionLimiter, idleTimeout: Duration, headerTimeout: Duration, bodyTimeout: Duration
    ) -> HTTPServerBuilder {
        let header = TimeAmount(headerTimeout)
        let body = TimeAmount(bodyTimeout)
        let idle = TimeAmount(idleTimeout)
        return HTTPServerBuilder { responder in
            ConnectionGuard(
                http1: HTTP1Channel(
                    responder: responder,
                    configuration: .init(
                        additionalChannelHandlers: [HeaderDeadlineHandler(timeout: header, bodyTimeout: body)],
                        idleTimeout: idle)),
                limiter: limiter)
        }
    }
}

/// Hummingbird's HTTP/1.1 child channel with a gate in front: each accepted connection is
/// admitted by `limiter` (counted until it closes) or refused — answered at once with 503
/// `too_many_connections` (JSON, `Retry-After`) and closed, before any of its bytes are read.
/// A refused client that sends its request before reading may see the connection reset instead.
struct ConnectionGuard: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let limiter: ConnectionLimiter

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let address = channel.remoteAddress?.ipAddress
        let refusal = limiter.admit(address)
        return channel.eventLoop.makeCompletedFuture {
            if let refusal {
                logger.debug("connection refused", metadata: ["peer": "\(address ?? "-")", "cap": "\(refusal)"])
                try channel.pipeline.syncOperations.addHandler(RefusedConnectionHandler())
            } else {
                let limiter = limiter
                channel.closeFuture.whenComplete { _ in limiter.release(address) }
                try channel.pipeline.syncOperations.addHandler(RequestBytesNotifier())
            }
        }.flatMap { http1.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

/// First in a refused connection's pipeline: writes the 503 as soon as the connection is
/// active, closes it once written, and lets no byte reach the HTTP decoder meanwhile.
final class RefusedConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Seconds a refused client is asked to wait (`Retry-After`): long enough for idle
    /// connections to time out or finish, short enough for a person to try again.
    static let retryAfterSeconds = 5

    /// The whole response, computed once.
    static let response: String = {
        let error = ApiError.tooManyConnections(retryAfter: retryAfterSeconds)
        // Two strings always encode; this runs once, at the first refusal.
        let body = String(decoding: try! JSONCoding.shared.encode(ErrorBody(error)), as: UTF8.self)
        return "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\n"
            + "Retry-After: \(retryAfterSeconds)\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
            + body
    }()

    private var answered = false

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Dropped: the connection is answered and closing.
    }

    private func refuse(_ context: ChannelHandlerContext) {
        guard !answered else { return }
        answered = true
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.response))).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }
}
