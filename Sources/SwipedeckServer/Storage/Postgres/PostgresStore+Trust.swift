import Foundation
import PostgresNIO
import SwipePhysics

extension PostgresStore {
    public func setExcluded(
        deck: Deck, participant: String, _ excluded: Bool, reason: String, by ownerId: Int64?, now: Double
    ) async throws {
        let deckId = deck.id
        guard Participant.isValidId(participant) else { throw StoreError.notFound(.participant) }
        try await changing(deckId) { connection in
            // The participant's aggregate row orders concurrent exclusions and swipes.
            let old = try await lockParticipant(deckId: deckId, participant: participant, on: connection)
            let active = try await value(
                """
                SELECT id FROM exclusions WHERE deckId = \(deckId) AND participantId = \(participant) AND liftedAt IS NULL
                """, on: connection, as: Int64.self)
            if excluded, active == nil {
                try await execute(
                    """
                    INSERT INTO exclusions (deckId, participantId, reason, createdAt) VALUES (\(deckId), \(participant), \(reason), \(now))
                    """, on: connection)
            } else if !excluded, let active {
                try await execute("UPDATE exclusions SET liftedAt = \(now) WHERE id = \(active)", on: connection)
            } else {
                return
            }
            try await moveParticipant(
                deckId: deckId, participant: participant, old: old, excluded: excluded, on: connection)
            try await touchDeck(
                deckId, ownerId: ownerId, kind: .excluding(excluded),
                detail: "{\"participant\":\"\(participant)\"}", now: now, on: connection)
        }
    }

    /// As `SwipeAggregates.setExcluded`: moves the participant's live swipes in or out of the results.
    private func moveParticipant(
        deckId: Int64, participant: String, old: ParticipantState, excluded: Bool, on connection: PostgresConnection
    ) async throws {
        if old.excluded == excluded { return }
        var aggregates = PostgresAggregates()
        for (card, code, direction, n) in try await fetch(
            """
            SELECT cardId, \(unescaped: SwipeAggregates.kindSQL) AS kind, direction, COUNT(*) FROM swipes
            WHERE participantId = \(participant) AND deckId = \(deckId) AND undoneAt IS NULL GROUP BY cardId, kind, direction
            """, on: connection,
            { (try $0.next(Int64.self), try $0.next(Int.self), try $0.next(Decision.self), try $0.next(Int.self)) })
        {
            guard let kind = SwipeKind.code(code) else { continue }
            aggregates.tally(deckId: deckId, out: old.excluded, cardId: card, kind: kind, direction: direction, n: -n)
            aggregates.tally(deckId: deckId, out: excluded, cardId: card, kind: kind, direction: direction, n: n)
        }
        for (code, ms, n) in try await fetch(
            """
            SELECT \(unescaped: SwipeAggregates.kindSQL) AS kind, decisionMs, COUNT(*) FROM swipes
            WHERE participantId = \(participant) AND deckId = \(deckId) AND undoneAt IS NULL AND decisionMs IS NOT NULL
            GROUP BY kind, decisionMs
            """, on: connection, { (try $0.next(Int.self), try $0.next(Double.self), try $0.next(Int.self)) })
        {
            guard let kind = SwipeKind.code(code), kind.countedAs != nil else { continue }
            aggregates.time(deckId: deckId, kind: kind, ms: ms, n: excluded ? -n : n)
        }
        try await execute(
            "UPDATE deckParticipants SET excluded = \(excluded) WHERE deckId = \(deckId) AND participantId = \(participant)",
            on: connection)
        aggregates.moveMask(deckId: deckId, from: (old.excluded, old.mask), to: (excluded, old.mask))
        try await aggregates.write(on: connection, logger: logger)
    }

    public func participantReport(deck: Deck, participant: String) async throws -> ParticipantReport {
        let deckId = deck.id
        var kinds = Dictionary(uniqueKeysWithValues: SwipeKind.allCases.map { ($0.rawValue, 0) })
        var reasons: [String: Int] = [:]
        for (input, traced, suspect, reason, n) in try await fetch(
            """
            SELECT input, (trace IS NOT NULL OR traceData IS NOT NULL) AS traced, suspect, suspectReason, COUNT(*) FROM swipes
            WHERE participantId = \(participant) AND deckId = \(deckId) AND undoneAt IS NULL GROUP BY input, traced, suspect, suspectReason
            """,
            {
                (
                    try $0.next(SwipeInput.self), try $0.next(Bool.self), try $0.next(Bool.self),
                    try $0.next(String?.self), try $0.next(Int.self)
                )
            })
        {
            let kind = SwipeKind.of(input: input, hasTrace: traced, suspect: suspect)
            kinds[kind.rawValue, default: 0] += n
            if let reason { reasons[reason, default: 0] += n }
        }
        var rejections: [String: Int] = [:]
        for (code, n) in try await fetch(
            """
            SELECT code, COUNT(*) FROM rejections WHERE deckId = \(deckId) AND participantId = \(participant) GROUP BY code
            """, { (try $0.next(String.self), try $0.next(Int.self)) })
        {
            rejections[code] = n
        }
        let events = try await fetch(
            """
            SELECT createdAt, liftedAt, reason FROM exclusions WHERE deckId = \(deckId) AND participantId = \(participant) ORDER BY id
            """
        ) { c in ParticipantReport.Event(excludedAt: try c.next(), liftedAt: try c.next(), reason: try c.next()) }
        let active = events.last { $0.liftedAt == nil }
        return ParticipantReport(
            participant: participant, kinds: kinds, suspectReasons: reasons, rejections: rejections,
            excluded: active != nil, exclusionReason: active?.reason, history: events)
    }

    /// See `TrustStore.lockstepMembers`: the crowded networks first (index `participantOrigins_by_network`),
    /// then their members' live swipes.
    public func lockstepMembers(deckId: Int64, minCrowd: Int) async throws -> [LockstepClusters.Member] {
        var members: [String: LockstepClusters.Member] = [:]
        for (id, network, joinedAt, vote) in try await fetch(
            """
            SELECT o.participantId, o.network, o.joinedAt, s.cardId, s.direction, s.createdAt, s.decisionMs,
                   s.durationMs, s.velocityX, s.velocityY
            FROM participantOrigins o JOIN swipes s ON s.participantId = o.participantId AND s.deckId = o.deckId AND s.undoneAt IS NULL
            WHERE o.deckId = \(deckId) AND o.network IN (
                SELECT network FROM participantOrigins WHERE deckId = \(deckId) GROUP BY network HAVING COUNT(*) >= \(minCrowd))
            """,
            {
                (
                    try $0.next(String.self), try $0.next(String.self), try $0.next(Double.self),
                    LockstepClusters.Vote(
                        card: try $0.next(Int64.self), direction: try $0.next(String.self),
                        at: try $0.next(Double.self), decisionMs: try $0.next(Double?.self),
                        durationMs: try $0.next(Double?.self),
                        speed: LockstepClusters.Vote.speed(try $0.next(Double?.self), try $0.next(Double?.self)))
                )
            })
        {
            members[id, default: LockstepClusters.Member(id: id, network: network, joinedAt: joinedAt, votes: [])]
                .votes.append(vote)
        }
        return Array(members.values)
    }

    /// See `TrustStore.exclusionStates`.
    public func exclusionStates(deckId: Int64) async throws -> (excluded: Set<String>, lifted: Set<String>) {
        let excluded = try await fetch(
            "SELECT participantId FROM deckParticipants WHERE deckId = \(deckId) AND excluded"
        ) { try $0.next(String.self) }
        let lifted = try await fetch(
            "SELECT DISTINCT participantId FROM exclusions WHERE deckId = \(deckId) AND liftedAt IS NOT NULL"
        ) {
            try $0.next(String.self)
        }
        return (Set(excluded), Set(lifted))
    }

    /// See `TrustStore.participantIds`: the deck's rows of `deckParticipants` (its primary key's prefix).
    public func participantIds(deckId: Int64) async throws -> [String] {
        try await fetch("SELECT participantId FROM deckParticipants WHERE deckId = \(deckId)") {
            try $0.next(String.self)
        }
    }

    public func flaggedParticipants(deckId: Int64, limit: Int, offset: Int) async throws -> [FlaggedParticipant] {
        let rows = try await fetch(
            """
            SELECT participantId, excluded, k1 + k3 AS suspect, k0 + k1 + k2 + k3 + k4 AS live FROM deckParticipants
            WHERE deckId = \(deckId) AND (excluded OR k1 > 0 OR k3 > 0) ORDER BY suspect DESC, participantId LIMIT \(limit) OFFSET \(offset)
            """
        ) {
            (
                id: try $0.next(String.self), excluded: try $0.next(Bool.self), suspect: try $0.next(Int.self),
                live: try $0.next(Int.self)
            )
        }
        var flagged: [FlaggedParticipant] = []
        for r in rows {
            let reason =
                try await value(
                    """
                    SELECT suspectReason FROM swipes WHERE participantId = \(r.id) AND deckId = \(deckId) AND suspect
                    GROUP BY suspectReason ORDER BY COUNT(*) DESC LIMIT 1
                    """, as: String?.self) ?? nil
            flagged.append(
                FlaggedParticipant(id: r.id, suspect: r.suspect, live: r.live, reason: reason, excluded: r.excluded))
        }
        return flagged
    }
}

extension PostgresStore {
    /// See `TrustStore.flaggedParticipantCount`.
    public func flaggedParticipantCount(deckId: Int64) async throws -> Int {
        try await value(
            "SELECT COUNT(*)::bigint FROM deckParticipants WHERE deckId = \(deckId) AND (excluded OR k1 > 0 OR k3 > 0)",
            as: Int.self) ?? 0
    }

    /// See `TrustStore.trustCounts`: exclusions in force, then the flagged aggregate rows' suspect swipes.
    public func trustCounts(deckId: Int64) async throws -> PeopleSummary.Counts {
        var excluded: [String: Int] = [:]
        for (reason, n) in try await fetch(
            """
            SELECT reason, COUNT(DISTINCT participantId)::bigint FROM exclusions WHERE deckId = \(deckId) AND liftedAt IS NULL GROUP BY reason
            """, { (try $0.next(String.self), try $0.next(Int.self)) })
        {
            excluded[reason, default: 0] += n
        }
        var byReason: [String: Int] = [:]
        var people = Set<String>()
        for (id, reason) in try await fetch(
            """
            SELECT DISTINCT d.participantId, s.suspectReason FROM deckParticipants d
            JOIN swipes s ON s.participantId = d.participantId AND s.deckId = d.deckId
            WHERE d.deckId = \(deckId) AND NOT d.excluded AND (d.k1 > 0 OR d.k3 > 0) AND s.suspect AND s.undoneAt IS NULL
            """, { (try $0.next(String.self), try $0.next(String?.self)) })
        {
            people.insert(id)
            byReason[reason ?? "", default: 0] += 1
        }
        return PeopleSummary.Counts(excludedByReason: excluded, suspectByReason: byReason, suspectPeople: people)
    }
}
