import GRDB

extension AppDatabase {
    /// A deck's results, read from the aggregates `SwipeAggregates` keeps (a few hundred rows
    /// however many swipes the deck holds). Live swipes of participants the owner excluded are
    /// left out of everything; the rest are counted by kind, and the ranking counts the deck's
    /// `counted` kinds (suspect kinds never).
    public func results(for deck: Deck) async throws -> ResultsReport {
        let deckId = deck.id
        let counted = deck.countedInputs
        return try await writer.read { db in try Self.results(db, deck: deck, deckId: deckId, counted: counted) }
    }

    static func results(_ db: Database, deck: Deck, deckId: Int64, counted: Set<CountedInput>) throws -> ResultsReport {
        let cards = try Card.filter(Column("deckId") == deckId).order(Column("position"), Column("id")).fetchAll(db)
        var tally = ResultsTally()
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql:
                    "SELECT cardId, kind, direction, n FROM swipeTallies WHERE deckId = ? AND outOfResults = 0 AND n > 0"
            ),
            arguments: [deckId])
        while let r = try rows.next() {
            guard let kind = SwipeKind.code(r[1]) else { continue }
            tally.add(card: r[0], direction: r[2], kind: kind, count: r[3], counted: counted)
        }
        let countedMask = SwipeKind.countedMask(counted)
        let participants =
            try Int.fetchOne(
                db.cachedStatement(
                    sql:
                        "SELECT COALESCE(SUM(n), 0) FROM participantMasks WHERE deckId = ? AND outOfResults = 0 AND mask & ? != 0"
                ),
                arguments: [deckId, countedMask]) ?? 0
        let median = try medianDecisionMs(
            db, deckId: deckId, kinds: SwipeKind.allCases.filter { countedMask & 1 << $0.code != 0 })
        var rejections: [String: Int] = [:]
        for r in try Row.fetchAll(
            db, sql: "SELECT code, COUNT(*) AS n FROM rejections WHERE deckId = ? GROUP BY code", arguments: [deckId])
        {
            rejections[r["code"]] = r["n"]
        }
        let excluded =
            try Int.fetchOne(
                db, sql: "SELECT COUNT(DISTINCT participantId) FROM exclusions WHERE deckId = ? AND liftedAt IS NULL",
                arguments: [deckId]) ?? 0
        let excludedSwipes =
            try Int.fetchOne(
                db, sql: "SELECT COALESCE(SUM(n), 0) FROM swipeTallies WHERE deckId = ? AND outOfResults = 1",
                arguments: [deckId]) ?? 0
        return ResultsReport(
            deck: deck, cards: cards, tally: tally, participants: participants, medianDecisionMs: median,
            rejections: rejections, excludedParticipants: excluded, excludedSwipes: excludedSwipes)
    }

    /// The median decision time of the counted kinds (the mean of the two middle values for an
    /// even count), exact (`BucketedMedian`).
    static func medianDecisionMs(_ db: Database, deckId: Int64, kinds: [SwipeKind]) throws -> Double? {
        if kinds.isEmpty { return nil }
        let inKinds = kinds.map { String($0.code) }.joined(separator: ",")
        let buckets = try Row.fetchAll(
            db,
            sql: """
                SELECT bucket, SUM(n) FROM decisionBuckets WHERE deckId = ? AND kind IN (\(inKinds)) GROUP BY bucket HAVING SUM(n) > 0 ORDER BY bucket
                """, arguments: [deckId]
        ).map { (bucket: $0[0] as Int64, n: $0[1] as Int) }
        let median = BucketedMedian(buckets: buckets)
        var values: [Double] = []
        for rank in median.middleRanks {
            guard let (bucket, before) = median.locate(rank) else { continue }
            let times = try Row.fetchAll(
                db,
                sql: """
                    SELECT decisionMs, SUM(n) FROM decisionTimes WHERE deckId = ? AND kind IN (\(inKinds)) AND bucket = ?
                    GROUP BY decisionMs HAVING SUM(n) > 0 ORDER BY decisionMs
                    """, arguments: [deckId, bucket]
            ).map { (value: $0[0] as Double, n: $0[1] as Int) }
            if let value = BucketedMedian.value(at: rank, before: before, in: times) { values.append(value) }
        }
        return BucketedMedian.mean(values)
    }
}

extension AppDatabase {
    /// The owner's decks, newest first, with their activity; `since` is the start of "the last hour".
    /// Live counts come from the aggregates (`SwipeAggregates`); the last hour is a range of the
    /// append-only index `swipes_by_deck_time`.
    public func activity(ownerId: Int64, since: Double) async throws -> [DeckActivity] {
        try await writer.read { db in
            let decks = try Deck.filter(Column("ownerId") == ownerId).order(Column("createdAt").desc, Column("id").desc)
                .fetchAll(db)
            return try decks.map { d in
                let id = d.id
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT (SELECT COUNT(*) FROM cards WHERE deckId = ? AND archivedAt IS NULL) AS cards,
                               (SELECT COALESCE(SUM(n), 0) FROM swipeTallies WHERE deckId = ?) AS swipes,
                               (SELECT COALESCE(SUM(n), 0) FROM participantMasks WHERE deckId = ? AND mask != 0) AS participants,
                               (SELECT COUNT(*) FROM swipes WHERE deckId = ? AND createdAt >= ? AND undoneAt IS NULL) AS lastHour
                        """, arguments: [id, id, id, id, since])
                return DeckActivity(
                    deck: d, cards: row?["cards"] ?? 0, swipes: row?["swipes"] ?? 0,
                    participants: row?["participants"] ?? 0, lastHour: row?["lastHour"] ?? 0)
            }
        }
    }
}
