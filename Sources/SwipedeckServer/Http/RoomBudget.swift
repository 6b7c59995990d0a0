/// How many rooms may be created: a participant holds at most `maxOpenPerParticipant` open rooms
/// per deck, and one client network (`ClientNetwork.key`) creates at most `perNetworkPerHour`
/// rooms an hour, in shared token buckets (`Store.sharedBuckets`) so the budget holds across
/// servers on one database. Beyond either, 429 `too_many_rooms` with `Retry-After`.
public struct RoomBudget: Sendable {
    /// Open (unexpired, unfinished) rooms one participant may have created on one deck: 10 —
    /// a few groups of friends at once; more is one credential hoarding codes.
    public static let maxOpenPerParticipant = 10
    /// Rooms one network may create an hour (and at once): 60 — a classroom of groups; the
    /// attacker's 300 in 1.5 s from one credential is far beyond it.
    public static let perNetworkPerHour = 60.0
    /// Seconds a participant at the open-room cap is asked to wait: rooms end by finishing or
    /// expiring, which a minute may bring.
    public static let retryAfterSeconds = 60

    let store: any RoomStore
    let buckets: any TokenBuckets

    public init(store: any RoomStore, buckets: any TokenBuckets) {
        self.store = store
        self.buckets = buckets
    }

    /// The buckets this budget wants from `Store.sharedBuckets`.
    public static let rate = (perSecond: perNetworkPerHour / 3600, burst: perNetworkPerHour)

    /// Checks and takes one room creation for `participant` on `deckId` from `address`.
    /// - Throws: `ApiError.tooManyRooms` beyond either cap (nothing taken from the network then
    ///   when the participant's cap refused).
    public func take(deckId: Int64, participant: String, address: String?, now: Double) async throws {
        if try await store.openRoomsCreated(deckId: deckId, participant: participant, now: now)
            >= Self.maxOpenPerParticipant
        {
            throw ApiError.tooManyRooms(retryAfter: Self.retryAfterSeconds)
        }
        guard let address else { return }
        if let wait = try await buckets.take("room:" + ClientNetwork.key(address), cost: 1, burst: nil, now: now) {
            throw ApiError.tooManyRooms(retryAfter: wait)
        }
    }
}
