import NIOCore
import NIOHTTPTypes

/// The header-read timeout: a request's head (request line and headers) must arrive complete
/// within `HeaderDeadlineHandler.timeout` of its first byte, or the connection is closed. So a
/// slowloris client, trickling header lines to hold a connection, is cut off after the timeout
/// however steadily it trickles. The body timeout does the same for a body: it must arrive whole
/// within `bodyTimeout` of its head (a client trickling a body byte by byte held a connection
/// for good). Waiting for a request's first byte is the idle timeout's concern
/// (`HTTP1Channel.Configuration.idleTimeout`).
///
/// Two handlers: `RequestBytesNotifier` sits before the HTTP decoder and announces bytes
/// (`RequestBytesArrived`); `HeaderDeadlineHandler` sits after it, sees the decoded request
/// heads and response ends, and keeps the deadline.
struct RequestBytesArrived {}

/// Fires `RequestBytesArrived` down the pipeline before passing on bytes read from the socket.
final class RequestBytesNotifier: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireUserInboundEventTriggered(RequestBytesArrived())
        context.fireChannelRead(data)
    }
}

/// Starts the deadline when bytes arrive while no request is in progress (the previous one was
/// read and answered, or none came yet), cancels it when the request's head is decoded, and
/// closes the connection when it passes; then the body's deadline, from the head to the body's end.
final class HeaderDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Time from a request's first byte to its complete head.
    let timeout: TimeAmount
    /// Time from a request's head to the end of its body.
    let bodyTimeout: TimeAmount
    /// A head arrived and its body has not ended.
    private var readingRequest = false
    /// A head arrived and its response has not ended.
    private var responding = false
    private var deadline: Scheduled<Void>?
    private var bodyDeadline: Scheduled<Void>?

    init(timeout: TimeAmount, bodyTimeout: TimeAmount) {
        self.timeout = timeout
        self.bodyTimeout = bodyTimeout
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RequestBytesArrived else { return context.fireUserInboundEventTriggered(event) }
        guard deadline == nil, !readingRequest, !responding else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            context.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            deadline = nil
            readingRequest = true
            responding = true
            bodyDeadline = context.eventLoop.assumeIsolated().scheduleTask(in: bodyTimeout) {
                context.close(promise: nil)
            }
        case .body:
            break
        case .end:
            readingRequest = false
            bodyDeadline?.cancel()
            bodyDeadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { responding = false }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelDeadlines()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelDeadlines()
    }

    private func cancelDeadlines() {
        deadline?.cancel()
        deadline = nil
        bodyDeadline?.cancel()
        bodyDeadline = nil
    }
}
