import Synchronization

/// Makes guessing room codes and join codes cost: each client network (`ClientNetwork.key`) may
/// fail `failuresPerMinute` lookups a minute, of both kinds together (an unknown code, or a room
/// it is no member of); once they are spent, every lookup from that network is answered 429
/// `rate_limited` until the budget refills. Kept in shared token buckets (`Store.sharedBuckets`), so the
/// budget holds across servers on one database.
public final class RoomLookupBudget: Sendable {
    /// Failed lookups a network may make a minute (and at once): 30 — a person mistyping a code
    /// a few times, or a classroom doing so, never meets it; a guesser gets 30 a minute.
    public static let failuresPerMinute = 30.0
    /// The errors that are a failed lookup: an unknown room (or one the client is no member of),
    /// an unknown join code (`PresentController`).
    static let failures: Set<String> = ["room_not_found", "join_code_not_found"]
    /// The buckets this budget wants from `Store.sharedBuckets`.
    public static let rate = (perSecond: failuresPerMinute / 60, burst: failuresPerMinute)

    let buckets: any TokenBuckets
    /// Network key → until when this server answers its lookups 429 (its budget was found spent).
    private let blocked = Mutex<[String: Double]>([:])

    public init(buckets: any TokenBuckets) {
        self.buckets = buckets
    }

    /// Runs `lookup` for a client at `address`. Only a failed lookup (`failures`) touches
    /// the shared budget: it takes a token, and when none is left the answer is 429
    /// `rate_limited` with `Retry-After`, and this server answers every lookup from the network
    /// so (found or not) until then. A found room costs no write, so members' many requests never
    /// queue on the network's bucket. A nil address (no peer) is not budgeted.
    public func guarded<T: Sendable>(
        address: String?, now: Double, _ lookup: () async throws -> T
    ) async throws -> T {
        guard let address else { return try await lookup() }
        let key = "roomlookup:" + ClientNetwork.key(address)
        if let until = blocked.withLock({ $0[key] }), until > now {
            throw ApiError.rateLimited(retryAfter: max(1, Int((until - now).rounded(.up))))
        }
        do {
            return try await lookup()
        } catch let error as ApiError where Self.failures.contains(error.code) {
            if let wait = try await buckets.take(key, cost: 1, burst: nil, now: now) {
                blocked.withLock { spent in
                    spent = spent.filter { $0.value > now }
                    spent[key] = now + Double(wait)
                }
                throw ApiError.rateLimited(retryAfter: wait)
            }
            throw error
        }
    }
}
