import Foundation

/// Group commit for swipes: requests that arrive while a transaction is running are inserted
/// together in the next one. Each caller is resumed only after the transaction holding its row
/// committed, so a 2xx still means "on disk" (as far as the engine's durability setting promises:
/// `PRAGMA synchronous` for SQLite, `synchronous_commit` for PostgreSQL).
///
/// With one request at a time this is one transaction per swipe; under load batches grow to
/// `maxBatch`, amortising the commit (the WAL append and, with FULL, the fsync).
public actor SwipeWriter {
    /// A swipe ready to insert (already validated) or a rejection to log.
    public enum Item: Sendable {
        /// A swipe and what `SwipeRule` needs to decide it inside the transaction (so its rules
        /// are exact under concurrency): the deck's quota, and, with its origin, the human-pace
        /// rules (`HumanPace`) and the participant's join record for `LockstepClusters` (nil
        /// skips both, as the seeder of benchmark data does).
        case swipe(Swipe, quota: Int? = nil, origin: Origin? = nil)
        case rejection(deckId: Int64, cardId: Int64?, participantId: String?, code: String, at: Double)
    }

    /// Where a decision comes from: what the human-pace rules and the lockstep clusters need
    /// beside the stored swipes.
    public struct Origin: Sendable, Hashable {
        /// When the participant's credential was minted (seconds since 1970), if it says so.
        public var mintedAt: Double?
        /// The client's network (`ClientNetwork.key`); nil when unknown (no peer address).
        public var network: String?

        public init(mintedAt: Double?, network: String?) {
            self.mintedAt = mintedAt
            self.network = network
        }
    }

    private struct Job {
        let item: Item
        let continuation: CheckedContinuation<SwipeOutcome?, any Error>
    }

    private let store: any SwipeStore
    private let maxBatch: Int
    /// Marked with each batch's decks after its commit (live results); nil when nobody watches.
    private let changes: DeckChanges?
    private var queue: [Job] = []
    private var draining = false
    /// True while a group-commit transaction runs (`load`, for the metrics).
    private var committing = false
    /// Batch sizes, commit latency, rows stored and suspect flags; nil records nothing.
    private let metrics: AppMetrics?
    /// Handed each commit's new swipes after it (webhooks' `swipe.created`); nil: nobody.
    private let swipeNotices: SwipeNotices?
    /// Transactions committed and items written (group-commit accounting, checked by the storage tests).
    public private(set) var commits = 0
    public private(set) var items = 0

    public init(
        store: any SwipeStore, maxBatch: Int = 256, changes: DeckChanges? = nil, metrics: AppMetrics? = nil,
        swipeNotices: SwipeNotices? = nil
    ) {
        self.store = store
        self.maxBatch = maxBatch
        self.changes = changes
        self.metrics = metrics
        self.swipeNotices = swipeNotices
    }

    /// Swipes waiting for the next transaction, and whether one is running now.
    public var load: (queued: Int, committing: Bool) { (queue.count, committing) }

    /// Writes the item in the next group transaction and returns once it committed.
    /// Returns nil for a logged rejection.
    @discardableResult
    public func submit(_ item: Item) async throws -> SwipeOutcome? {
        try await withCheckedThrowingContinuation { c in
            queue.append(Job(item: item, continuation: c))
            if !draining {
                draining = true
                Task { await self.drain() }
            }
        }
    }

    private func drain() async {
        while !queue.isEmpty {
            let take = min(queue.count, maxBatch)
            let batch = Array(queue.prefix(take))
            queue.removeFirst(take)
            let items = batch.map(\.item)
            committing = true
            defer { committing = false }
            do {
                // Monotonic time for the commit's latency (a measurement, not a domain time).
                let started = ContinuousClock.now
                let outcomes = try await store.writeSwipes(items)
                let stored = outcomes.compactMap { if case .created(let swipe)? = $0 { swipe } else { nil } }
                metrics?.recordCommit(items: items.count, duration: ContinuousClock.now - started, stored: stored)
                commits += 1
                changes?.mark(Set(items.map(\.deckId)))
                self.items += batch.count
                for (job, outcome) in zip(batch, outcomes) { job.continuation.resume(returning: outcome) }
                if !stored.isEmpty { swipeNotices?.stored(stored) }
            } catch {
                for job in batch { job.continuation.resume(throwing: error) }
            }
        }
        draining = false
    }
}

extension SwipeWriter.Item {
    /// The deck the item belongs to.
    var deckId: Int64 {
        switch self {
        case .swipe(let swipe, _, _): return swipe.deckId
        case .rejection(let deckId, _, _, _, _): return deckId
        }
    }
}
