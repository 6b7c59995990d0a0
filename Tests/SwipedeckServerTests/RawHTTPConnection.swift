import Foundation
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
    /// then been quiet for a second, waiting up to 5 s for each next bytes before (a loaded machine
    /// running the whole suite on PostgreSQL answers a stream's head late, and a stream's head and
    /// its first event may come seconds apart). As text; it ends early when the server closes.
    func receive(until marker: String? = nil) -> String {
        var received: [UInt8] = []
        var found = false
        while let bytes = read(waitingMilliseconds: found ? 1_000 : 5_000), !bytes.isEmpty {
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
