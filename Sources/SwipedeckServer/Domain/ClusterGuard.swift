import Synchronization

/// Keeps lockstep clusters (`LockstepClusters`) out of a deck's ranking: before results are
/// read, the deck's crowded networks are checked and every member of a cluster is excluded
/// (an exclusion event with the cluster's reason, as an owner's own; nothing erased), unless the
/// owner has lifted an exclusion of that participant before — the owner's Include always wins.
///
/// A check reads the members of crowded networks only, and runs at most once per
/// `interval` per deck and server, so results read every second cost no more than before.
public final class ClusterGuard: Sendable {
    let store: any Store
    /// Seconds between two checks of one deck. Default 5.
    let interval: Double
    private let lastRun = Mutex<[Int64: Double]>([:])

    /// The prefix of the exclusion reason a cluster's members get.
    public static let reasonPrefix = "lockstep cluster: "

    public init(store: any Store, interval: Double = 5) {
        self.store = store
        self.interval = interval
    }

    /// The deck's clusters now, their members excluded as the type describes. `force` skips the
    /// interval (the owner's cluster list).
    @discardableResult
    public func check(_ deck: Deck, now: Double, force: Bool = false) async throws -> [LockstepClusters.Cluster] {
        let deckId = deck.id
        let due = lastRun.withLock { runs in
            if !force, let last = runs[deckId], now - last < interval { return false }
            runs[deckId] = now
            return true
        }
        if !due { return [] }
        let members = try await store.lockstepMembers(deckId: deckId, minCrowd: LockstepClusters.minSize)
        if members.isEmpty { return [] }
        // The deck's active cards, not the cards these members happened to decide: agreeing on the
        // one card a crowd decided is no crowd of fakes.
        let cardCount = try await store.cardIds(deckId: deckId).active.count
        let clusters = LockstepClusters.detect(members, cardCount: cardCount)
        if clusters.isEmpty { return [] }
        let states = try await store.exclusionStates(deckId: deckId)
        for cluster in clusters {
            for id in cluster.members where !states.excluded.contains(id) && !states.lifted.contains(id) {
                try await store.setExcluded(
                    deck: deck, participant: id, true, reason: Self.reasonPrefix + cluster.reason, by: nil, now: now)
            }
        }
        return clusters
    }
}
