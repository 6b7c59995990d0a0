/// Makes guessing room codes cost: each client network (`ClientNetwork.key`) may fail
/// `failuresPerMinute` room lookups a minute (an unknown code, or a room it is no member of);
/// once they are spent, every room lookup from that network is answered 429 `rate_limited`
/// until the budget refills. Kept in shared token buckets (`Store.sharedBuckets`), so the
/// budget holds across servers on one database.
public struct RoomLookupBudget: Sendable {
    /// Failed lookups a network may make a minute (and at once): 30 — a person mistyping a code
    /// a few times, or a classroom doing so, never meets it; a guesser gets 30 a minute.
    public static let failuresPerMinute = 30.0
    /// The buckets this budget wants from `Store.sharedBuckets`.
    public static let rate = (perSecond: failuresPerMinute / 60, burst: failuresPerMinute)

    let buckets: any TokenBuckets

    public init(buckets: any TokenBuckets) {
        self.buckets = buckets
    }

    /// Runs `lookup` for a client at `address`: a token is taken first (429 `rate_limited` with
    /// `Retry-After` when none is left) and given back when the lookup succeeds, so only failed
    /// lookups (`room_not_found`) spend the budget. A nil address (no peer) is not budgeted.
    public func guarded<T: Sendable>(
        address: String?, now: Double, _ lookup: () async throws -> T
    ) async throws -> T {
        guard let address else { return try await lookup() }
        let key = "roomlookup:" + ClientNetwork.key(address)
        if let wait = try await buckets.take(key, cost: 1, burst: nil, now: now) {
            throw ApiError.rateLimited(retryAfter: wait)
        }
        do {
            let value = try await lookup()
            try await buckets.refund(key, burst: nil, now: now)
            return value
        } catch let error as ApiError where error.code == "room_not_found" {
            throw error
        } catch {
            // Not the guesser's doing (a credential error, a fault): the token comes back.
            try await buckets.refund(key, burst: nil, now: now)
            throw error
        }
    }
}
