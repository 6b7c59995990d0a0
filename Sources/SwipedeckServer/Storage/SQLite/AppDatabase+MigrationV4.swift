import GRDB

extension AppDatabase {
    /// Migration v4: compact traces and exact aggregates, so the cost of a swipe and of reading
    /// results stays flat as a deck grows.
    ///
    /// - `swipes.traceData`: new drag swipes store their trace in `TraceCodec`'s binary form
    ///   (`trace` stays NULL); rows stored before keep their JSON text in `trace`.
    /// - Indexes: only those the remaining reads of `swipes` use (the query-plan test in
    ///   AggregateTests lists them). Results, dashboard counts and the live stream read the
    ///   aggregate tables instead of scanning the deck's swipes, so the four results indexes go,
    ///   and so does v1's foreign-key index on `cardId` (cards are never deleted). Kept: the
    ///   primary key (idempotency), `swipes_live_once` (the one-live-swipe rule, unswiped cards),
    ///   `swipes_by_participant` (history, pace, undo), `swipes_on_deckId` (exports by rowid);
    ///   added: `swipes_by_deck_time` (the dashboard's last hour), which grows at its right edge.
    /// - Aggregates (`SwipeAggregates` keeps them inside every transaction that changes a swipe
    ///   or an exclusion), filled here from the rows already stored.
    ///
    /// Frozen: the SQL below is what the migration does, and nothing in it calls live code, so a
    /// later change of `SwipeAggregates` or `SwipeKind` cannot change what an old database is
    /// migrated to. The kinds and the decision-time buckets are spelt out as they were then:
    /// kind 0 drag, 1 suspect drag, 2 button, 3 suspect button, 4 api (0, 2 and 4 have decision
    /// times counted); a bucket is the top 19 bits of the double (`v4_bucket`). AggregateTests
    /// checks that the result equals what the writer's code computes from the same rows.
    static func compactAndAggregate(_ db: Database) throws {
        try db.alter(table: "swipes") { t in t.add(column: "traceData", .blob) }
        try db.execute(
            sql: """
                DROP INDEX swipes_by_deck;
                DROP INDEX swipes_by_deck_participant;
                DROP INDEX swipes_results_participants;
                DROP INDEX swipes_results_timing;
                DROP INDEX swipes_on_cardId;
                CREATE INDEX swipes_by_deck_time ON swipes(deckId, createdAt);
                CREATE TABLE swipeTallies (
                    deckId INTEGER NOT NULL, outOfResults INTEGER NOT NULL, cardId INTEGER NOT NULL,
                    kind INTEGER NOT NULL, direction TEXT NOT NULL, n INTEGER NOT NULL,
                    PRIMARY KEY (deckId, outOfResults, cardId, kind, direction)) WITHOUT ROWID;
                CREATE TABLE deckParticipants (
                    deckId INTEGER NOT NULL, participantId TEXT NOT NULL, excluded INTEGER NOT NULL DEFAULT 0,
                    k0 INTEGER NOT NULL DEFAULT 0, k1 INTEGER NOT NULL DEFAULT 0, k2 INTEGER NOT NULL DEFAULT 0,
                    k3 INTEGER NOT NULL DEFAULT 0, k4 INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (deckId, participantId)) WITHOUT ROWID;
                CREATE INDEX deckParticipants_flagged ON deckParticipants(deckId) WHERE excluded = 1 OR k1 > 0 OR k3 > 0;
                CREATE TABLE participantMasks (
                    deckId INTEGER NOT NULL, outOfResults INTEGER NOT NULL, mask INTEGER NOT NULL, n INTEGER NOT NULL,
                    PRIMARY KEY (deckId, outOfResults, mask)) WITHOUT ROWID;
                CREATE TABLE decisionBuckets (
                    deckId INTEGER NOT NULL, kind INTEGER NOT NULL, bucket INTEGER NOT NULL, n INTEGER NOT NULL,
                    PRIMARY KEY (deckId, kind, bucket)) WITHOUT ROWID;
                CREATE TABLE decisionTimes (
                    deckId INTEGER NOT NULL, kind INTEGER NOT NULL, bucket INTEGER NOT NULL, decisionMs REAL NOT NULL,
                    n INTEGER NOT NULL, PRIMARY KEY (deckId, kind, bucket, decisionMs)) WITHOUT ROWID;
                """)
        // Existing exclusions in force mark their participants.
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO deckParticipants (deckId, participantId, excluded)
                SELECT DISTINCT deckId, participantId, 1 FROM exclusions WHERE liftedAt IS NULL
                """)
        // The live swipes, each with its kind, and each participant's counts by kind.
        let live = """
            WITH live AS (
                SELECT deckId, cardId, participantId, direction, decisionMs,
                       (CASE WHEN trace IS NOT NULL OR traceData IS NOT NULL THEN (CASE WHEN suspect THEN 1 ELSE 0 END)
                        WHEN suspect THEN 3 WHEN input IN ('button', 'key') THEN 2 ELSE 4 END) AS kind
                FROM swipes WHERE undoneAt IS NULL)
            """
        try db.execute(
            sql: """
                \(live)
                INSERT INTO deckParticipants (deckId, participantId, excluded, k0, k1, k2, k3, k4)
                SELECT deckId, participantId, 0, SUM(kind = 0), SUM(kind = 1), SUM(kind = 2), SUM(kind = 3), SUM(kind = 4)
                FROM live WHERE true GROUP BY deckId, participantId
                ON CONFLICT (deckId, participantId) DO UPDATE SET
                    k0 = excluded.k0, k1 = excluded.k1, k2 = excluded.k2, k3 = excluded.k3, k4 = excluded.k4
                """)
        try db.execute(
            sql: """
                \(live)
                INSERT INTO swipeTallies (deckId, outOfResults, cardId, kind, direction, n)
                SELECT l.deckId, p.excluded, l.cardId, l.kind, l.direction, COUNT(*)
                FROM live l JOIN deckParticipants p ON p.deckId = l.deckId AND p.participantId = l.participantId
                GROUP BY l.deckId, p.excluded, l.cardId, l.kind, l.direction
                """)
        try db.execute(
            sql: """
                INSERT INTO participantMasks (deckId, outOfResults, mask, n)
                SELECT deckId, excluded, mask, COUNT(*) FROM (
                    SELECT deckId, excluded,
                           (k0 > 0) | ((k1 > 0) << 1) | ((k2 > 0) << 2) | ((k3 > 0) << 3) | ((k4 > 0) << 4) AS mask
                    FROM deckParticipants)
                WHERE mask != 0 GROUP BY deckId, excluded, mask
                """)
        // Decision times of counted kinds, of participants not excluded; -0 is stored as 0.
        db.add(function: v4Bucket)
        defer { db.remove(function: v4Bucket) }
        let times = """
            \(live), timed AS (
                SELECT l.deckId, l.kind, (CASE WHEN l.decisionMs = 0 THEN 0.0 ELSE l.decisionMs END) AS ms
                FROM live l JOIN deckParticipants p ON p.deckId = l.deckId AND p.participantId = l.participantId
                WHERE p.excluded = 0 AND l.kind IN (0, 2, 4) AND l.decisionMs IS NOT NULL)
            """
        try db.execute(
            sql: """
                \(times)
                INSERT INTO decisionBuckets (deckId, kind, bucket, n)
                SELECT deckId, kind, v4_bucket(ms), COUNT(*) FROM timed GROUP BY deckId, kind, v4_bucket(ms)
                """)
        try db.execute(
            sql: """
                \(times)
                INSERT INTO decisionTimes (deckId, kind, bucket, decisionMs, n)
                SELECT deckId, kind, v4_bucket(ms), ms, COUNT(*) FROM timed GROUP BY deckId, kind, v4_bucket(ms), ms
                """)
    }

    /// `v4_bucket(ms)`: a decision time's bucket as migration v4 computed it — the double's top 19
    /// bits (sign, exponent, 7 mantissa bits), 128 buckets per octave.
    private static let v4Bucket = DatabaseFunction("v4_bucket", argumentCount: 1, pure: true) { values in
        // `timed` selects non-null times only; a null would have no bucket.
        guard let ms = Double.fromDatabaseValue(values[0]) else { return nil }
        return Int64(bitPattern: ms.bitPattern >> 45)
    }
}
