import Synchronization

/// Caps the streams of one pool open at once: in total, per client address, and optionally per
/// client network (`ClientNetwork.key`) and per participant credential. Each stream holds a
/// connection and a watcher for as long as it is open (some 40–70 KB of memory apiece), so
/// without a cap one client could pile them up. A stream beyond any cap is answered 429
/// `too_many_streams` with `Retry-After: retryAfterSeconds`.
///
/// The server keeps four pools: the live results streams of those who manage the deck (owners
/// and the big screen's, `GET …/results/live` and `/d/{deck}/present/live`; capped per owner or
/// presenter link too), those of anybody reading public results (capped per network too), the
/// room event streams (`GET /api/v1/rooms/{code}/events`) and the phones' stage streams
/// (`GET /d/{deck}/stage`), so anonymous streams can never take the places an owner's live
/// results or a big screen need.
public final class StreamLimiter: Sendable {
    /// The keys one stream is counted under.
    struct Keys: Sendable {
        var client: String
        var network: String?
        var participant: String?
    }

    /// A place taken by one stream; given back by `release()` or, at the latest, when the ticket
    /// is freed (a HEAD request's body, which holds the ticket, is dropped unwritten).
    public final class Ticket: Sendable {
        private let limiter: StreamLimiter
        private let keys: Keys
        private let released = Atomic<Bool>(false)

        fileprivate init(limiter: StreamLimiter, keys: Keys) {
            self.limiter = limiter
            self.keys = keys
        }

        /// Gives the place back (once; later calls do nothing).
        public func release() {
            guard !released.exchange(true, ordering: .relaxed) else { return }
            limiter.give(keys)
        }

        deinit { release() }
    }

    /// Seconds a refused watcher is asked to wait: about one heartbeat, in which streams of
    /// watchers that went away are noticed and closed.
    public static let retryAfterSeconds = 15

    /// Room event streams one participant credential may hold at once: 4 — a phone, a laptop
    /// and two tabs; more is one credential hoarding the pool.
    public static let maxRoomStreamsPerParticipant = 4

    /// Most streams open at once (at least 1).
    public let maxTotal: Int
    /// Most streams open at once from one client address (at least 1).
    public let maxPerClient: Int
    /// Most streams open at once from one client network (at least 1; `Int.max`: no cap).
    public let maxPerNetwork: Int
    /// Most streams open at once for one participant credential (at least 1; `Int.max`: no cap).
    public let maxPerParticipant: Int
    private let state = Mutex(State())

    private struct State {
        var clients = KeyedSlots()
        var networks = KeyedSlots()
        var participants = KeyedSlots()
    }

    public init(maxTotal: Int, maxPerClient: Int, maxPerNetwork: Int = .max, maxPerParticipant: Int = .max) {
        self.maxTotal = max(1, maxTotal)
        self.maxPerClient = max(1, maxPerClient)
        self.maxPerNetwork = max(1, maxPerNetwork)
        self.maxPerParticipant = max(1, maxPerParticipant)
    }

    /// A place for a stream of `client` (its address; nil counts as one unnamed client), from
    /// `network` and for `participant` (nil: not counted under that cap), or nil when any of
    /// them or the server is at its cap (then nothing is taken).
    public func take(client: String?, network: String? = nil, participant: String? = nil) -> Ticket? {
        let keys = Keys(client: client ?? "", network: network, participant: participant)
        let taken = state.withLock { s -> Bool in
            if s.clients.take(keys.client, maxTotal: maxTotal, maxPerKey: maxPerClient) != nil { return false }
            if s.networks.take(keys.network, maxTotal: .max, maxPerKey: maxPerNetwork) != nil {
                s.clients.give(keys.client)
                return false
            }
            if s.participants.take(keys.participant, maxTotal: .max, maxPerKey: maxPerParticipant) != nil {
                s.clients.give(keys.client)
                s.networks.give(keys.network)
                return false
            }
            return true
        }
        return taken ? Ticket(limiter: self, keys: keys) : nil
    }

    /// Streams open now.
    public var open: Int { state.withLock { $0.clients.total } }

    fileprivate func give(_ keys: Keys) {
        state.withLock {
            $0.clients.give(keys.client)
            $0.networks.give(keys.network)
            $0.participants.give(keys.participant)
        }
    }
}
