import Foundation
import PostgresNIO
import SwipePhysics

extension PostgresStore {
    /// As `AppDatabase.results`, from the same aggregate tables, in one repeatable-read
    /// transaction (one snapshot, like SQLite's read transaction).
    public func results(for deck: Deck) async throws -> ResultsReport {
        let deckId = deck.id
        let counted = deck.countedInputs
        return try await transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { connection in
            try await results(deck: deck, deckId: deckId, counted: counted, on: connection)
        }
    }

    private func results(deck: Deck, deckId: Int64, counted: Set<CountedInput>, on connection: PostgresConnection)
        async throws -> ResultsReport
    {
        let cards = try await fetch(
            "SELECT \(unescaped: Self.cardColumns) FROM cards WHERE deckId = \(deckId) ORDER BY position, id",
            on: connection, Self.card)
        var tally = ResultsTally()
        let rows = try await fetch(
            """
            SELECT cardId, kind, direction, n FROM swipeTallies WHERE deckId = \(deckId) AND NOT outOfResults AND n > 0
            """, on: connection
        ) { c in
            (
                card: try c.next(Int64.self), kind: try c.next(Int.self), direction: try c.next(String.self),
                n: try c.next(Int.self)
            )
        }
        for r in rows {
            guard let kind = SwipeKind.code(r.kind) else { continue }
            tally.add(card: r.card, direction: r.direction, kind: kind, count: r.n, counted: counted)
        }
        let countedMask = SwipeKind.countedMask(counted)
        let participants =
            try await value(
                """
                SELECT COALESCE(SUM(n), 0)::bigint FROM participantMasks WHERE deckId = \(deckId) AND NOT outOfResults AND mask & \(countedMask) != 0
                """, on: connection, as: Int.self) ?? 0
        let kinds = SwipeKind.allCases.filter { countedMask & 1 << $0.code != 0 }
        let median = try await medianDecisionMs(deckId: deckId, kinds: kinds, on: connection)
        var rejections: [String: Int] = [:]
        for (code, n) in try await fetch(
            "SELECT code, COUNT(*) FROM rejections WHERE deckId = \(deckId) GROUP BY code", on: connection,
            { (try $0.next(String.self), try $0.next(Int.self)) })
        {
            rejections[code] = n
        }
        let excluded =
            try await value(
                "SELECT COUNT(DISTINCT participantId) FROM exclusions WHERE deckId = \(deckId) AND liftedAt IS NULL",
                on: connection, as: Int.self) ?? 0
        let excludedSwipes =
            try await value(
                "SELECT COALESCE(SUM(n), 0)::bigint FROM swipeTallies WHERE deckId = \(deckId) AND outOfResults",
                on: connection, as: Int.self) ?? 0
        return ResultsReport(
            deck: deck, cards: cards, tally: tally, participants: participants, medianDecisionMs: median,
            rejections: rejections, excludedParticipants: excluded, excludedSwipes: excludedSwipes)
    }

    /// As `AppDatabase.medianDecisionMs` (`BucketedMedian`).
    private func medianDecisionMs(deckId: Int64, kinds: [SwipeKind], on connection: PostgresConnection) async throws
        -> Double?
    {
        if kinds.isEmpty { return nil }
        let codes = kinds.map(\.code)
        let buckets = try await fetch(
            """
            SELECT bucket, SUM(n)::bigint FROM decisionBuckets WHERE deckId = \(deckId) AND kind = ANY(\(codes)::bigint[])
            GROUP BY bucket HAVING SUM(n) > 0 ORDER BY bucket
            """, on: connection
        ) { (bucket: try $0.next(Int64.self), n: try $0.next(Int.self)) }
        let median = BucketedMedian(buckets: buckets)
        var values: [Double] = []
        for rank in median.middleRanks {
            guard let (bucket, before) = median.locate(rank) else { continue }
            let times = try await fetch(
                """
                SELECT decisionMs, SUM(n)::bigint FROM decisionTimes
                WHERE deckId = \(deckId) AND kind = ANY(\(codes)::bigint[]) AND bucket = \(bucket)
                GROUP BY decisionMs HAVING SUM(n) > 0 ORDER BY decisionMs
                """, on: connection
            ) { (value: try $0.next(Double.self), n: try $0.next(Int.self)) }
            if let value = BucketedMedian.value(at: rank, before: before, in: times) { values.append(value) }
        }
        return BucketedMedian.mean(values)
    }

    public func activity(ownerId: Int64, since: Double) async throws -> [DeckActivity] {
        try await fetch(
            """
            SELECT \(unescaped: Self.deckColumns),
                   (SELECT COUNT(*) FROM cards WHERE deckId = d.id AND archivedAt IS NULL),
                   (SELECT COALESCE(SUM(n), 0)::bigint FROM swipeTallies WHERE deckId = d.id),
                   (SELECT COALESCE(SUM(n), 0)::bigint FROM participantMasks WHERE deckId = d.id AND mask != 0),
                   (SELECT COUNT(*) FROM swipes WHERE deckId = d.id AND createdAt >= \(since) AND undoneAt IS NULL)
            FROM decks d WHERE ownerId = \(ownerId) ORDER BY createdAt DESC, id DESC
            """
        ) { c in
            DeckActivity(
                deck: try Self.deck(&c), cards: try c.next(), swipes: try c.next(), participants: try c.next(),
                lastHour: try c.next())
        }
    }
}
