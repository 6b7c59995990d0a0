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
    static func compactAndAggregate(_ db: Database) throws {
        try db.alter(table: "swipes") { t in t.add(column: "traceData", .blob) }
        try db.execute(sql: """
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
        try db.execute(sql: """
            INSERT OR IGNORE INTO deckParticipants (deckId, participantId, excluded)
            SELECT DISTINCT deckId, participantId, 1 FROM exclusions WHERE liftedAt IS NULL
            """)
        // Every stored live swipe, through the same code the writer runs.
        let rows = try Row.fetchCursor(db, sql: """
            SELECT deckId, cardId, participantId, direction, \(SwipeAggregates.kindSQL) AS kind, decisionMs
            FROM swipes WHERE undoneAt IS NULL ORDER BY rowid
            """)
        while let r = try rows.next() {
            guard let kind = SwipeKind.code(r["kind"] as Int) else { continue }
            try SwipeAggregates.add(
                db, deckId: r["deckId"], cardId: r["cardId"], participant: r["participantId"], direction: r["direction"],
                kind: kind, decisionMs: r["decisionMs"], sign: 1)
        }
    }
}
