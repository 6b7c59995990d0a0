import Synchronization

/// Counts the open connections, in total and per peer address, and decides whether a new one
/// may stay. One instance per server, shared by every event loop (a lock around two counters).
///
/// A connection beyond `maxTotal`, or beyond `maxPerAddress` from one peer address, is refused:
/// `ConnectionGuard` answers it 503 and closes it. Peers for which `isExempt` is true (the
/// trusted proxies, through which every client arrives) count towards the total only.
public final class ConnectionLimiter: Sendable {
    /// Why a connection was refused: the server's cap (`.total`) or its peer address's (`.perKey`).
    public typealias Refusal = KeyedSlots.Refusal

    /// Most open connections in all (at least 1).
    public let maxTotal: Int
    /// Most open connections from one peer address (at least 1).
    public let maxPerAddress: Int
    private let isExempt: @Sendable (String) -> Bool
    private let slots = Mutex(KeyedSlots())

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
        return slots.withLock { $0.take(perAddress, maxTotal: maxTotal, maxPerKey: maxPerAddress) }
    }

    /// Forgets an admitted connection from `address` (the same value given to `admit`).
    public func release(_ address: String?) {
        let perAddress = address.flatMap { isExempt($0) ? nil : $0 }
        slots.withLock { $0.give(perAddress) }
    }

    /// Connections open now (in all, and from `address`).
    public var open: Int { slots.withLock { $0.total } }
    public func open(from address: String) -> Int { slots.withLock { $0.count(address) } }
}
