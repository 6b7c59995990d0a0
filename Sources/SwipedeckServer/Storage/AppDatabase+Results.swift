import GRDB

extension AppDatabase {
    /// A deck's results, from a handful of indexed queries (one row per card, direction and kind
    /// comes back to Swift). Live swipes of participants the owner excluded are left out of
    /// everything; the rest are counted by kind, and the ranking counts the deck's `counted`
    /// kinds (suspect kinds never).
    public func results(for deck: Deck) async throws -> ResultsReport {
        guard let deckId = deck.id else { throw ApiError.notFound("deck") }
        let counted = deck.counted
        return try await pool.read { db in
            let cards = try Card.filter(Column("deckId") == deckId).order(Column("position"), Column("id")).fetchAll(db)
            var tally = ResultsTally()
            let notExcluded = "participantId NOT IN (SELECT participantId FROM exclusions WHERE deckId = ? AND liftedAt IS NULL)"
            let rows = try Row.fetchCursor(db, sql: """
                SELECT cardId, direction, input, trace IS NOT NULL AS traced, suspect, COUNT(*) AS n FROM swipes
                WHERE deckId = ? AND undoneAt IS NULL AND \(notExcluded)
                GROUP BY cardId, direction, input, traced, suspect
                """, arguments: [deckId, deckId])
            while let r = try rows.next() {
                let kind = SwipeKind.of(input: r["input"], hasTrace: r["traced"], suspect: r["suspect"])
                tally.add(card: r["cardId"], direction: r["direction"], kind: kind, count: r["n"], counted: counted)
            }
            let countedSQL = Self.countedPredicate(counted)
            let participants = try Int.fetchOne(db, sql: """
                SELECT COUNT(DISTINCT participantId) FROM swipes WHERE deckId = ? AND undoneAt IS NULL AND \(countedSQL) AND \(notExcluded)
                """, arguments: [deckId, deckId]) ?? 0
            let timedFilter = "deckId = ? AND undoneAt IS NULL AND \(countedSQL) AND decisionMs IS NOT NULL AND \(notExcluded)"
            let timed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM swipes WHERE \(timedFilter)", arguments: [deckId, deckId]) ?? 0
            var median: Double?
            if timed > 0 {
                let mid = try Double.fetchAll(
                    db, sql: "SELECT decisionMs FROM swipes WHERE \(timedFilter) ORDER BY decisionMs LIMIT ? OFFSET ?",
                    arguments: [deckId, deckId, timed % 2 == 0 ? 2 : 1, (timed - 1) / 2])
                median = mid.isEmpty ? nil : mid.reduce(0, +) / Double(mid.count)
            }
            var rejections: [String: Int] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT code, COUNT(*) AS n FROM rejections WHERE deckId = ? GROUP BY code", arguments: [deckId]) {
                rejections[r["code"]] = r["n"]
            }
            let excluded = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT participantId) FROM exclusions WHERE deckId = ? AND liftedAt IS NULL", arguments: [deckId]) ?? 0
            let excludedSwipes = try Int.fetchOne(db, sql: """
                SELECT COUNT(*) FROM swipes WHERE deckId = ? AND undoneAt IS NULL AND NOT \(notExcluded)
                """, arguments: [deckId, deckId]) ?? 0
            return ResultsReport(
                deck: deck, cards: cards, tally: tally, participants: participants, medianDecisionMs: median,
                rejections: rejections, excludedParticipants: excluded, excludedSwipes: excludedSwipes)
        }
    }

    /// SQL true for a swipe of a counted kind (built from the enum's constants, never from input).
    static func countedPredicate(_ counted: Set<CountedInput>) -> String {
        var parts: [String] = []
        if counted.contains(.drag) { parts.append("trace IS NOT NULL") }
        if counted.contains(.button) { parts.append("(trace IS NULL AND input IN ('button', 'key'))") }
        if counted.contains(.api) { parts.append("(trace IS NULL AND input NOT IN ('button', 'key'))") }
        return "(suspect = 0 AND (\(parts.isEmpty ? "0" : parts.joined(separator: " OR "))))"
    }
}
