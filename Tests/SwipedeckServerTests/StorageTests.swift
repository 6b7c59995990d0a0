import Foundation
import GRDB
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// `AppDatabase` and `SwipeWriter` on temporary files.
@Suite("Storage", .sqliteOnly)
struct StorageTests {
    /// Opens a fresh database, runs `body`, removes the files.
    static func withDatabase<T>(
        synchronous: AppDatabase.SynchronousMode = .normal, _ body: (AppDatabase, String) async throws -> T
    ) async throws -> T {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let db = try AppDatabase(path: path, synchronous: synchronous)
        return try await body(db, path)
    }

    /// Synchronous reads and writes (inside async tests GRDB would pick its async overloads).
    static func read<T>(_ db: AppDatabase, _ body: (Database) throws -> T) throws -> T { try db.writer.read(body) }
    static func write<T>(_ db: AppDatabase, _ body: (Database) throws -> T) throws -> T { try db.writer.write(body) }

    /// A deck with `cards` cards, imported; returns the deck and its card ids.
    static func importDeck(_ db: AppDatabase, slug: String = "s", cards: Int) async throws -> (Deck, [Int64]) {
        let input = DeckInput(
            slug: slug, title: "Deck \(slug)", cards: (0..<cards).map { DeckInput.CardInput(title: "card \($0)") })
        let (deck, rows) = try input.validated(now: fixedTime)
        let stored = try await db.importDeck(deck, cards: rows)
        let ids = try Self.read(db) { d in
            try Int64.fetchAll(
                d, sql: "SELECT id FROM cards WHERE deckId = ? ORDER BY position", arguments: [stored.id])
        }
        return (stored, ids)
    }

    static func swipe(
        _ deck: Deck, card: Int64, participant: String, id: String = UUID().uuidString, direction: Decision = .right
    ) -> Swipe {
        Swipe(
            id: id, deckId: deck.id, cardId: card, participantId: participant, direction: direction, input: .api,
            trace: nil,
            velocityX: nil, velocityY: nil, durationMs: nil, decisionMs: nil, suspect: false, requestHash: "h-" + id,
            createdAt: fixedTime, undoneAt: nil, cardRevision: 1)
    }

    @Test("migrations apply on a fresh file and re-opening is idempotent")
    func migrations() async throws {
        try await Self.withDatabase { db, path in
            let tables = try Self.read(db) { d in
                try String.fetchAll(d, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            }
            for t in ["cards", "decks", "flips", "participants", "rejections", "settings", "swipes"] {
                #expect(tables.contains(t), "missing table \(t)")
            }
            let applied = try Self.read(db) { d in try AppDatabase.migrator.appliedMigrations(d) }
            #expect(
                applied == [
                    "v1", "v2-results-indexes", "v3-owners-and-trust", "v4-compact-and-aggregate", "v5-card-galleries",
                    "v6-admin-token-hash", "v7-participant-origins", "v8-deck-access", "v9-deck-listed", "v10-rooms",
                    "v11-stop-rules", "v12-known-answers", "v13-webhooks", "v14-solved-puzzles", "v15-presentations",
                    "v16-reveal-timer", "v17-host-pace", "v18-presenter-link",
                ])
            _ = try await Self.importDeck(db, cards: 3)

            // Re-open the same file (twice): nothing re-applied, data kept.
            for _ in 0..<2 {
                let again = try AppDatabase(path: path)
                #expect(
                    try Self.read(again) { d in try AppDatabase.migrator.appliedMigrations(d) } == [
                        "v1", "v2-results-indexes", "v3-owners-and-trust", "v4-compact-and-aggregate",
                        "v5-card-galleries", "v6-admin-token-hash", "v7-participant-origins", "v8-deck-access",
                        "v9-deck-listed", "v10-rooms", "v11-stop-rules", "v12-known-answers", "v13-webhooks",
                        "v14-solved-puzzles", "v15-presentations", "v16-reveal-timer", "v17-host-pace",
                        "v18-presenter-link",
                    ])
                #expect(try Self.read(again) { d in try AppDatabase.migrator.hasCompletedMigrations(d) })
                #expect(try await again.decks().map(\.deck.slug) == ["s"])
                #expect(try await again.decks().first?.cardCount == 3)
            }
        }
    }

    @Test("journal_mode is WAL; synchronous is NORMAL by default")
    func pragmasDefault() async throws {
        try await Self.withDatabase { db, _ in
            let journal = try Self.read(db) { d in try String.fetchOne(d, sql: "PRAGMA journal_mode") }
            let synchronous = try Self.write(db) { d in try Int.fetchOne(d, sql: "PRAGMA synchronous") }
            let foreignKeys = try Self.read(db) { d in try Int.fetchOne(d, sql: "PRAGMA foreign_keys") }
            #expect(journal?.lowercased() == "wal")
            #expect(db.synchronous == 1)
            #expect(db.synchronousName == "NORMAL")
            #expect(synchronous == 1)
            #expect(foreignKeys == 1)
        }
    }

    @Test("synchronous FULL when configured, read back on the writer")
    func pragmasFull() async throws {
        try await Self.withDatabase(synchronous: .full) { db, _ in
            #expect(db.synchronous == 2)
            #expect(db.synchronousName == "FULL")
            #expect(try Self.write(db) { d in try Int.fetchOne(d, sql: "PRAGMA synchronous") } == 2)
            #expect(
                try Self.read(db) { d in try String.fetchOne(d, sql: "PRAGMA journal_mode") }?.lowercased() == "wal")
            // Writes still work and stay FULL afterwards.
            _ = try await Self.importDeck(db, cards: 2)
            #expect(try Self.write(db) { d in try Int.fetchOne(d, sql: "PRAGMA synchronous") } == 2)
        }
    }

    @Test("importDeck stores deck and cards; a second import of the slug is slugTaken and adds nothing")
    func importAndSlugTaken() async throws {
        try await Self.withDatabase { db, _ in
            let (deck, ids) = try await Self.importDeck(db, slug: "dup", cards: 4)
            #expect(try await db.deck(slug: "dup")?.id == deck.id)
            #expect(ids.count == 4)
            #expect(try await db.deck(slug: "dup")?.title == "Deck dup")
            #expect(try await db.cardIds(deckId: deck.id).active == Set(ids))
            #expect(try await db.card(id: ids[2])?.position == 2)
            #expect(try await db.deckSlug(id: deck.id) == "dup")
            await #expect(throws: StoreError.slugTaken) { try await Self.importDeck(db, slug: "dup", cards: 2) }
            #expect(try Self.read(db) { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM cards") } == 4)
            await #expect(throws: StoreError.notFound(.deck)) { try await db.deckSlug(id: 9999) }
            #expect(try await db.deck(slug: "none") == nil)
        }
    }

    @Test("the admin token is created once and then read back")
    func adminTokenStored() async throws {
        try await Self.withDatabase { db, path in
            let (t1, created1) = try await db.setting(AdminToken.settingKey, orCreate: { "first" })
            #expect(t1 == "first" && created1)
            let (t2, created2) = try await db.setting(AdminToken.settingKey, orCreate: { "second" })
            #expect(t2 == "first" && !created2)
            #expect(
                try await AppDatabase(path: path).setting(AdminToken.settingKey, orCreate: { "third" }).value == "first"
            )
        }
    }

    /// Group commit does not have to merge anything: with one core free, every submit may find
    /// the writer idle and get a transaction of its own, so `commits < 500` is a matter of
    /// scheduling, not a guarantee. What is guaranteed, and checked, is that every caller returns
    /// after the transaction holding its row committed.
    @Test("SwipeWriter: 500 concurrent swipes all created, each row visible when its call returns")
    func groupCommit() async throws {
        try await Self.withDatabase { db, _ in
            let (deck, ids) = try await Self.importDeck(db, cards: 50)
            let writer = SwipeWriter(store: db, maxBatch: 64)
            let reader = db.writer
            let outcomes = try await withThrowingTaskGroup(of: (Bool, Bool).self) { group in
                for i in 0..<500 {
                    let s = Self.swipe(deck, card: ids[i % 50], participant: "p\(i / 50)", id: "gc-\(i)")
                    group.addTask {
                        let outcome = try await writer.submit(.swipe(s))
                        let visible = try await reader.read { d in try Swipe.fetchOne(d, key: s.id) } == s
                        return (outcome == .created(s), visible)
                    }
                }
                var all: [(Bool, Bool)] = []
                for try await o in group { all.append(o) }
                return all
            }
            #expect(outcomes.count == 500)
            #expect(outcomes.allSatisfy { $0.0 }, "every outcome is .created")
            #expect(outcomes.allSatisfy { $0.1 }, "every row is readable when its submit returns")
            #expect(try Self.read(db) { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM swipes") } == 500)
            #expect(try Self.read(db) { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM participants") } == 10)
            let commits = await writer.commits
            let items = await writer.items
            #expect(items == 500)
            #expect(commits >= 1 && commits <= 500)
        }
    }

    @Test("SwipeWriter: the same participant and card twice in one batch: one created, one alreadySwiped")
    func duplicateInBatch() async throws {
        try await Self.withDatabase { db, _ in
            let (deck, ids) = try await Self.importDeck(db, cards: 2)
            // Inside one transaction, exactly as a group commit applies its items.
            let a = Self.swipe(deck, card: ids[0], participant: "dup", id: "a")
            let b = Self.swipe(deck, card: ids[0], participant: "dup", id: "b", direction: .left)
            let outcomes = try Self.write(db) { d in try [a, b].map { try AppDatabase.applySwipe(.swipe($0), d) } }
            #expect(outcomes == [.created(a), .refused(.alreadySwiped)])

            // Through the writer, concurrently: whichever wins, the other is refused.
            let writer = SwipeWriter(store: db)
            let c = Self.swipe(deck, card: ids[1], participant: "dup", id: "c")
            let e = Self.swipe(deck, card: ids[1], participant: "dup", id: "e", direction: .left)
            async let oc = writer.submit(.swipe(c))
            async let oe = writer.submit(.swipe(e))
            let pair = [try await oc, try await oe]
            #expect(
                pair.filter { o in
                    if case .created? = o { return true }
                    return false
                }.count == 1)
            #expect(pair.filter { $0 == .refused(.alreadySwiped) }.count == 1)
            #expect(try Self.read(db) { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM swipes") } == 2)

            // A key seen before: replay for the same request, mismatch for another.
            #expect(try await writer.submit(.swipe(a)) == .replayed(a))
            var other = a
            other.requestHash = "different"
            #expect(try await writer.submit(.swipe(other)) == .refused(.idempotencyMismatch))
            // A rejection is logged and returns nil.
            #expect(
                try await writer.submit(
                    .rejection(deckId: deck.id, cardId: ids[0], participantId: "dup", code: "too_short", at: fixedTime))
                    == nil)
            #expect(
                try Self.read(db) { d in
                    try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM rejections WHERE code = 'too_short'")
                } == 1)
            #expect(try await db.results(for: deck).rejections == ["too_short": 1])
        }
    }

    @Test("undo never deletes: the row stays with undoneAt; only its participant may; idempotent")
    func undoKeepsRows() async throws {
        try await Self.withDatabase { db, _ in
            let (deck, ids) = try await Self.importDeck(db, cards: 2)
            let writer = SwipeWriter(store: db)
            let s = Self.swipe(deck, card: ids[0], participant: "u", id: "undo-me")
            _ = try await writer.submit(.swipe(s))
            _ = try await writer.submit(.swipe(Self.swipe(deck, card: ids[1], participant: "u", id: "newer")))
            let count = { try Self.read(db) { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM swipes") } }

            await #expect(throws: StoreError.notYourSwipe) {
                try await db.undoSwipe(id: "undo-me", participant: "v", at: fixedTime)
            }
            await #expect(throws: StoreError.notFound(.swipe)) {
                try await db.undoSwipe(id: "nope", participant: "u", at: fixedTime)
            }
            let undone = try await db.undoSwipe(id: "undo-me", participant: "u", at: fixedTime + 5)
            #expect(undone.undoneAt == fixedTime + 5)
            #expect(try count() == 2)
            #expect(try await db.swipe(id: "undo-me")?.undoneAt == fixedTime + 5)
            #expect(
                try await db.undoSwipe(id: "undo-me", participant: "u", at: fixedTime + 9).undoneAt == fixedTime + 5)

            // The latest live swipe ("newer", inserted after) is undone by undoLatestSwipe.
            #expect(try await db.undoLatestSwipe(deckId: deck.id, participant: "u", at: fixedTime + 10)?.id == "newer")
            #expect(try await db.undoLatestSwipe(deckId: deck.id, participant: "u", at: fixedTime + 11) == nil)
            #expect(try count() == 2)
            #expect(try await db.history(deckId: deck.id, participant: "u").isEmpty)

            // The card is free again for the participant.
            let again = Self.swipe(deck, card: ids[0], participant: "u", id: "again")
            #expect(try await writer.submit(.swipe(again)) == .created(again))
            #expect(
                try await db.unswipedCards(deckId: deck.id, participant: "u", after: -1, limit: 10).cards.map(\.id) == [
                    ids[1]
                ])
        }
    }

    @Test("flip rewrites the direction and logs the old one in flips")
    func flipLogs() async throws {
        try await Self.withDatabase { db, _ in
            let (deck, ids) = try await Self.importDeck(db, cards: 1)
            let writer = SwipeWriter(store: db)
            _ = try await writer.submit(.swipe(Self.swipe(deck, card: ids[0], participant: "f", id: "flip-me")))
            let flipped = try await db.flipSwipe(id: "flip-me", participant: "f", to: .left, at: fixedTime + 1)
            #expect(flipped.direction == .left)
            #expect(try await db.swipe(id: "flip-me")?.direction == .left)
            let log = try Self.read(db) { d in try Row.fetchAll(d, sql: "SELECT * FROM flips") }
            #expect(log.count == 1)
            #expect(log.first?["swipeId"] as String? == "flip-me")
            #expect(log.first?["fromDirection"] as String? == "right")
            #expect(log.first?["toDirection"] as String? == "left")
            #expect(log.first?["createdAt"] as Double? == fixedTime + 1)
            // Flipping to the same direction logs nothing.
            _ = try await db.flipSwipe(id: "flip-me", participant: "f", to: .left, at: fixedTime + 2)
            #expect(try Self.read(db) { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM flips") } == 1)
            await #expect(throws: StoreError.notYourSwipe) {
                try await db.flipSwipe(id: "flip-me", participant: "g", to: .right, at: fixedTime)
            }
            _ = try await db.undoSwipe(id: "flip-me", participant: "f", at: fixedTime + 3)
            await #expect(throws: StoreError.alreadyUndone) {
                try await db.flipSwipe(id: "flip-me", participant: "f", to: .right, at: fixedTime)
            }
            #expect(try Self.read(db) { d in try Int.fetchOne(d, sql: "SELECT COUNT(*) FROM swipes") } == 1)
        }
    }

    @Test("results: suspect and undone swipes are not counted; ranking by Wilson lower bound")
    func resultsQuery() async throws {
        try await Self.withDatabase { db, _ in
            let (imported, ids) = try await Self.importDeck(db, cards: 2)
            var counting = DeckPatch()
            // These swipes are programs' (input api, no trace).
            counting.countedInputs = CountedInput.allCases.map(\.rawValue)
            let deck = try await db.updateDeck(
                id: imported.id, counting, by: nil, detail: { _ in "{}" }, now: fixedTime)
            let writer = SwipeWriter(store: db)
            for i in 0..<4 {
                _ = try await writer.submit(
                    .swipe(Self.swipe(deck, card: ids[1], participant: "r\(i)", direction: .right)))
            }
            _ = try await writer.submit(.swipe(Self.swipe(deck, card: ids[0], participant: "r0", direction: .left)))
            var bot = Self.swipe(deck, card: ids[0], participant: "bot", direction: .right)
            bot.suspect = true
            _ = try await writer.submit(.swipe(bot))
            _ = try await writer.submit(
                .swipe(Self.swipe(deck, card: ids[0], participant: "r1", id: "gone", direction: .right)))
            _ = try await db.undoSwipe(id: "gone", participant: "r1", at: fixedTime)

            let r = try await db.results(for: deck)
            #expect(r.swipes == 5)
            #expect(r.suspectExcluded == 1)
            #expect(r.participants == 4)
            #expect(r.cards.map(\.cardId) == [ids[1], ids[0]])
            #expect(r.cards[0].likes == 4 && r.cards[0].total == 4)
            #expect(r.cards[1].likes == 0 && r.cards[1].total == 1)
            #expect(r.cards[1].counts == ["left": 1])
            #expect(r.directionTotals == ["right": 4, "left": 1])
            #expect(r.medianDecisionMs == nil)
        }
    }
}
