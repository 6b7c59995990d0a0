import Foundation
import GRDB
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// `AppDatabase` on an injected writer, and migration v4 frozen as SQL.
@Suite("SQLite engine", .sqliteOnly)
struct SQLiteEngineTests {
    static func inMemory() throws -> AppDatabase {
        try AppDatabase(writer: DatabaseQueue(configuration: AppDatabase.configuration()))
    }

    @Test("an in-memory DatabaseQueue serves the whole store: import, shuffled cards, swipes and their rules, results")
    func inMemoryWriter() async throws {
        let db = try Self.inMemory()
        #expect(db.engineDescription == "SQLite (in memory)")
        let input = DeckInput(
            slug: "mem", title: "Memory", cards: (0..<4).map { DeckInput.CardInput(title: "card \($0)") })
        let (deck, rows) = try input.validated(now: fixedTime)
        let stored = try await db.importDeck(deck, cards: rows)
        // The shuffled order calls `sd_shuffle_key`, which only `configuration()` installs.
        let dealt = try await db.unswipedCards(
            deckId: stored.id, participant: "p", order: .shuffled, after: -1, limit: 10)
        #expect(dealt.cards.count == 4 && dealt.remaining == 4)
        let card = dealt.cards[0].id
        let swipe = StorageTests.swipe(stored, card: card, participant: "p", id: "mem-1")
        let twice = StorageTests.swipe(stored, card: card, participant: "p", id: "mem-2")
        let outcomes = try await db.writeSwipes([.swipe(swipe), .swipe(twice)])
        #expect(outcomes == [.created(swipe), .refused(.alreadySwiped)])
        let report = try await db.results(for: stored)
        #expect(report.allSwipes == 1)
        #expect(
            try await db.unswipedCards(deckId: stored.id, participant: "p", order: .shuffled, after: -1, limit: 10)
                .remaining == 3)
    }

    /// Every row of the aggregate tables, in a fixed order. A `participantMasks` row with n = 0
    /// counts nobody: the writer leaves one behind when a participant's mask changes, the frozen
    /// migration never writes one.
    static func aggregates(_ d: Database) throws -> [String: [String]] {
        let tables = [
            "deckParticipants": "SELECT * FROM deckParticipants ORDER BY 1, 2",
            "swipeTallies": "SELECT * FROM swipeTallies ORDER BY 1, 2, 3, 4, 5",
            "participantMasks": "SELECT * FROM participantMasks WHERE n != 0 ORDER BY 1, 2, 3",
            "decisionBuckets": "SELECT * FROM decisionBuckets ORDER BY 1, 2, 3",
            "decisionTimes": "SELECT * FROM decisionTimes ORDER BY 1, 2, 3, 4",
        ]
        return try tables.mapValues { sql in try Row.fetchAll(d, sql: sql).map { "\($0)" } }
    }

    @Test("migration v4 (frozen SQL) fills the aggregates exactly as the writer's code does from the same v3 rows")
    func frozenMigrationV4() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try AppDatabase.migrator.migrate(queue, upTo: "v3-owners-and-trust")
        var rng = SplitMix64(seed: 4)
        try queue.write { d in
            try d.execute(
                sql: """
                    INSERT INTO decks (id, slug, title, profile, createdAt) VALUES (1, 'a', 'A', 'standard', 0), (2, 'b', 'B', 'standard', 0);
                    INSERT INTO cards (id, deckId, position, title) VALUES (1, 1, 0, 'a'), (2, 1, 1, 'b'), (3, 1, 2, 'c'), (4, 2, 0, 'd'), (5, 2, 1, 'e');
                    """)
            let people = (0..<9).map { "p\($0)" }
            for p in people {
                try d.execute(
                    sql: "INSERT INTO participants (id, kind, createdAt) VALUES (?, 'browser', 0)", arguments: [p])
            }
            let inputs = ["drag", "button", "key", "api"]
            let times: [Double?] = [nil, 0, -0.0, 812.5, 812.5, 1_000, 3.25e-3, 86_400_000, 250]
            var n = 0
            for p in people {
                for (card, deck) in [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2)] where rng.next() % 4 != 0 {
                    n += 1
                    let input = inputs[Int(rng.next() % 4)]
                    let traced = input == "drag" || (input == "api" && rng.next() % 3 == 0)
                    try d.execute(
                        sql: """
                            INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, trace, suspect, requestHash,
                                                createdAt, undoneAt, decisionMs)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'h', ?, ?, ?)
                            """,
                        arguments: [
                            "s\(n)", deck, card, p, rng.next() % 2 == 0 ? "left" : "right", input,
                            traced ? "{\"t\":[0,16.6]}" : nil, rng.next() % 5 == 0, Double(n),
                            rng.next() % 6 == 0 ? Double(n) + 1 : nil, times[Int(rng.next() % UInt64(times.count))],
                        ])
                }
            }
            try d.execute(
                sql: """
                    INSERT INTO exclusions (deckId, participantId, reason, createdAt, liftedAt)
                    VALUES (1, 'p1', 'spam', 1, NULL), (1, 'p2', 'spam', 1, 5), (2, 'p3', 'spam', 1, NULL), (1, 'p8', 'spam', 1, NULL);
                    """)
        }
        try AppDatabase.migrator.migrate(queue, upTo: "v4-compact-and-aggregate")
        let migrated = try queue.read(Self.aggregates)
        // The same rows through the writer's code (what v4 ran before it was frozen).
        try queue.write { d in
            try d.execute(
                sql: """
                    DELETE FROM deckParticipants; DELETE FROM swipeTallies; DELETE FROM participantMasks;
                    DELETE FROM decisionBuckets; DELETE FROM decisionTimes;
                    INSERT OR IGNORE INTO deckParticipants (deckId, participantId, excluded)
                    SELECT DISTINCT deckId, participantId, 1 FROM exclusions WHERE liftedAt IS NULL;
                    """)
            let rows = try Row.fetchAll(
                d,
                sql: """
                    SELECT deckId, cardId, participantId, direction, \(SwipeAggregates.kindSQL) AS kind, decisionMs
                    FROM swipes WHERE undoneAt IS NULL ORDER BY rowid
                    """)
            for r in rows {
                let kind = try #require(SwipeKind.code(r["kind"] as Int))
                try SwipeAggregates.add(
                    d, deckId: r["deckId"], cardId: r["cardId"], participant: r["participantId"],
                    direction: r["direction"],
                    kind: kind, decisionMs: r["decisionMs"], sign: 1)
            }
        }
        let live = try queue.read(Self.aggregates)
        for (table, rows) in migrated {
            #expect(!rows.isEmpty, "\(table) is empty: the test data does not exercise it")
            #expect(rows == live[table], "\(table)")
        }
        // Every kind, an excluded participant's swipes and a -0 decision time are among the rows.
        let kinds = try queue.read { d in
            try Int.fetchAll(d, sql: "SELECT DISTINCT kind FROM swipeTallies ORDER BY kind")
        }
        #expect(kinds == [0, 1, 2, 3, 4])
        #expect(
            try queue.read { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM swipeTallies WHERE outOfResults = 1") }
                ?? 0 > 0)
    }
}
