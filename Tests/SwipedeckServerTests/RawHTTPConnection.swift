import Foundation
import Synchronization
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A blocking HTTP/1.1 connection over a plain socket, for what the test clients cannot do:
/// send a chunked body piece by piece and notice when the server answers before it ends.
/// Use it only inside `RawHTTPConnection.run` (a thread of its own), never on the concurrency
/// pool: its reads block, and a pool thread blocked in one stalls every other test.
final class RawHTTPConnection {
    let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to `localhost:port` (IPv4 or IPv6, whichever answers).
    init(port: Int) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo("localhost", String(port), &hints, &list) == 0 else {
            throw Failure(description: "cannot resolve localhost")
        }
        defer { freeaddrinfo(list) }
        var node = list
        while let address = node {
            let candidate = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            if candidate >= 0, connect(candidate, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
                descriptor = candidate
                return
            }
            if candidate >= 0 { Glibc.close(candidate) }
            node = address.pointee.ai_next
        }
        throw Failure(description: "cannot connect to localhost:\(port)")
    }

    deinit { Glibc.close(descriptor) }

    /// Sends every byte; false once the server closed or reset the connection.
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// Whether the server has sent anything (or closed), waiting up to `milliseconds`.
    func hasAnswered(waitingMilliseconds milliseconds: Int32) -> Bool {
        var descriptorSet = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptorSet, 1, milliseconds) > 0
    }

    /// What the server sends until `marker` is in it (without one: until anything came) and it has
    /// then been quiet for a second, waiting up to 15 s for each next bytes before (a loaded machine
    /// running the whole suite answers a stream's head late: a full run waited over 5 s for one, and a
    /// stream's head and its first event may come seconds apart). As text; it ends early when the server closes.
    func receive(until marker: String? = nil) -> String {
        var received: [UInt8] = []
        var found = false
        while let bytes = read(waitingMilliseconds: found ? 1_000 : 15_000), !bytes.isEmpty {
            received += bytes
            found = found || marker.map { String(decoding: received, as: UTF8.self).contains($0) } ?? true
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What has arrived, without waiting past `milliseconds` for it; empty when nothing came, nil
    /// once the server has closed the connection.
    func read(waitingMilliseconds milliseconds: Int32) -> [UInt8]? {
        guard hasAnswered(waitingMilliseconds: milliseconds) else { return [] }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// Sleeps the calling thread: only inside `run`, between two connections.
    static func pause(seconds: Double) {
        Thread.sleep(forTimeInterval: seconds)
    }

    /// Runs blocking socket work on a thread of its own and awaits its result.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await OffPool.run(work)
    }
}

/// An HTTP/1.1 target on 127.0.0.1 served by a thread of its own (blocking sockets, off the
/// concurrency pool): it reads each request and answers 200, either whole (`Content-Length: 0`) or,
/// when it `trickles`, a head announcing 60,000 bytes (under the 64 KiB the dispatcher reads) and then one byte every 100 ms until the
/// client hangs up or `stop`.
final class HTTPTestReceiver: Sendable {
    let port: Int
    private let descriptor: Int32
    private let state = Mutex((answered: 0, stopped: false))

    /// Requests answered (their head sent) so far.
    var answered: Int { state.withLock { $0.answered } }

    init(trickles: Bool) throws {
        let (fd, port) = try Self.listen()
        descriptor = fd
        self.port = port
        let thread = Thread { [self] in
            while true {
                let connection = accept(fd, nil, nil)
                if connection < 0 || state.withLock({ $0.stopped }) { return }
                let serve = Thread { [self] in
                    defer { Glibc.close(connection) }
                    guard Self.readRequest(connection) else { return }
                    let head =
                        trickles
                        ? "HTTP/1.1 200 OK\r\nContent-Length: 60000\r\n\r\n"
                        : "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    guard Self.write(connection, Array(head.utf8)) else { return }
                    state.withLock { $0.answered += 1 }
                    while trickles, !state.withLock({ $0.stopped }), Self.write(connection, [0x78]) {
                        Thread.sleep(forTimeInterval: 0.1)
                    }
                }
                serve.start()
            }
        }
        thread.start()
    }

    /// A TCP socket listening on 127.0.0.1 at a port of the system's choosing, and that port.
    static func listen() throws -> (descriptor: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && Glibc.listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard fd >= 0, bound else {
            if fd >= 0 { Glibc.close(fd) }
            throw RawHTTPConnection.Failure(description: "cannot listen")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Ends the trickles and the accepting thread.
    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(descriptor, Int32(SHUT_RDWR))
        Glibc.close(descriptor)
    }

    /// Reads one request's head and its `Content-Length` body; false when the client went away.
    private static func readRequest(_ connection: Int32) -> Bool {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let text = String(decoding: received, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length =
                    head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length {
                    return true
                }
            }
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { return false }
            received += buffer[0..<count]
        }
    }

    private static func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }
}
