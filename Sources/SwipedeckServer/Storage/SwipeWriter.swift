import Foundation
import GRDB

/// Group commit for swipes: requests that arrive while a transaction is running are inserted
/// together in the next one. Each caller is resumed only after the transaction holding its row
/// committed, so a 2xx still means "on disk" (as far as `PRAGMA synchronous` promises).
///
/// With one request at a time this is one transaction per swipe; under load batches grow to
/// `maxBatch`, amortising the commit (the WAL append and, with FULL, the fsync).
public actor SwipeWriter {
    /// A swipe ready to insert (already validated) or a rejection to log.
    public enum Item: Sendable {
        /// A swipe and the deck rules checked inside the transaction (so they are exact under
        /// concurrency): the deck's quota, and whether the human-pace rule applies (button/key).
        case swipe(Swipe, quota: Int? = nil, paced: Bool = false)
        case rejection(deckId: Int64, cardId: Int64?, participantId: String?, code: String, at: Double)
    }

    private struct Job {
        let item: Item
        let continuation: CheckedContinuation<SwipeOutcome?, any Error>
    }

    private let pool: DatabasePool
    private let maxBatch: Int
    /// Marked with each batch's decks after its commit (live results); nil when nobody watches.
    private let changes: DeckChanges?
    private var queue: [Job] = []
    private var draining = false
    /// Transactions committed and items written (group-commit accounting, checked by the storage tests).
    public private(set) var commits = 0
    public private(set) var items = 0

    public init(pool: DatabasePool, maxBatch: Int = 256, changes: DeckChanges? = nil) {
        self.pool = pool
        self.maxBatch = maxBatch
        self.changes = changes
    }

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
            do {
                let outcomes = try await pool.write { db in
                    try items.map { try Self.apply($0, db) }
                }
                commits += 1
                changes?.mark(Set(items.map(\.deckId)))
                self.items += batch.count
                for (job, outcome) in zip(batch, outcomes) { job.continuation.resume(returning: outcome) }
            } catch {
                for job in batch { job.continuation.resume(throwing: error) }
            }
        }
        draining = false
    }

    /// One item inside the group transaction. Storage rules are checked by queries, not by
    /// catching constraint errors, so one refused item never aborts its neighbours.
    ///
    /// This runs on the single writer for every swipe, so it uses cached prepared statements
    /// (no SQL parsing per swipe) and binds the row's columns directly.
    static func apply(_ item: Item, _ db: Database) throws -> SwipeOutcome? {
        switch item {
        case .rejection(let deckId, let cardId, let participantId, let code, let at):
            try db.cachedStatement(sql: "INSERT INTO rejections (deckId, cardId, participantId, code, createdAt) VALUES (?, ?, ?, ?, ?)")
                .execute(arguments: [deckId, cardId, participantId, code, at])
            return nil
        case .swipe(var swipe, let quota, let paced):
            if let existing = try Swipe.fetchOne(db.cachedStatement(sql: "SELECT * FROM swipes WHERE id = ?"), arguments: [swipe.id]) {
                return existing.requestHash == swipe.requestHash ? .replayed(existing) : .refused(.idempotencyMismatch)
            }
            let live = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM swipes WHERE participantId = ? AND cardId = ? AND undoneAt IS NULL"),
                arguments: [swipe.participantId, swipe.cardId]) ?? false
            if live { return .refused(.alreadySwiped) }
            // The participant's aggregate row: live swipes in this deck (the quota) and exclusion.
            let state = try SwipeAggregates.participant(db, deckId: swipe.deckId, participant: swipe.participantId)
            if let quota, state.live >= quota { return .refused(.quotaReached(quota)) }
            if paced {
                let previous = try Double.fetchAll(
                    db.cachedStatement(sql: "SELECT createdAt FROM swipes WHERE participantId = ? AND deckId = ? ORDER BY createdAt DESC LIMIT 2"),
                    arguments: [swipe.participantId, swipe.deckId])
                let mintedAt = ParticipantSigner.mintTime(of: swipe.participantId)
                if let reason = HumanPace.suspectReason(now: swipe.createdAt, mintedAt: mintedAt, previous: previous) {
                    swipe.suspect = true
                    swipe.suspectReason = reason
                }
            }
            swipe.cardRevision = try Int.fetchOne(db.cachedStatement(sql: "SELECT revision FROM cards WHERE id = ?"), arguments: [swipe.cardId])
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO participants (id, kind, createdAt) VALUES (?, ?, ?)")
                .execute(arguments: [swipe.participantId, swipe.input == "api" ? "api" : "browser", swipe.createdAt])
            try insert(swipe, db)
            try SwipeAggregates.add(
                db, deckId: swipe.deckId, cardId: swipe.cardId, participant: swipe.participantId, direction: swipe.direction,
                kind: swipe.kind, decisionMs: swipe.decisionMs, sign: 1, state: state)
            return .created(swipe)
        }
    }

    static func insert(_ swipe: Swipe, _ db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, trace, traceData, velocityX, velocityY,
                                durationMs, decisionMs, suspect, requestHash, createdAt, undoneAt, cardRevision, suspectReason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                swipe.id, swipe.deckId, swipe.cardId, swipe.participantId, swipe.direction, swipe.input, swipe.trace, swipe.traceData,
                swipe.velocityX, swipe.velocityY, swipe.durationMs, swipe.decisionMs, swipe.suspect, swipe.requestHash,
                swipe.createdAt, swipe.undoneAt, swipe.cardRevision, swipe.suspectReason,
            ])
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
