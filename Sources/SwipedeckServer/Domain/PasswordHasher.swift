import HummingbirdBcrypt
import NIOPosix

/// bcrypt from Hummingbird's auth package, run on NIO's blocking thread pool: a hash at the
/// default cost takes about a quarter of a second of CPU, which must not hold a concurrency thread.
public struct PasswordHasher: Sendable {
    /// bcrypt cost (log2 rounds), 4…31. Default 12; tests use 4.
    public let cost: UInt8

    public init(cost: UInt8 = 12) {
        self.cost = cost
    }

    public func hash(_ password: String) async throws -> String {
        let cost = cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    public func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
