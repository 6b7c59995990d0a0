import Foundation
import PostgresNIO

/// The group commit's batch on PostgreSQL: a few set-wise statements per batch instead of a
/// round trip per check per swipe (at c=32 a batch holds tens of swipes); `SwipeRule.decide`
/// decides each item, in submission order, from what the batch read and the items before it.
///
/// 1. Lock the aggregate rows of the batch's participants, in (deck, participant) order (the
///    same order in every server's transactions), creating missing ones; their counts are the
///    quota's. 2. Read what the batch's keys, participant/card pairs, cards and (for paced items)
///    recent swipes already hold. 3. Decide each item. 4. Insert participants and swipes with
///    `ON CONFLICT DO NOTHING`; a row that still conflicts was committed by another server
///    meanwhile under a key its participant lock does not cover, and the batch is retried from
///    the start (`transaction` retries `RetryBatch`), when step 2 sees it. 5. Counts; then the
///    shared aggregates and the notification in one statement, so the rows every batch touches
///    are locked for one round trip and the commit.
extension PostgresStore {
    /// Thrown inside a batch to roll it back and run it again.
    struct RetryBatch: Error {}

    private struct Person: Hashable, Comparable {
        var deckId: Int64
        var id: String

        static func < (a: Person, b: Person) -> Bool { (a.deckId, a.id) < (b.deckId, b.id) }
    }

    private struct Pair: Hashable {
        var participant: String
        var card: Int64
    }

    public func writeSwipes(_ items: [SwipeWriter.Item]) async throws -> [SwipeOutcome?] {
        try await transaction { connection in
            var outcomes = [SwipeOutcome?](repeating: nil, count: items.count)
            try await insertRejections(items, on: connection)
            let swipes = items.enumerated().compactMap {
                i, item -> (index: Int, swipe: Swipe, quota: Int?, origin: SwipeWriter.Origin?)? in
                if case .swipe(let s, let quota, let origin) = item { return (i, s, quota, origin) }
                return nil
            }
            var aggregates = PostgresAggregates()
            if !swipes.isEmpty { try await writeBatch(swipes, &outcomes, &aggregates, on: connection) }
            // Last, with the notification: the shared rows stay locked for one round trip and the commit.
            try await aggregates.write(on: connection, logger: logger, notifying: Set(items.map(\.deckId)).sorted())
            return outcomes
        }
    }

    private func insertRejections(_ items: [SwipeWriter.Item], on connection: PostgresConnection) async throws {
        var decks: [Int64] = []
        var cards: [Int64?] = []
        var people: [String?] = []
        var codes: [String] = []
        var times: [Double] = []
        for case .rejection(let deckId, let cardId, let participantId, let code, let at) in items {
            decks.append(deckId)
            cards.append(cardId)
            people.append(participantId)
            codes.append(code)
            times.append(at)
        }
        if decks.isEmpty { return }
        try await execute(
            """
            INSERT INTO rejections (deckId, cardId, participantId, code, createdAt)
            SELECT * FROM unnest(\(decks)::bigint[], \(Self.arrayLiteral(cards.map { $0.map { "\($0)" } }))::bigint[],
                                 \(Self.arrayLiteral(people))::text[], \(codes)::text[], \(times)::float8[])
            """, on: connection)
    }

    /// Steps 1–5 for the batch's swipes; the shared aggregates' changes go into `aggregates`,
    /// which the caller writes last.
    private func writeBatch(
        _ swipes: [(index: Int, swipe: Swipe, quota: Int?, origin: SwipeWriter.Origin?)],
        _ outcomes: inout [SwipeOutcome?],
        _ aggregates: inout PostgresAggregates, on connection: PostgresConnection
    ) async throws {
        // 1. The participants' aggregate rows, locked in a fixed order.
        let people = Set(swipes.map { Person(deckId: $0.swipe.deckId, id: $0.swipe.participantId) }).sorted()
        var states: [Person: ParticipantState] = [:]
        for (person, state) in try await fetch(
            """
            INSERT INTO deckParticipants (deckId, participantId)
            SELECT * FROM unnest(\(people.map(\.deckId))::bigint[], \(people.map(\.id))::text[]) ORDER BY 1, 2
            ON CONFLICT (deckId, participantId) DO UPDATE SET excluded = deckParticipants.excluded
            RETURNING deckId, participantId, excluded, k0, k1, k2, k3, k4
            """, on: connection,
            { c in (Person(deckId: try c.next(), id: try c.next()), try Self.participantState(&c)) })
        {
            states[person] = state
        }
        // 2. What is stored already.
        let keys = swipes.map(\.swipe.id)
        var stored = Dictionary(
            try await fetch(
                "SELECT \(unescaped: Self.swipeColumns) FROM swipes WHERE id = ANY(\(keys)::text[])", on: connection,
                Self.swipe
            )
            .map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let cardIds = Array(Set(swipes.map(\.swipe.cardId)))
        var live = Set(
            try await fetch(
                """
                SELECT participantId, cardId FROM swipes
                WHERE participantId = ANY(\(people.map(\.id))::text[]) AND cardId = ANY(\(cardIds)::bigint[]) AND undoneAt IS NULL
                """, on: connection
            ) { Pair(participant: try $0.next(), card: try $0.next()) })
        let revisions = Dictionary(
            try await fetch(
                "SELECT id, revision FROM cards WHERE id = ANY(\(cardIds)::bigint[])", on: connection
            ) { (try $0.next(Int64.self), try $0.next(Int.self)) },
            uniquingKeysWith: { a, _ in a })
        var recent = try await recentTimes(
            of: Set(
                swipes.filter { $0.origin != nil }.map { Person(deckId: $0.swipe.deckId, id: $0.swipe.participantId) }),
            on: connection)
        // 3. Each item in submission order, seeing the items before it.
        var accepted: [Swipe] = []
        var origins: [(swipe: Swipe, network: String, joinedAt: Double)] = []
        for item in swipes {
            let person = Person(deckId: item.swipe.deckId, id: item.swipe.participantId)
            let pair = Pair(participant: item.swipe.participantId, card: item.swipe.cardId)
            let state = states[person] ?? ParticipantState()
            let facts = SwipeRule.Facts(
                existing: stored[item.swipe.id], liveOnCard: live.contains(pair), participant: state,
                recent: item.origin == nil ? [] : Array((recent[person] ?? []).sorted(by: >).prefix(2)),
                revision: revisions[item.swipe.cardId])
            let verdict = SwipeRule.decide(item.swipe, quota: item.quota, origin: item.origin, facts: facts)
            outcomes[item.index] = verdict.outcome
            guard case .create(let swipe, let new, let join) = verdict else { continue }
            aggregates.add(
                deckId: swipe.deckId, cardId: swipe.cardId, direction: swipe.direction, kind: swipe.kind,
                decisionMs: swipe.decisionMs,
                sign: 1, old: state, new: new)
            states[person] = new
            stored[swipe.id] = swipe
            live.insert(pair)
            recent[person, default: []].append(swipe.createdAt)
            accepted.append(swipe)
            if let join { origins.append((swipe, join.network, join.at)) }
        }
        if accepted.isEmpty { return }
        // 4. The rows.
        try await insertParticipants(of: accepted, on: connection)
        guard try await insert(accepted, on: connection) == accepted.count else { throw RetryBatch() }
        if !origins.isEmpty {
            // The first decision in the deck records where and when the participant joined.
            try await execute(
                """
                INSERT INTO participantOrigins (deckId, participantId, network, joinedAt)
                SELECT * FROM unnest(\(origins.map(\.swipe.deckId))::bigint[], \(origins.map(\.swipe.participantId))::text[],
                                     \(origins.map(\.network))::text[], \(origins.map(\.joinedAt))::float8[])
                ON CONFLICT DO NOTHING
                """, on: connection)
        }
        // 5. Counts, in the locked rows (the caller writes the shared aggregates).
        let changed = people.filter { states[$0] != nil }
        try await execute(
            """
            UPDATE deckParticipants SET k0 = d.k0, k1 = d.k1, k2 = d.k2, k3 = d.k3, k4 = d.k4
            FROM unnest(\(changed.map(\.deckId))::bigint[], \(changed.map(\.id))::text[],
                        \(changed.map { states[$0]!.counts[0] })::bigint[], \(changed.map { states[$0]!.counts[1] })::bigint[],
                        \(changed.map { states[$0]!.counts[2] })::bigint[], \(changed.map { states[$0]!.counts[3] })::bigint[],
                        \(changed.map { states[$0]!.counts[4] })::bigint[]) AS d(deckId, participantId, k0, k1, k2, k3, k4)
            WHERE deckParticipants.deckId = d.deckId AND deckParticipants.participantId = d.participantId
            """, on: connection)
    }

    /// The creation times of the two latest swipes of each participant in their deck (pace rule).
    private func recentTimes(of people: Set<Person>, on connection: PostgresConnection) async throws -> [Person:
        [Double]]
    {
        if people.isEmpty { return [:] }
        let list = Array(people)
        var recent: [Person: [Double]] = [:]
        for (person, time) in try await fetch(
            """
            SELECT deckId, participantId, createdAt FROM (
                SELECT s.deckId, s.participantId, s.createdAt,
                       row_number() OVER (PARTITION BY s.deckId, s.participantId ORDER BY s.createdAt DESC) AS n
                FROM swipes s JOIN unnest(\(list.map(\.deckId))::bigint[], \(list.map(\.id))::text[]) AS p(deckId, participantId)
                  ON s.deckId = p.deckId AND s.participantId = p.participantId) AS latest
            WHERE n <= 2
            """, on: connection, { (Person(deckId: try $0.next(), id: try $0.next()), try $0.next(Double.self)) })
        {
            recent[person, default: []].append(time)
        }
        return recent
    }

    /// The participants of `swipes` not stored yet, each with its first swipe's kind and time.
    private func insertParticipants(of swipes: [Swipe], on connection: PostgresConnection) async throws {
        var first: [String: Swipe] = [:]
        for swipe in swipes where first[swipe.participantId] == nil { first[swipe.participantId] = swipe }
        let rows = first.values.sorted { $0.participantId < $1.participantId }
        try await execute(
            """
            INSERT INTO participants (id, kind, createdAt)
            SELECT * FROM unnest(\(rows.map(\.participantId))::text[], \(rows.map { Participant.Kind(firstInput: $0.input).rawValue })::text[],
                                 \(rows.map(\.createdAt))::float8[])
            ON CONFLICT (id) DO NOTHING
            """, on: connection)
    }

    /// Inserts the rows in order; returns how many were inserted (fewer when one conflicted).
    private func insert(_ s: [Swipe], on connection: PostgresConnection) async throws -> Int {
        try await fetch(
            """
            INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, trace, traceData, velocityX, velocityY,
                                durationMs, decisionMs, suspect, requestHash, createdAt, undoneAt, cardRevision, suspectReason)
            SELECT * FROM unnest(
                \(s.map(\.id))::text[], \(s.map(\.deckId))::bigint[], \(s.map(\.cardId))::bigint[], \(s.map(\.participantId))::text[],
                \(s.map(\.direction.rawValue))::text[], \(s.map(\.input.rawValue))::text[], \(Self.arrayLiteral(s.map(\.trace)))::text[],
                \(Self.arrayLiteral(s.map { $0.traceData.map { "\\x" + Hex.string($0) } }))::bytea[],
                \(Self.arrayLiteral(s.map { $0.velocityX.map { "\($0)" } }))::float8[],
                \(Self.arrayLiteral(s.map { $0.velocityY.map { "\($0)" } }))::float8[],
                \(Self.arrayLiteral(s.map { $0.durationMs.map { "\($0)" } }))::float8[],
                \(Self.arrayLiteral(s.map { $0.decisionMs.map { "\($0)" } }))::float8[],
                \(s.map(\.suspect))::boolean[], \(s.map(\.requestHash))::text[], \(s.map(\.createdAt))::float8[],
                \(Self.arrayLiteral(s.map { $0.undoneAt.map { "\($0)" } }))::float8[],
                \(Self.arrayLiteral(s.map { $0.cardRevision.map { "\($0)" } }))::bigint[],
                \(Self.arrayLiteral(s.map(\.suspectReason)))::text[])
            ON CONFLICT DO NOTHING RETURNING 1
            """, on: connection
        ) { _ in 1 }.count
    }

    /// A PostgreSQL array literal of texts with NULLs (postgres-nio binds no arrays of optionals);
    /// the query casts it to the column's array type, which parses each element as that type
    /// (doubles in Swift's shortest round-trip form come back as the same double).
    static func arrayLiteral(_ values: [String?]) -> String {
        "{"
            + values.map { value in
                guard let value else { return "NULL" }
                return "\""
                    + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    + "\""
            }.joined(separator: ",") + "}"
    }
}
