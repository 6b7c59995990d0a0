import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import TestSupport
import Testing

@testable import SwipedeckServer

/// Connection hygiene: the caps on connections and live streams, the header-read deadline and
/// the answer of a refused connection. (Idle and slowloris sockets, 2,000 idle connections and
/// the caps over real sockets: Tests/System/test_limits.py.)
@Suite("Connection limits")
struct ConnectionLimitsTests {
    @Test("connections: per address, then in total; exempt peers count in the total only; a release frees a place")
    func connectionCaps() {
        let limiter = ConnectionLimiter(maxTotal: 4, maxPerAddress: 2, isExempt: { $0 == "10.0.0.9" })
        #expect(limiter.admit("10.0.0.1") == nil)
        #expect(limiter.admit("10.0.0.1") == nil)
        #expect(limiter.admit("10.0.0.1") == .perKey)
        #expect(limiter.open(from: "10.0.0.1") == 2)
        // The proxy is not held to the per-address cap…
        #expect(limiter.admit("10.0.0.9") == nil)
        #expect(limiter.admit("10.0.0.9") == nil)
        #expect(limiter.open == 4)
        // …but to the total, like everybody.
        #expect(limiter.admit("10.0.0.9") == .total)
        #expect(limiter.admit("10.0.0.2") == .total)
        #expect(limiter.admit(nil) == .total)
        limiter.release("10.0.0.1")
        #expect(limiter.open == 3)
        #expect(limiter.admit("10.0.0.2") == nil)
        #expect(limiter.admit("10.0.0.1") == .total)
        limiter.release("10.0.0.9")
        #expect(limiter.admit("10.0.0.1") == nil)
        #expect(limiter.open(from: "10.0.0.1") == 2)
    }

    @Test("streams: per client, then in total; a ticket given back once, by release or when freed")
    func streamCaps() throws {
        let limiter = StreamLimiter(maxTotal: 3, maxPerClient: 2)
        var a1 = limiter.take(client: "a")
        let a2 = try #require(limiter.take(client: "a"))
        let b1 = try #require(limiter.take(client: "b"))
        #expect(a1 != nil)
        // Kept alive to the end: a ticket is given back when it is freed.
        try withExtendedLifetime((a2, b1)) {
            #expect(limiter.take(client: "a") == nil, "the per-client cap")
            #expect(limiter.take(client: "c") == nil, "the total cap")
            a2.release()
            a2.release()
            #expect(limiter.open == 2, "released once")
            let c1 = try #require(limiter.take(client: "c"))
            #expect(limiter.open == 3)
            a1 = nil  // freed without release: its place comes back
            withExtendedLifetime(c1) { #expect(limiter.open == 2) }
        }
    }

    @Test("streams: per network and per participant as well; a refusal by any cap takes nothing")
    func streamCapsPerNetworkAndParticipant() throws {
        let limiter = StreamLimiter(maxTotal: 100, maxPerClient: 10, maxPerNetwork: 3, maxPerParticipant: 2)
        // Rotating addresses within one network: the network's cap holds.
        let n1 = try #require(limiter.take(client: "10.0.0.1", network: "10.0.0.0/24", participant: "p1"))
        let n2 = try #require(limiter.take(client: "10.0.0.2", network: "10.0.0.0/24", participant: "p2"))
        let n3 = try #require(limiter.take(client: "10.0.0.3", network: "10.0.0.0/24", participant: "p3"))
        #expect(limiter.take(client: "10.0.0.4", network: "10.0.0.0/24", participant: "p4") == nil)
        // One credential from many networks: its own cap holds.
        let p1 = try #require(limiter.take(client: "10.1.0.1", network: "10.1.0.0/24", participant: "p1"))
        #expect(limiter.take(client: "10.2.0.1", network: "10.2.0.0/24", participant: "p1") == nil)
        #expect(limiter.open == 4, "refusals took no place")
        withExtendedLifetime((n1, n2, n3, p1)) {
            n2.release()
            #expect(limiter.take(client: "10.0.0.4", network: "10.0.0.0/24", participant: "p4") != nil)
        }
    }

    @Test(
        "room streams have a pool of their own (the owner's live results still open) and a cap of 4 per participant",
        .timeLimit(.minutes(2)))
    func roomStreamPool() async throws {
        try await withApp(
            {
                $0.maxStreams = 2
                $0.maxRoomStreamsPerClient = 8
                $0.liveInterval = .milliseconds(100)
                $0.sseHeartbeat = .milliseconds(1500)
            }, testing: .live
        ) { client, _ in
            _ = try await client.makeDeck("pooled", titles: ["a"])
            let code = try await RoomApiTests.createRoom(client, "pooled", participant: "ana")
            _ = try await client.postJSON("/api/v1/rooms/\(code)/members?participant=\(pid("ben"))", "{}")
            let port = try #require(client.port)
            @Sendable func roomRequest(_ p: String) -> [UInt8] {
                Array("GET /api/v1/rooms/\(code)/events?participant=\(pid(p)) HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)
            }
            let live = Array(
                "GET /api/v1/decks/pooled/results/live HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(adminToken)\r\n\r\n"
                    .utf8)
            let (ana, ben, owner) = try await RawHTTPConnection.run { () throws -> ([String], String, String) in
                var held: [RawHTTPConnection] = []
                var ana: [String] = []
                for _ in 0..<5 {
                    let s = try RawHTTPConnection(port: port)
                    _ = s.send(roomRequest("ana"))
                    ana.append(s.receive())
                    held.append(s)
                }
                let b = try RawHTTPConnection(port: port)
                _ = b.send(roomRequest("ben"))
                let ben = b.receive()
                let o = try RawHTTPConnection(port: port)
                _ = o.send(live)
                let owner = o.receive()
                withExtendedLifetime((held, b, o)) {}
                return (ana, ben, owner)
            }
            for text in ana.prefix(4) { #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(200))") }
            #expect(ana[4].hasPrefix("HTTP/1.1 429"), "\(ana[4].prefix(300))")
            #expect(ana[4].contains(#""code":"too_many_streams""#))
            #expect(ben.hasPrefix("HTTP/1.1 200"), "\(ben.prefix(200))")
            #expect(owner.hasPrefix("HTTP/1.1 200"), "\(owner.prefix(200))")
        }
    }

    func connected(_ handler: some ChannelHandler) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(handler)
        try channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 8080)).wait()
        return channel
    }

    static let head = HTTPRequestPart.head(
        HTTPRequest(method: .get, scheme: nil, authority: "localhost", path: "/healthz"))

    @Test("header deadline: a head not complete 10 s after the first byte closes the connection")
    func headerDeadlineCloses() throws {
        let channel = try connected(HeaderDeadlineHandler(timeout: .seconds(10), bodyTimeout: .seconds(60)))
        // Connected and silent: the idle timeout's concern, not this one.
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        channel.pipeline.fireUserInboundEventTriggered(RequestBytesArrived())
        channel.embeddedEventLoop.advanceTime(by: .seconds(9))
        // More trickled bytes do not push the deadline back.
        channel.pipeline.fireUserInboundEventTriggered(RequestBytesArrived())
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!channel.isActive)
    }

    @Test(
        "header deadline: a complete head stops it; the next request's first byte starts it again once the previous is answered"
    )
    func headerDeadlineNextRequest() throws {
        let channel = try connected(HeaderDeadlineHandler(timeout: .seconds(10), bodyTimeout: .seconds(60)))
        channel.pipeline.fireUserInboundEventTriggered(RequestBytesArrived())
        channel.embeddedEventLoop.advanceTime(by: .seconds(5))
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPRequestPart.end(nil))
        // A long answer (a live stream) and bytes pipelined meanwhile: no deadline.
        channel.pipeline.fireUserInboundEventTriggered(RequestBytesArrived())
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
        try channel.writeOutbound(HTTPResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(channel.isActive)
        channel.pipeline.fireUserInboundEventTriggered(RequestBytesArrived())
        channel.embeddedEventLoop.advanceTime(by: .seconds(11))
        #expect(!channel.isActive)
    }

    @Test("a refused connection gets 503 too_many_connections with Retry-After as soon as it is active, then is closed")
    func refusedConnection() throws {
        let channel = try connected(RefusedConnectionHandler())
        let written = try #require(try channel.readOutbound(as: ByteBuffer.self))
        let text = String(buffer: written)
        #expect(text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(text.contains("\r\nRetry-After: 5\r\n"))
        #expect(text.contains("\r\nConnection: close\r\n"))
        let body = try #require(text.components(separatedBy: "\r\n\r\n").last)
        #expect(text.contains("\r\nContent-Length: \(body.utf8.count)\r\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [String: String]])
        #expect(json["error"]?["code"] == "too_many_connections")
        #expect(!channel.isActive)
    }

    @Test(
        "live streams beyond the per-client cap get 429 too_many_streams with Retry-After; HEAD holds no place; a closed stream frees one",
        .timeLimit(.minutes(2)))
    func streamCapOverHTTP() async throws {
        try await withApp(
            {
                $0.maxStreamsPerClient = 2
                $0.liveInterval = .milliseconds(100)
                $0.sseHeartbeat = .milliseconds(1500)  // above receive()'s 1 s pause
            }, testing: .live
        ) { client, _ in
            _ = try await client.makeDeck("capped", titles: ["a"])
            let port = try #require(client.port)
            let path = "/api/v1/decks/capped/results/live"
            // 401 before the cap is looked at; HEAD answers and gives its place back.
            expectAPIError(try await client.get(path), .unauthorized, "unauthorized")
            for _ in 0..<3 {
                #expect(try await client.execute(uri: path, method: .head, headers: admin).status == .ok)
            }
            let request = Array(
                "GET \(path) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(adminToken)\r\n\r\n".utf8)
            let (first, second, third, afterClose) = try await RawHTTPConnection.run {
                () throws -> (String, String, String, String) in
                let one = try RawHTTPConnection(port: port)
                _ = one.send(request)
                let first = one.receive()
                var two: RawHTTPConnection? = try RawHTTPConnection(port: port)
                _ = two?.send(request)
                let second = two?.receive() ?? ""
                let three = try RawHTTPConnection(port: port)
                _ = three.send(request)
                let third = three.receive()
                two = nil  // closes the socket: the server notices at the next heartbeat
                var afterClose = ""
                for _ in 0..<20 {
                    RawHTTPConnection.pause(seconds: 0.25)
                    let again = try RawHTTPConnection(port: port)
                    _ = again.send(request)
                    afterClose = again.receive()
                    if afterClose.hasPrefix("HTTP/1.1 200") { break }
                }
                return (first, second, third, afterClose)
            }
            #expect(first.hasPrefix("HTTP/1.1 200"), "\(first.prefix(200))")
            #expect(second.hasPrefix("HTTP/1.1 200"), "\(second.prefix(200))")
            #expect(third.hasPrefix("HTTP/1.1 429"), "\(third.prefix(300))")
            #expect(third.lowercased().contains("retry-after: 15"))
            #expect(third.contains(#""code":"too_many_streams""#))
            #expect(afterClose.hasPrefix("HTTP/1.1 200"), "\(afterClose.prefix(200))")
        }
    }

    @Test("the memory trimmer finds glibc's malloc_trim, and a call gives back what a freed burst left")
    func memoryTrimmer() async throws {
        let trim = try #require(MemoryTrimmer.mallocTrim)
        // 64 MB in 64 kB blocks, freed: the allocator keeps some of it until trimmed. A trim walks
        // every arena of this big test process (seconds): on a thread of its own, as the product's
        // runs on NIO's blocking pool.
        let released = try await OffPool.run {
            let blocks = (0..<1024).map { _ in UnsafeMutableRawPointer.allocate(byteCount: 65_536, alignment: 16) }
            for block in blocks { block.initializeMemory(as: UInt8.self, repeating: 1, count: 65_536) }
            for block in blocks { block.deallocate() }
            return trim(0)
        }
        #expect(released == 1, "malloc_trim says it released memory")
    }
}
