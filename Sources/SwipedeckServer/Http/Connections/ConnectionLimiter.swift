import Synchronization

/// Counts the open connections, in total and per peer address, and decides whether a new one
/// may stay. One instance per server, shared by every event loop (a lock around two counters).
///
/// A connection beyond `maxTotal`, or beyond `maxPerAddress` from one peer address, is refused:
/// `ConnectionGuard` answers it 503 and closes it. Peers for which `isExempt` is true (the
/// trusted proxies, through which every client arrives) count towards the total only.
public final class ConnectionLimiter: Sendable {
    /// Why a connection was refused.
    public enum Refusal: Sendable, Equatable {
        /// The server holds `maxTotal` connections.
        case total
        /// This peer address holds `maxPerAddress` connections.
        case perAddress
    }

    struct Counts {
        var total = 0
        var byAddress: [String: Int] = [:]
    }

    /// Most open connections in all (at least 1).
    public let maxTotal: Int
    /// Most open connections from one peer address (at least 1).
    public let maxPerAddress: Int
    private let isExempt: @Sendable (String) -> Bool
    private let counts = Mutex(Counts())

    /// - Parameter isExempt: peer addresses not held to `maxPerAddress` (the trusted proxies);
    ///   default none.
    public init(maxTotal: Int, maxPerAddress: Int, isExempt: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.maxTotal = max(1, maxTotal)
        self.maxPerAddress = max(1, maxPerAddress)
        self.isExempt = isExempt
    }

    /// Admits a connection from `address` (nil: a peer without an IP address, counted in the
    /// total only) and counts it, or refuses it and counts nothing. Every admitted connection
    /// must be `release`d exactly once, when it closes.
    public func admit(_ address: String?) -> Refusal? {
        let perAddress = address.flatMap { isExempt($0) ? nil : $0 }
        return counts.withLock { counts in
            if counts.total >= maxTotal { return .total }
            if let perAddress, counts.byAddress[perAddress, default: 0] >= maxPerAddress { return .perAddress }
            counts.total += 1
            if let perAddress { counts.byAddress[perAddress, default: 0] += 1 }
            return nil
        }
    }

    /// Forgets an admitted connection from `address` (the same value given to `admit`).
    public func release(_ address: String?) {
        let perAddress = address.flatMap { isExempt($0) ? nil : $0 }
        counts.withLock { counts in
            counts.total -= 1
            guard let perAddress, let n = counts.byAddress[perAddress] else { return }
            counts.byAddress[perAddress] = n > 1 ? n - 1 : nil
        }
    }

    /// Connections open now (in all, and from `address`).
    public var open: Int { counts.withLock { $0.total } }
    public func open(from address: String) -> Int { counts.withLock { $0.byAddress[address, default: 0] } }
}
