/// The free join budget: how many people may join (be minted a participant credential) without
/// paying a join puzzle (`JoinPuzzles`), and how fast. Browser cookies on page views and
/// `POST …/participants` share it. A free join takes one token from two buckets:
///
/// - its client network's (`ClientNetwork.key`), refilled at the server's rate (`--rate-mint`,
///   2 a second); at once, the server's burst (60 × rate: 120 phones behind one NAT), or a deck's
///   own expected people (`joinLimit`) when its owner set them for an event (that deck's joins
///   then have a budget of their own, and what it mints acts on that deck alone: a credential for
///   the deck, never a device cookie, so raising one deck's limit opens no other deck);
/// - the pool every network draws from: the server's (`poolBurstFactor` × the network burst at
///   once, refilled at `poolRateFactor` × the rate), or an event deck's own (its expected people
///   at once, refilled as fast). A host rotating through many networks meets the pool, not 120
///   free joins per network.
///
/// Past either, joining costs a puzzle instead of a wait (with scripts), or waits for the budget
/// (without). The budget guards the results, so it is one for all servers on a database
/// (`Store.sharedBuckets`): a crowd spread over several servers gets no more.
public struct JoinBudget: Sendable {
    let buckets: any TokenBuckets
    let pool: any TokenBuckets

    /// The pool holds this many times a network's burst: 2 (240 by default: two classrooms).
    public static let poolBurstFactor = 2.0
    /// The pool refills at this share of a network's rate: ¼ (0.5 a second by default, 30 a minute).
    public static let poolRateFactor = 0.25

    /// - Parameters:
    ///   - buckets: the networks' buckets (the server's rate and burst).
    ///   - pool: the pool's buckets (`poolRateFactor` × the rate, `poolBurstFactor` × the burst).
    public init(buckets: any TokenBuckets, pool: any TokenBuckets) {
        self.buckets = buckets
        self.pool = pool
    }

    /// Takes one free join for a client at `address` joining `deck` (nil: a page that is no deck's).
    /// - Returns: nil when allowed, else the seconds to wait (nothing is taken then).
    public func take(address: String?, deck: Deck?, now: Double) async throws -> Int? {
        guard let address else { return nil }
        let (key, burst) = Self.bucket(address, deck)
        if let wait = try await buckets.take(key, cost: 1, burst: burst, now: now) { return wait }
        let (poolKey, poolBurst) = Self.poolBucket(deck)
        if let wait = try await pool.take(poolKey, cost: 1, burst: poolBurst, now: now) {
            // The network's token goes back: this join did not happen.
            try await buckets.refund(key, burst: burst, now: now)
            return wait
        }
        return nil
    }

    /// Gives a join back: an admission by code or signed id joins nobody new (the code is the
    /// person), so only wrong proofs and secret-link joins keep their token.
    public func refund(address: String?, deck: Deck?, now: Double) async throws {
        guard let address else { return }
        let (key, burst) = Self.bucket(address, deck)
        try await buckets.refund(key, burst: burst, now: now)
        let (poolKey, poolBurst) = Self.poolBucket(deck)
        try await pool.refund(poolKey, burst: poolBurst, now: now)
    }

    static func bucket(_ address: String, _ deck: Deck?) -> (String, Double?) {
        let network = ClientNetwork.key(address)
        if let deck, let limit = deck.joinLimit { return ("mint:\(network):\(deck.id)", Double(limit)) }
        return ("mint:" + network, nil)
    }

    static func poolBucket(_ deck: Deck?) -> (String, Double?) {
        if let deck, let limit = deck.joinLimit { return ("pool:\(deck.id)", Double(limit)) }
        return ("pool", nil)
    }
}
