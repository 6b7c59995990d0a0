import GRDB

extension AppDatabase {
    /// Aggregates a deck's results with a handful of indexed queries (no row-by-row work in Swift
    /// beyond one row per card and direction).
    public func results(for deck: Deck) throws -> ResultsReport {
        guard let deckId = deck.id else { throw ApiError.notFound("deck") }
        return try pool.read { db in
            let cards = try Card.filter(Column("deckId") == deckId).order(Column("position")).fetchAll(db)
            var counts: [Int64: [String: Int]] = [:]
            var totals: [String: Int] = [:]
            var swipes = 0
            let rows = try Row.fetchCursor(db, sql: """
                SELECT cardId, direction, COUNT(*) AS n FROM swipes
                WHERE deckId = ? AND undoneAt IS NULL AND suspect = 0 GROUP BY cardId, direction
                """, arguments: [deckId])
            while let r = try rows.next() {
                let card: Int64 = r["cardId"], dir: String = r["direction"], n: Int = r["n"]
                counts[card, default: [:]][dir] = n
                totals[dir, default: 0] += n
                swipes += n
            }
            let suspect = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM swipes WHERE deckId = ? AND undoneAt IS NULL AND suspect = 1", arguments: [deckId]) ?? 0
            let participants = try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT participantId) FROM swipes WHERE deckId = ? AND undoneAt IS NULL AND suspect = 0", arguments: [deckId]) ?? 0
            let timed = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM swipes WHERE deckId = ? AND undoneAt IS NULL AND suspect = 0 AND decisionMs IS NOT NULL", arguments: [deckId]) ?? 0
            var median: Double?
            if timed > 0 {
                let sql = "SELECT decisionMs FROM swipes WHERE deckId = ? AND undoneAt IS NULL AND suspect = 0 AND decisionMs IS NOT NULL ORDER BY decisionMs LIMIT ? OFFSET ?"
                let mid = try Double.fetchAll(db, sql: sql, arguments: [deckId, timed % 2 == 0 ? 2 : 1, (timed - 1) / 2])
                median = mid.isEmpty ? nil : mid.reduce(0, +) / Double(mid.count)
            }
            var rejections: [String: Int] = [:]
            for r in try Row.fetchAll(db, sql: "SELECT code, COUNT(*) AS n FROM rejections WHERE deckId = ? GROUP BY code", arguments: [deckId]) {
                rejections[r["code"]] = r["n"]
            }
            var results = cards.map { c -> ResultsReport.CardResult in
                let cc = counts[c.id ?? -1] ?? [:]
                let total = cc.values.reduce(0, +)
                let likes = cc.filter { ResultsReport.isLike($0.key) }.values.reduce(0, +)
                return ResultsReport.CardResult(
                    rank: 0, cardId: c.id ?? 0, title: c.title, image: c.image, likes: likes, total: total,
                    likeRate: total > 0 ? Double(likes) / Double(total) : 0,
                    wilson: WilsonInterval(successes: likes, trials: total), counts: cc)
            }
            results.sort { a, b in
                if a.wilson.lower != b.wilson.lower { return a.wilson.lower > b.wilson.lower }
                if a.total != b.total { return a.total > b.total }
                return a.cardId < b.cardId
            }
            for i in results.indices { results[i].rank = i + 1 }
            return ResultsReport(
                deck: deck.slug, title: deck.title, cards: results, participants: participants, swipes: swipes,
                suspectExcluded: suspect, medianDecisionMs: median, rejections: rejections, directionTotals: totals)
        }
    }
}
