import NIOPosix
import Synchronization

/// Keeps concerted fakes (`LockstepClusters`) out of a deck's ranking: before results are read,
/// the deck's crowded networks are checked and every member of a group whose evidence is strong
/// (`LockstepClusters.Cluster.excludes`) is excluded (an exclusion event with the group's reason,
/// as an owner's own; nothing erased), unless the owner has lifted an exclusion of that
/// participant before — the owner's Include always wins. Groups on weaker evidence are returned
/// for the owner to see and exclude nobody.
///
/// A check reads the members of crowded networks only, and runs at most once per
/// `interval` per deck and server, so results read every second cost no more than before; the
/// groups found are kept until the next check, so every read in between shows them.
public final class ClusterGuard: Sendable {
    let store: any Store
    /// Seconds between two checks of one deck. Default 5.
    let interval: Double
    /// Deck id → (time of its last check, the groups it found).
    private let lastRun = Mutex<[Int64: (at: Double, found: [LockstepClusters.Cluster])]>([:])

    /// The prefix of the exclusion reason a group's members get.
    public static let reasonPrefix = "lockstep cluster: "

    public init(store: any Store, interval: Double = 5) {
        self.store = store
        self.interval = interval
    }

    /// The deck's groups (excluding and flagged), their strong ones' members excluded as the type
    /// describes. `force` skips the interval (the owner's cluster forms).
    @discardableResult
    public func check(_ deck: Deck, now: Double, force: Bool = false) async throws -> [LockstepClusters.Cluster] {
        let deckId = deck.id
        let cached = lastRun.withLock { runs -> [LockstepClusters.Cluster]? in
            if !force, let last = runs[deckId], now - last.at < interval { return last.found }
            runs[deckId] = (now, runs[deckId]?.found ?? [])
            return nil
        }
        if let cached { return cached }
        let members = try await store.lockstepMembers(deckId: deckId, minCrowd: LockstepClusters.minSize)
        // The deck's active cards, not the cards these members happened to decide: agreeing on the
        // one card a crowd decided is no crowd of fakes.
        let activeCards = members.isEmpty ? 0 : try await store.cardIds(deckId: deckId).active.count
        // The rule is CPU work over every member of the crowded networks: off the concurrency pool.
        let clusters =
            members.isEmpty
            ? []
            : try await NIOThreadPool.singleton.runIfActive {
                LockstepClusters.detect(members, activeCards: activeCards)
            }
        lastRun.withLock { $0[deckId] = (now, clusters) }
        let strong = clusters.filter(\.excludes)
        if strong.isEmpty { return clusters }
        let states = try await store.exclusionStates(deckId: deckId)
        for cluster in strong {
            for id in cluster.members where !states.excluded.contains(id) && !states.lifted.contains(id) {
                try await store.setExcluded(
                    deck: deck, participant: id, true, reason: Self.reasonPrefix + cluster.reason, by: nil, now: now)
            }
        }
        return clusters
    }
}
