import PostgresNIO
import SwipePhysics

/// The aggregate changes of one PostgreSQL transaction (`SwipeAggregates` describes the
/// tables), summed per row in memory and written at the end of the transaction in key order:
/// a batch of 256 swipes on a few cards is a few upserts, and two servers' transactions lock
/// the shared aggregate rows in the same order, so they queue instead of deadlocking.
struct PostgresAggregates {
    private struct Tally: Hashable {
        var deckId: Int64, out: Bool, cardId: Int64, kind: Int, direction: Decision
    }

    private struct Mask: Hashable {
        var deckId: Int64, out: Bool, mask: Int
    }

    private struct Time: Hashable {
        var deckId: Int64, kind: Int, bucket: Int64, ms: Double
    }

    private var tallies: [Tally: Int] = [:]
    private var masks: [Mask: Int] = [:]
    private var times: [Time: Int] = [:]

    /// Adds (`sign` 1) or removes (-1) one live swipe of a participant whose aggregate row was
    /// `old` and is now `new` (the caller updated the row's counts).
    mutating func add(
        deckId: Int64, cardId: Int64, direction: Decision, kind: SwipeKind, decisionMs: Double?, sign: Int,
        old: ParticipantState, new: ParticipantState
    ) {
        tally(deckId: deckId, out: old.excluded, cardId: cardId, kind: kind, direction: direction, n: sign)
        if !old.excluded, kind.countedAs != nil, let decisionMs {
            time(deckId: deckId, kind: kind, ms: decisionMs, n: sign)
        }
        moveMask(deckId: deckId, from: (old.excluded, old.mask), to: (new.excluded, new.mask))
    }

    mutating func tally(deckId: Int64, out: Bool, cardId: Int64, kind: SwipeKind, direction: Decision, n: Int) {
        tallies[Tally(deckId: deckId, out: out, cardId: cardId, kind: kind.code, direction: direction), default: 0] += n
    }

    mutating func moveMask(deckId: Int64, from: (Bool, Int), to: (Bool, Int)) {
        if from == to { return }
        if from.1 != 0 { masks[Mask(deckId: deckId, out: from.0, mask: from.1), default: 0] -= 1 }
        if to.1 != 0 { masks[Mask(deckId: deckId, out: to.0, mask: to.1), default: 0] += 1 }
    }

    mutating func time(deckId: Int64, kind: SwipeKind, ms: Double, n: Int) {
        // -0 and 0 are one value (as in SQLite).
        let ms = ms == 0 ? 0 : ms
        times[Time(deckId: deckId, kind: kind.code, bucket: SwipeAggregates.bucket(of: ms), ms: ms), default: 0] += n
    }

    /// Upserts every non-zero change in one statement (a data-modifying CTE per table, rows in
    /// key order) and notifies `PostgresStore.changesChannel` with each of `decks`: the shared
    /// rows stay locked from this statement to the commit, so it is one round trip, not five.
    func write(on connection: PostgresConnection, logger: Logger, notifying decks: [Int64] = []) async throws {
        let t = tallies.filter { $0.value != 0 }
        let m = masks.filter { $0.value != 0 }
        let d = times.filter { $0.value != 0 }
        var buckets: [Time: Int] = [:]
        for (key, n) in d {
            buckets[Time(deckId: key.deckId, kind: key.kind, bucket: key.bucket, ms: 0), default: 0] += n
        }
        let b = buckets.filter { $0.value != 0 }
        if t.isEmpty && m.isEmpty && d.isEmpty && decks.isEmpty { return }
        _ = try await connection.query(
            """
            WITH tallies AS (
                INSERT INTO swipeTallies (deckId, outOfResults, cardId, kind, direction, n)
                SELECT * FROM unnest(\(t.keys.map(\.deckId))::bigint[], \(t.keys.map(\.out))::boolean[], \(t.keys.map(\.cardId))::bigint[],
                                     \(t.keys.map(\.kind))::bigint[], \(t.keys.map(\.direction.rawValue))::text[], \(Array(t.values))::bigint[])
                ORDER BY 1, 2, 3, 4, 5
                ON CONFLICT (deckId, outOfResults, cardId, kind, direction) DO UPDATE SET n = swipeTallies.n + excluded.n
            ), masks AS (
                INSERT INTO participantMasks (deckId, outOfResults, mask, n)
                SELECT * FROM unnest(\(m.keys.map(\.deckId))::bigint[], \(m.keys.map(\.out))::boolean[], \(m.keys.map(\.mask))::bigint[],
                                     \(Array(m.values))::bigint[])
                ORDER BY 1, 2, 3
                ON CONFLICT (deckId, outOfResults, mask) DO UPDATE SET n = participantMasks.n + excluded.n
            ), buckets AS (
                INSERT INTO decisionBuckets (deckId, kind, bucket, n)
                SELECT * FROM unnest(\(b.keys.map(\.deckId))::bigint[], \(b.keys.map(\.kind))::bigint[], \(b.keys.map(\.bucket))::bigint[],
                                     \(Array(b.values))::bigint[])
                ORDER BY 1, 2, 3
                ON CONFLICT (deckId, kind, bucket) DO UPDATE SET n = decisionBuckets.n + excluded.n
            ), times AS (
                INSERT INTO decisionTimes (deckId, kind, bucket, decisionMs, n)
                SELECT * FROM unnest(\(d.keys.map(\.deckId))::bigint[], \(d.keys.map(\.kind))::bigint[], \(d.keys.map(\.bucket))::bigint[],
                                     \(d.keys.map(\.ms))::float8[], \(Array(d.values))::bigint[])
                ORDER BY 1, 2, 3, 4
                ON CONFLICT (deckId, kind, bucket, decisionMs) DO UPDATE SET n = decisionTimes.n + excluded.n
            )
            SELECT pg_notify(\(PostgresStore.changesChannel), deck::text) FROM unnest(\(decks)::bigint[]) AS deck
            """, logger: logger
        ).collect()
    }
}
