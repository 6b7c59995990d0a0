/// How many people of one network may join (be minted a participant credential) and how fast:
/// browser cookies on page views and `POST …/participants` share it. Keyed by the client's
/// network (`ClientNetwork.key`), refilled at the server's rate (`--rate-mint`); at once, the
/// server's burst (60 × rate: 120 phones behind one NAT within a minute), or a deck's own
/// `joinLimit` when its owner raised it for an event (that deck's joins then have a budget of
/// their own, and what it mints acts on that deck alone: a credential for the deck, never a
/// device cookie, so raising one deck's limit opens no other deck).
///
/// The budget guards the results, so it is one for all servers on a database
/// (`Store.sharedBuckets`): a crowd spread over several servers gets no more.
public struct JoinBudget: Sendable {
    let buckets: any TokenBuckets

    public init(buckets: any TokenBuckets) {
        self.buckets = buckets
    }

    /// Takes one join for a client at `address` joining `deck` (nil: a page that is no deck's).
    /// - Returns: nil when allowed, else the seconds to wait.
    public func take(address: String?, deck: Deck?, now: Double) async throws -> Int? {
        guard let address else { return nil }
        let (key, burst) = Self.bucket(address, deck)
        return try await buckets.take(key, cost: 1, burst: burst, now: now)
    }

    /// Gives a join back: an admission by code or signed id joins nobody new (the code is the
    /// person), so only wrong proofs and secret-link joins keep their token.
    public func refund(address: String?, deck: Deck?, now: Double) async throws {
        guard let address else { return }
        let (key, burst) = Self.bucket(address, deck)
        try await buckets.refund(key, burst: burst, now: now)
    }

    static func bucket(_ address: String, _ deck: Deck?) -> (String, Double?) {
        let network = ClientNetwork.key(address)
        if let deck, let limit = deck.joinLimit { return ("mint:\(network):\(deck.id)", Double(limit)) }
        return ("mint:" + network, nil)
    }
}
