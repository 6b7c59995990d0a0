import Foundation
import GRDB
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// The aggregates `SwipeAggregates` keeps must give exactly the results a recount of the rows
/// gives, after any mix of swipes, undos, flips, exclusions and their lifting, for every
/// `countedInputs` setting.
@Suite("Aggregates", .sqliteOnly)
struct AggregateTests {
    /// The results recomputed from the `swipes` and `exclusions` rows alone (the pre-v4 method).
    static func recount(_ db: Database, deck: Deck, counted: Set<CountedInput>) throws -> ResultsReport {
        let deckId = deck.id
        let cards = try Card.filter(Column("deckId") == deckId).order(Column("position"), Column("id")).fetchAll(db)
        let excluded = Set(
            try String.fetchAll(
                db, sql: "SELECT participantId FROM exclusions WHERE deckId = ? AND liftedAt IS NULL",
                arguments: [deckId]))
        let live = try Swipe.fetchAll(
            db, sql: "SELECT * FROM swipes WHERE deckId = ? AND undoneAt IS NULL", arguments: [deckId])
        var tally = ResultsTally()
        var participants = Set<String>()
        var times: [Double] = []
        var excludedSwipes = 0
        for s in live {
            if excluded.contains(s.participantId) {
                excludedSwipes += 1
                continue
            }
            tally.add(card: s.cardId, direction: s.direction.rawValue, kind: s.kind, count: 1, counted: counted)
            guard let c = s.kind.countedAs, counted.contains(c) else { continue }
            participants.insert(s.participantId)
            if let ms = s.decisionMs { times.append(ms) }
        }
        times.sort()
        let median: Double? =
            times.isEmpty
            ? nil
            : times.count % 2 == 1 ? times[times.count / 2] : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
        var rejections: [String: Int] = [:]
        for r in try Row.fetchAll(
            db, sql: "SELECT code, COUNT(*) AS n FROM rejections WHERE deckId = ? GROUP BY code", arguments: [deckId])
        {
            rejections[r["code"]] = r["n"]
        }
        return ResultsReport(
            deck: deck, cards: cards, tally: tally, participants: participants.count, medianDecisionMs: median,
            rejections: rejections, excludedParticipants: excluded.count, excludedSwipes: excludedSwipes)
    }

    static func json(_ r: ResultsReport) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = .sortedKeys
        return String(decoding: try e.encode(r), as: UTF8.self)
    }

    /// Every counted setting's aggregate results equal the recount.
    static func expectExact(_ db: AppDatabase, _ deck: Deck, _ note: String) async throws {
        for counted in [
            CountedInput.defaultSet, [.drag], [.button], [.api], Set(CountedInput.allCases), [.drag, .api],
        ] {
            let fast = try await db.writer.read { d in
                try AppDatabase.results(d, deck: deck, deckId: deck.id, counted: counted)
            }
            let slow = try await db.writer.read { d in try recount(d, deck: deck, counted: counted) }
            #expect(try json(fast) == json(slow), "\(note), counting \(counted.map(\.rawValue).sorted())")
        }
    }

    @Test("random swipes, undos, flips and exclusions: results equal a recount of the rows")
    func randomHistory() async throws {
        try await StorageTests.withDatabase { db, _ in
            let (deck, cards) = try await StorageTests.importDeck(db, cards: 6)
            let writer = SwipeWriter(store: db, changes: db.changes)
            var rng = SplitMix64(seed: 11)
            func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
            let people = (0..<12).map { "p\($0)" }
            var stored: [Swipe] = []
            for step in 0..<600 {
                switch rng.next() % 10 {
                case 0...5:
                    let input: SwipeInput = pick([.drag, .drag, .api, .api, .button, .key])
                    var s = StorageTests.swipe(
                        deck, card: pick(cards), participant: pick(people), id: "s\(step)",
                        direction: pick([.left, .right, .up, .downLeft]))
                    s.input = input
                    s.decisionMs = pick([nil, 0, -0.0, 250, 250, 400, 1234.5, 9_000, 86_400_000])
                    s.suspect = rng.next() % 5 == 0
                    if input == .drag || (input == .api && rng.next() % 2 == 0) {
                        s.traceData = Data(TraceCodec.encode(SwipeSeeder.trace(right: true, rng: &rng)))
                    }
                    if case .created(let c) = try await writer.submit(.swipe(s)) { stored.append(c) }
                case 6, 7:
                    guard !stored.isEmpty else { continue }
                    let s = pick(stored)
                    _ = try await db.undoSwipe(id: s.id, participant: s.participantId, at: fixedTime + Double(step))
                case 8:
                    guard !stored.isEmpty else { continue }
                    let s = pick(stored)
                    _ = try? await db.flipSwipe(
                        id: s.id, participant: s.participantId, to: pick([.left, .right, .up]), at: fixedTime)
                default:
                    try await db.setExcluded(
                        deck: deck, participant: pick(people), rng.next() % 3 != 0, reason: "r", by: nil, now: fixedTime
                    )
                }
                if step % 50 == 49 { try await Self.expectExact(db, deck, "after step \(step)") }
            }
        }
    }

    @Test("the dashboard's live swipes and participants come from the aggregates and match the rows")
    func dashboardCounts() async throws {
        try await StorageTests.withDatabase { db, _ in
            let (deck, cards) = try await StorageTests.importDeck(db, cards: 3)
            let writer = SwipeWriter(store: db)
            for (i, p) in ["a", "b", "c", "d"].enumerated() {
                for c in cards.prefix(i + 1) {
                    try await writer.submit(.swipe(StorageTests.swipe(deck, card: c, participant: p)))
                }
            }
            try await db.setExcluded(deck: deck, participant: "d", true, reason: "", by: nil, now: fixedTime)
            let undone = try await db.writer.read { d in
                try String.fetchOne(d, sql: "SELECT id FROM swipes WHERE participantId = 'c' LIMIT 1")
            }
            _ = try await db.undoSwipe(id: undone!, participant: "c", at: fixedTime)
            let counts = try db.writer.read { d in
                try Row.fetchOne(
                    d,
                    sql: """
                        SELECT (SELECT COALESCE(SUM(n), 0) FROM swipeTallies WHERE deckId = ?) AS swipes,
                               (SELECT COALESCE(SUM(n), 0) FROM participantMasks WHERE deckId = ? AND mask != 0) AS participants,
                               (SELECT COUNT(*) FROM swipes WHERE deckId = ? AND undoneAt IS NULL) AS liveRows,
                               (SELECT COUNT(DISTINCT participantId) FROM swipes WHERE deckId = ? AND undoneAt IS NULL) AS liveParticipants
                        """, arguments: [deck.id, deck.id, deck.id, deck.id])!
            }
            #expect(counts["swipes"] as Int? == 8)  // 1 + 2 + 3 + 3, one undone
            #expect(counts["swipes"] as Int? == counts["liveRows"] as Int)
            #expect(counts["participants"] as Int? == counts["liveParticipants"] as Int)
        }
    }

    @Test("migration v4 converts a v3 database: legacy JSON traces stay readable and aggregates match the rows")
    func migratesStoredRows() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        do {
            let queue = try DatabaseQueue(path: path)
            try AppDatabase.migrator.migrate(queue, upTo: "v3-owners-and-trust")
            try await queue.write { d in
                try d.execute(
                    sql: """
                        INSERT INTO decks (id, slug, title, profile, createdAt) VALUES (1, 'old', 'Old', 'standard', 0);
                        INSERT INTO cards (id, deckId, position, title) VALUES (1, 1, 0, 'a'), (2, 1, 1, 'b');
                        INSERT INTO participants (id, kind, createdAt) VALUES ('u', 'browser', 0), ('v', 'api', 0), ('w', 'api', 0);
                        INSERT INTO swipes (id, deckId, cardId, participantId, direction, input, trace, suspect, requestHash, createdAt, undoneAt, decisionMs)
                        VALUES ('1', 1, 1, 'u', 'right', 'drag', '{"t":[0,16.6]}', 0, 'h', 1, NULL, 500),
                               ('2', 1, 2, 'u', 'left', 'drag', '{"t":[0,16.6]}', 1, 'h', 2, NULL, 700),
                               ('3', 1, 1, 'v', 'left', 'button', NULL, 0, 'h', 3, NULL, 900),
                               ('4', 1, 2, 'v', 'right', 'api', NULL, 0, 'h', 4, 5, 100),
                               ('5', 1, 2, 'w', 'right', 'api', NULL, 0, 'h', 5, NULL, 300);
                        INSERT INTO exclusions (deckId, participantId, reason, createdAt) VALUES (1, 'w', 'spam', 6);
                        """)
            }
        }
        let db = try AppDatabase(path: path)
        let deck = try #require(try await db.deck(slug: "old"))
        try await Self.expectExact(db, deck, "after migration")
        let legacy = try #require(try await db.swipe(id: "1"))
        #expect(legacy.trace == "{\"t\":[0,16.6]}")
        #expect(legacy.kind == .drag)
        let report = try await db.results(for: deck)
        #expect(report.allSwipes == 3)
        #expect(report.excludedSwipes == 1)
        #expect(report.swipesByKind["suspectDrag"] == 1)
    }

    @Test("every read of swipes uses an index (query plans)")
    func queryPlans() async throws {
        try await StorageTests.withDatabase { db, _ in
            // Only a GROUP BY over one participant's rows may sort (a temporary b-tree).
            let reads: [(String, String)] = [
                ("idempotency", "SELECT * FROM swipes WHERE id = 'k'"),
                (
                    "one live swipe",
                    "SELECT 1 FROM swipes WHERE participantId = 'p' AND cardId = 1 AND undoneAt IS NULL"
                ),
                (
                    "pace",
                    "SELECT createdAt FROM swipes WHERE participantId = 'p' AND deckId = 1 ORDER BY createdAt DESC LIMIT 2"
                ),
                (
                    "history",
                    """
                    SELECT s.* FROM swipes s JOIN cards c ON c.id = s.cardId WHERE s.participantId = 'p' AND s.deckId = 1
                    AND s.undoneAt IS NULL ORDER BY s.createdAt DESC, s.rowid DESC LIMIT 500
                    """
                ),
                ("unswiped cards", "SELECT cardId FROM swipes WHERE participantId = 'p' AND undoneAt IS NULL"),
                ("export", "SELECT rowid, * FROM swipes WHERE deckId = 1 AND rowid > 0 ORDER BY rowid LIMIT 500"),
                ("last hour", "SELECT COUNT(*) FROM swipes WHERE deckId = 1 AND createdAt >= 0"),
                (
                    "participant report",
                    "SELECT input, COUNT(*) FROM swipes WHERE participantId = 'p' AND deckId = 1 AND undoneAt IS NULL GROUP BY input"
                ),
            ]
            for (name, sql) in reads {
                let details = try await db.writer.read { d in
                    try Row.fetchAll(d, sql: "EXPLAIN QUERY PLAN " + sql).map { $0["detail"] as String }
                }
                let onSwipes = details.filter {
                    $0.contains("swipes") || $0.hasPrefix("SEARCH s ") || $0.hasPrefix("SCAN s")
                }
                #expect(!onSwipes.isEmpty, "\(name): \(details)")
                for d in onSwipes { #expect(d.hasPrefix("SEARCH"), "\(name) scans: \(details)") }
                if !sql.contains("GROUP BY") {
                    #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(name) sorts: \(details)")
                }
            }
            let indexes = try await db.writer.read { d in
                try String.fetchAll(
                    d, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'swipes' ORDER BY name")
            }
            #expect(
                indexes == [
                    "sqlite_autoindex_swipes_1", "swipes_by_deck_time", "swipes_by_participant", "swipes_live_once",
                    "swipes_on_deckId",
                ])
        }
    }
}
