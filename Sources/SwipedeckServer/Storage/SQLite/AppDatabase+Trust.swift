import Foundation
import GRDB

extension AppDatabase {
    /// Excludes a participant's swipes from the deck's results, or lifts the exclusion. Both are
    /// events: an exclusion is a row, lifting it sets `liftedAt`. Repeating either changes nothing.
    public func setExcluded(
        deck: Deck, participant: String, _ excluded: Bool, reason: String, by ownerId: Int64?, now: Double
    ) async throws {
        let deckId = deck.id
        guard Participant.isValidId(participant) else { throw StoreError.notFound(.participant) }
        try await markingChanges(of: deckId) { db in
            let active = try Int64.fetchOne(
                db, sql: "SELECT id FROM exclusions WHERE deckId = ? AND participantId = ? AND liftedAt IS NULL",
                arguments: [deckId, participant])
            if excluded, active == nil {
                try db.execute(
                    sql: "INSERT INTO exclusions (deckId, participantId, reason, createdAt) VALUES (?, ?, ?, ?)",
                    arguments: [deckId, participant, reason, now])
            } else if !excluded, let active {
                try db.execute(sql: "UPDATE exclusions SET liftedAt = ? WHERE id = ?", arguments: [now, active])
            } else {
                return
            }
            try SwipeAggregates.setExcluded(db, deckId: deckId, participant: participant, excluded)
            try Self.touchDeck(
                db, deckId: deckId, ownerId: ownerId, kind: .excluding(excluded),
                detail: "{\"participant\":\"\(participant)\"}", now: now)
        }
    }

    /// A participant's swipes in the deck by kind and suspect reason, rejections and exclusions.
    /// A participant with nothing in this deck gets an empty report.
    public func participantReport(deck: Deck, participant: String) async throws -> ParticipantReport {
        let deckId = deck.id
        return try await writer.read { db in
            var kinds = Dictionary(uniqueKeysWithValues: SwipeKind.allCases.map { ($0.rawValue, 0) })
            var reasons: [String: Int] = [:]
            for r in try Row.fetchAll(
                db,
                sql: """
                    SELECT input, (trace IS NOT NULL OR traceData IS NOT NULL) AS traced, suspect, suspectReason, COUNT(*) AS n FROM swipes
                    WHERE participantId = ? AND deckId = ? AND undoneAt IS NULL GROUP BY input, traced, suspect, suspectReason
                    """, arguments: [participant, deckId])
            {
                let kind = SwipeKind.of(
                    input: try r.decode(forColumn: "input"), hasTrace: r["traced"], suspect: r["suspect"])
                kinds[kind.rawValue, default: 0] += r["n"] as Int
                if let reason: String = r["suspectReason"] { reasons[reason, default: 0] += r["n"] as Int }
            }
            var rejections: [String: Int] = [:]
            for r in try Row.fetchAll(
                db,
                sql: "SELECT code, COUNT(*) AS n FROM rejections WHERE deckId = ? AND participantId = ? GROUP BY code",
                arguments: [deckId, participant])
            {
                rejections[r["code"]] = r["n"]
            }
            let events = try Row.fetchAll(
                db, sql: "SELECT * FROM exclusions WHERE deckId = ? AND participantId = ? ORDER BY id",
                arguments: [deckId, participant]
            ).map { r in
                ParticipantReport.Event(excludedAt: r["createdAt"], liftedAt: r["liftedAt"], reason: r["reason"])
            }
            let active = events.last { $0.liftedAt == nil }
            return ParticipantReport(
                participant: participant, kinds: kinds, suspectReasons: reasons, rejections: rejections,
                excluded: active != nil, exclusionReason: active?.reason, history: events)
        }
    }
}

/// A participant the owner may want to look at: one with suspect swipes or an exclusion.
extension AppDatabase {
    /// See `TrustStore.lockstepMembers`: the crowded networks first (index `participantOrigins_by_network`),
    /// then their members' live swipes (index `swipes_by_participant`).
    public func lockstepMembers(deckId: Int64, minCrowd: Int) async throws -> [LockstepClusters.Member] {
        try await writer.read { db in
            var members: [String: LockstepClusters.Member] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT o.participantId, o.network, o.joinedAt, s.cardId, s.direction, s.createdAt, s.decisionMs,
                           s.durationMs, s.velocityX, s.velocityY
                    FROM participantOrigins o JOIN swipes s ON s.participantId = o.participantId AND s.deckId = o.deckId AND s.undoneAt IS NULL
                    WHERE o.deckId = ? AND o.network IN (
                        SELECT network FROM participantOrigins WHERE deckId = ? GROUP BY network HAVING COUNT(*) >= ?)
                    """, arguments: [deckId, deckId, minCrowd])
            while let r = try rows.next() {
                let id: String = r[0]
                members[id, default: LockstepClusters.Member(id: id, network: r[1], joinedAt: r[2], votes: [])].votes
                    .append(
                        LockstepClusters.Vote(
                            card: r[3], direction: r[4], at: r[5], decisionMs: r[6], durationMs: r[7],
                            speed: LockstepClusters.Vote.speed(r[8], r[9])))
            }
            return Array(members.values)
        }
    }

    /// See `TrustStore.exclusionStates`.
    public func exclusionStates(deckId: Int64) async throws -> (excluded: Set<String>, lifted: Set<String>) {
        try await writer.read { db in
            (
                Set(
                    try String.fetchAll(
                        db, sql: "SELECT participantId FROM deckParticipants WHERE deckId = ? AND excluded = 1",
                        arguments: [deckId])),
                Set(
                    try String.fetchAll(
                        db,
                        sql: "SELECT DISTINCT participantId FROM exclusions WHERE deckId = ? AND liftedAt IS NOT NULL",
                        arguments: [deckId]))
            )
        }
    }

    /// See `TrustStore.participantIds`: the deck's rows of `deckParticipants` (its primary key's prefix).
    public func participantIds(deckId: Int64) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT participantId FROM deckParticipants WHERE deckId = ?", arguments: [deckId])
        }
    }
}

extension AppDatabase {
    /// Participants of the deck with suspect swipes or an exclusion in force, most suspect first
    /// (at most `limit`).
    public func flaggedParticipants(deckId: Int64, limit: Int, offset: Int) async throws -> [FlaggedParticipant] {
        try await writer.read { db in
            // Candidates from the aggregate rows (partial index `deckParticipants_flagged`), then
            // each one's most frequent suspect reason from their own swipes.
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT participantId, excluded, k1 + k3 AS suspect, k0 + k1 + k2 + k3 + k4 AS live FROM deckParticipants
                    WHERE deckId = ? AND (excluded = 1 OR k1 > 0 OR k3 > 0) ORDER BY suspect DESC, participantId LIMIT ? OFFSET ?
                    """, arguments: [deckId, limit, offset])
            return try rows.map { r in
                let id: String = r["participantId"]
                let reason = try String.fetchOne(
                    db,
                    sql: """
                        SELECT suspectReason FROM swipes WHERE participantId = ? AND deckId = ? AND suspect = 1
                        GROUP BY suspectReason ORDER BY COUNT(*) DESC LIMIT 1
                        """, arguments: [id, deckId])
                return FlaggedParticipant(
                    id: id, suspect: r["suspect"], live: r["live"], reason: reason, excluded: r["excluded"])
            }
        }
    }
}

extension AppDatabase {
    /// See `TrustStore.flaggedParticipantCount` (partial index `deckParticipants_flagged`).
    public func flaggedParticipantCount(deckId: Int64) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db,
                sql: "SELECT COUNT(*) FROM deckParticipants WHERE deckId = ? AND (excluded = 1 OR k1 > 0 OR k3 > 0)",
                arguments: [deckId]) ?? 0
        }
    }

    /// See `TrustStore.trustCounts`: exclusions in force, then the flagged aggregate rows' suspect swipes.
    public func trustCounts(deckId: Int64) async throws -> PeopleSummary.Counts {
        try await writer.read { db in
            var excluded: [String: Int] = [:]
            for r in try Row.fetchAll(
                db,
                sql:
                    "SELECT reason, COUNT(DISTINCT participantId) FROM exclusions WHERE deckId = ? AND liftedAt IS NULL GROUP BY reason",
                arguments: [deckId])
            {
                excluded[r[0], default: 0] += r[1] as Int
            }
            var byReason: [String: Int] = [:]
            var people = Set<String>()
            for r in try Row.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT d.participantId, s.suspectReason FROM deckParticipants d
                    JOIN swipes s ON s.participantId = d.participantId AND s.deckId = d.deckId
                    WHERE d.deckId = ? AND d.excluded = 0 AND (d.k1 > 0 OR d.k3 > 0) AND s.suspect = 1 AND s.undoneAt IS NULL
                    """, arguments: [deckId])
            {
                people.insert(r[0])
                byReason[r[1] as String? ?? "", default: 0] += 1
            }
            return PeopleSummary.Counts(excludedByReason: excluded, suspectByReason: byReason, suspectPeople: people)
        }
    }
}
