import Synchronization

/// Caps the live results streams (`GET …/results/live`) open at once, per client address and in
/// total: each holds a connection and a watcher for as long as it is open (some 40–70 KB
/// of memory apiece), so without a cap one client could pile them up. A stream beyond either cap
/// is answered 429 `too_many_streams` with `Retry-After: retryAfterSeconds`.
public final class StreamLimiter: Sendable {
    /// A place taken by one stream; given back by `release()` or, at the latest, when the ticket
    /// is freed (a HEAD request's body, which holds the ticket, is dropped unwritten).
    public final class Ticket: Sendable {
        private let limiter: StreamLimiter
        private let client: String
        private let released = Atomic<Bool>(false)

        fileprivate init(limiter: StreamLimiter, client: String) {
            self.limiter = limiter
            self.client = client
        }

        /// Gives the place back (once; later calls do nothing).
        public func release() {
            guard !released.exchange(true, ordering: .relaxed) else { return }
            limiter.give(client)
        }

        deinit { release() }
    }

    /// Seconds a refused watcher is asked to wait: about one heartbeat, in which streams of
    /// watchers that went away are noticed and closed.
    public static let retryAfterSeconds = 15

    /// Most streams open at once (at least 1).
    public let maxTotal: Int
    /// Most streams open at once from one client address (at least 1).
    public let maxPerClient: Int
    private let slots = Mutex(KeyedSlots())

    public init(maxTotal: Int, maxPerClient: Int) {
        self.maxTotal = max(1, maxTotal)
        self.maxPerClient = max(1, maxPerClient)
    }

    /// A place for a stream of `client` (its address; nil counts as one unnamed client), or
    /// nil when the client or the server is at its cap.
    public func take(client: String?) -> Ticket? {
        let key = client ?? ""
        let refusal = slots.withLock { $0.take(key, maxTotal: maxTotal, maxPerKey: maxPerClient) }
        return refusal == nil ? Ticket(limiter: self, client: key) : nil
    }

    /// Streams open now.
    public var open: Int { slots.withLock { $0.total } }

    fileprivate func give(_ key: String) {
        slots.withLock { $0.give(key) }
    }
}
