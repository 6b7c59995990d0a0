import GRDB
import SwipePhysics

/// Exact aggregates of a deck's live swipes, kept inside the transaction that changes a swipe
/// (insert, undo, flip) or an exclusion, so results, dashboard counts and the live stream read a
/// few hundred rows however many swipes a deck holds.
///
/// - `swipeTallies`: live swipes per deck × `outOfResults` (1 = the participant is excluded) ×
///   card × kind (`SwipeKind.code`) × direction. Every kind is kept apart, so any
///   `countedInputs` setting is computed exactly at read time.
/// - `deckParticipants`: per deck and participant, live swipes by kind (`k0`…`k4`) and whether
///   an exclusion is in force (the single source the other tables follow).
/// - `participantMasks`: per deck × `outOfResults` × mask (bit `1 << kind` set when the
///   participant has a live swipe of that kind), the number of participants: "distinct
///   participants with a counted swipe" is the sum over masks that meet the counted kinds.
/// - `decisionBuckets` / `decisionTimes`: decision times of live, not suspect swipes of
///   participants not excluded, per kind: counts per bucket (`bucket(of:)`, 128 per octave) and
///   per exact value, so the median is found by summing buckets and then one bucket's values.
enum SwipeAggregates {
    /// SQL giving a `swipes` row's `SwipeKind.code` (as `SwipeKind.of`).
    static let kindSQL = """
        (CASE WHEN trace IS NOT NULL OR traceData IS NOT NULL THEN (CASE WHEN suspect THEN 1 ELSE 0 END) \
        WHEN suspect THEN 3 WHEN input IN ('button', 'key') THEN 2 ELSE 4 END)
        """

    static func participant(_ db: Database, deckId: Int64, participant: String) throws -> ParticipantState {
        guard
            let r = try Row.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT excluded, k0, k1, k2, k3, k4 FROM deckParticipants WHERE deckId = ? AND participantId = ?"
                ),
                arguments: [deckId, participant])
        else { return ParticipantState() }
        return ParticipantState(excluded: r[0], counts: [r[1], r[2], r[3], r[4], r[5]])
    }

    static func store(_ db: Database, deckId: Int64, participant: String, _ s: ParticipantState) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO deckParticipants VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            .execute(arguments: [
                deckId, participant, s.excluded, s.counts[0], s.counts[1], s.counts[2], s.counts[3], s.counts[4],
            ])
    }

    /// Adds (`sign` 1) or removes (`sign` -1) one live swipe. `state` is the participant's row
    /// when the caller has just read it; `decided`, the new row `SwipeRule` decided for a write.
    static func add(
        _ db: Database, deckId: Int64, cardId: Int64, participant: String, direction: Decision, kind: SwipeKind,
        decisionMs: Double?, sign: Int, from state: ParticipantState? = nil, to decided: ParticipantState? = nil
    ) throws {
        let old = try state ?? self.participant(db, deckId: deckId, participant: participant)
        try tally(db, deckId: deckId, out: old.excluded, cardId: cardId, kind: kind, direction: direction, n: sign)
        if !old.excluded, kind.countedAs != nil, let decisionMs {
            try time(db, deckId: deckId, kind: kind, ms: decisionMs, n: sign)
        }
        let new = decided ?? old.counting(kind, sign)
        try store(db, deckId: deckId, participant: participant, new)
        try moveMask(db, deckId: deckId, from: (old.excluded, old.mask), to: (new.excluded, new.mask))
    }

    /// Moves a live swipe from one direction to another (a flip).
    static func flip(
        _ db: Database, deckId: Int64, cardId: Int64, participant: String, kind: SwipeKind, from: Decision, to: Decision
    ) throws {
        let s = try self.participant(db, deckId: deckId, participant: participant)
        try tally(db, deckId: deckId, out: s.excluded, cardId: cardId, kind: kind, direction: from, n: -1)
        try tally(db, deckId: deckId, out: s.excluded, cardId: cardId, kind: kind, direction: to, n: 1)
    }

    /// Moves the participant's live swipes in or out of the results when an exclusion starts or is lifted.
    static func setExcluded(_ db: Database, deckId: Int64, participant: String, _ excluded: Bool) throws {
        let old = try self.participant(db, deckId: deckId, participant: participant)
        if old.excluded == excluded { return }
        let live = "FROM swipes WHERE participantId = ? AND deckId = ? AND undoneAt IS NULL"
        for r in try Row.fetchAll(
            db,
            sql: "SELECT cardId, \(kindSQL) AS kind, direction, COUNT(*) AS n \(live) GROUP BY cardId, kind, direction",
            arguments: [participant, deckId])
        {
            guard let kind = SwipeKind.code(r["kind"]) else { continue }
            let n: Int = r["n"]
            try tally(
                db, deckId: deckId, out: old.excluded, cardId: r["cardId"], kind: kind, direction: r["direction"], n: -n
            )
            try tally(
                db, deckId: deckId, out: excluded, cardId: r["cardId"], kind: kind, direction: r["direction"], n: n)
        }
        for r in try Row.fetchAll(
            db,
            sql: """
                SELECT \(kindSQL) AS kind, decisionMs, COUNT(*) AS n \(live) AND decisionMs IS NOT NULL GROUP BY kind, decisionMs
                """, arguments: [participant, deckId])
        {
            guard let kind = SwipeKind.code(r["kind"]), kind.countedAs != nil else { continue }
            try time(db, deckId: deckId, kind: kind, ms: r["decisionMs"], n: excluded ? -(r["n"] as Int) : r["n"])
        }
        var new = old
        new.excluded = excluded
        try store(db, deckId: deckId, participant: participant, new)
        try moveMask(db, deckId: deckId, from: (old.excluded, old.mask), to: (new.excluded, new.mask))
    }

    static func tally(
        _ db: Database, deckId: Int64, out: Bool, cardId: Int64, kind: SwipeKind, direction: Decision, n: Int
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO swipeTallies (deckId, outOfResults, cardId, kind, direction, n) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (deckId, outOfResults, cardId, kind, direction) DO UPDATE SET n = n + excluded.n
                """
        ).execute(arguments: [deckId, out, cardId, kind.code, direction, n])
    }

    static func moveMask(_ db: Database, deckId: Int64, from: (Bool, Int), to: (Bool, Int)) throws {
        if from == to { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO participantMasks (deckId, outOfResults, mask, n) VALUES (?, ?, ?, ?)
                ON CONFLICT (deckId, outOfResults, mask) DO UPDATE SET n = n + excluded.n
                """)
        if from.1 != 0 { try statement.execute(arguments: [deckId, from.0, from.1, -1]) }
        if to.1 != 0 { try statement.execute(arguments: [deckId, to.0, to.1, 1]) }
    }

    static func time(_ db: Database, deckId: Int64, kind: SwipeKind, ms: Double, n: Int) throws {
        // -0 and 0 are one value for SQLite (and for the median's sum).
        let ms = ms == 0 ? 0 : ms
        let bucket = self.bucket(of: ms)
        try db.cachedStatement(
            sql: """
                INSERT INTO decisionBuckets (deckId, kind, bucket, n) VALUES (?, ?, ?, ?)
                ON CONFLICT (deckId, kind, bucket) DO UPDATE SET n = n + excluded.n
                """
        ).execute(arguments: [deckId, kind.code, bucket, n])
        try db.cachedStatement(
            sql: """
                INSERT INTO decisionTimes (deckId, kind, bucket, decisionMs, n) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (deckId, kind, bucket, decisionMs) DO UPDATE SET n = n + excluded.n
                """
        ).execute(arguments: [deckId, kind.code, bucket, ms, n])
    }

    /// The bucket of a decision time ≥ 0: the top bits of the double (sign, exponent and 7
    /// mantissa bits), which order like the values and split each octave into 128 buckets.
    static func bucket(of ms: Double) -> Int64 {
        Int64(bitPattern: (ms == 0 ? 0 : ms).bitPattern >> 45)
    }
}
