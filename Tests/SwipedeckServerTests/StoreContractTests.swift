import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// The promises of `Store` on the engine of this run (SQLite, or PostgreSQL with
/// `SWIPEDECK_TEST_DATABASE_URL`), with two stores on one database standing in for two servers;
/// and, on a PostgreSQL run, the same random history on both engines giving the same answers.
@Suite("Store contract (both engines)")
struct StoreContractTests {
    /// A fresh database and two stores on it ("two servers"), closed and dropped afterwards.
    static func withTwoStores(_ body: (any Store, any Store) async throws -> Void) async throws {
        let location = try await TestDatabase.fresh()
        let a = try await openStore(location)
        let b = try await openStore(location)
        do {
            try await body(a, b)
        } catch {
            await a.close()
            await b.close()
            await TestDatabase.drop(location)
            throw error
        }
        await a.close()
        await b.close()
        await TestDatabase.drop(location)
    }

    static func importDeck(_ store: any Store, slug: String = "s", cards: Int, quota: Int? = nil) async throws -> (
        Deck, [Int64]
    ) {
        let input = DeckInput(
            slug: slug, title: "Deck \(slug)", cards: (0..<cards).map { DeckInput.CardInput(title: "card \($0)") })
        var (deck, rows) = try input.validated(now: fixedTime)
        deck.quota = quota
        // The contract's swipes are API swipes: count them.
        deck.countedInputs = Set(CountedInput.allCases)
        let stored = try await store.importDeck(deck, cards: rows)
        return (stored, try await store.allCards(deckId: stored.id).map(\.id))
    }

    @Test(
        "the same keys raced to two stores: each key stored once, the loser replays it; rows, results and aggregates agree"
    )
    func racedKeys() async throws {
        try await Self.withTwoStores { a, b in
            let (deck, cards) = try await Self.importDeck(a, cards: 20)
            let writers = [SwipeWriter(store: a, changes: a.changes), SwipeWriter(store: b, changes: b.changes)]
            let swipes = (0..<400).map { i in
                StorageTests.swipe(
                    deck, card: cards[i % 20], participant: "p\(i / 20)", id: "k\(i)",
                    direction: i % 3 == 0 ? .left : .right)
            }
            let outcomes = try await withThrowingTaskGroup(of: (String, SwipeOutcome?).self) { group in
                for s in swipes {
                    for writer in writers { group.addTask { (s.id, try await writer.submit(.swipe(s))) } }
                }
                return try await group.reduce(into: [String: [SwipeOutcome?]]()) { $0[$1.0, default: []].append($1.1) }
            }
            for s in swipes {
                let pair = outcomes[s.id] ?? []
                let created = pair.filter { if case .created = $0 { return true } else { return false } }.count
                let replayed = pair.filter { if case .replayed = $0 { return true } else { return false } }.count
                #expect(created == 1 && replayed == 1, "key \(s.id): \(pair)")
            }
            for store in [a, b] {
                let report = try await store.results(for: deck)
                #expect(report.allSwipes == 400)
                #expect(report.participants == 20)
                #expect(report.directionTotals["left"] == 134)
            }
            let page = try await b.swipePage(deckId: deck.id, after: 0, limit: 1000)
            #expect(page.count == 400)
            #expect(Set(page.map(\.swipe.id)).count == 400)
        }
    }

    @Test("one live swipe per participant and card, and the quota, hold between two stores")
    func racedRules() async throws {
        try await Self.withTwoStores { a, b in
            let (deck, cards) = try await Self.importDeck(a, cards: 10, quota: 3)
            let writers = [SwipeWriter(store: a), SwipeWriter(store: b)]
            // Two keys for one participant and card, one per store.
            let sameCard = try await withThrowingTaskGroup(of: SwipeOutcome?.self) { group in
                for (i, writer) in writers.enumerated() {
                    group.addTask {
                        try await writer.submit(
                            .swipe(StorageTests.swipe(deck, card: cards[0], participant: "solo", id: "card-\(i)")))
                    }
                }
                return try await group.reduce(into: [SwipeOutcome?]()) { $0.append($1) }
            }
            #expect(sameCard.filter { if case .created = $0 { return true } else { return false } }.count == 1)
            #expect(sameCard.contains(.refused(.alreadySwiped)))
            // One key, two participants, one per store (so no participant lock orders them): one
            // is stored, the other is a different request under a used key. Repeated to meet the race.
            for round in 0..<20 {
                let key = try await withThrowingTaskGroup(of: SwipeOutcome?.self) { group in
                    for (i, writer) in writers.enumerated() {
                        var s = StorageTests.swipe(
                            deck, card: cards[1], participant: "k\(round)-\(i)", id: "shared-\(round)")
                        s.requestHash = "h-\(round)-\(i)"
                        group.addTask { try await writer.submit(.swipe(s)) }
                    }
                    return try await group.reduce(into: [SwipeOutcome?]()) { $0.append($1) }
                }
                #expect(key.filter { if case .created = $0 { return true } else { return false } }.count == 1, "\(key)")
                #expect(key.contains(.refused(.idempotencyMismatch)), "\(key)")
            }
            // Ten cards at once for one participant whose quota is 3: three stored, whoever takes them.
            let quota = try await withThrowingTaskGroup(of: SwipeOutcome?.self) { group in
                for (i, card) in cards.enumerated() {
                    let writer = writers[i % 2]
                    group.addTask {
                        try await writer.submit(
                            .swipe(StorageTests.swipe(deck, card: card, participant: "greedy", id: "q-\(i)"), quota: 3))
                    }
                }
                return try await group.reduce(into: [SwipeOutcome?]()) { $0.append($1) }
            }
            #expect(quota.filter { if case .created = $0 { return true } else { return false } }.count == 3)
            #expect(quota.filter { $0 == .refused(.quotaReached(3)) }.count == 7)
            #expect(try await b.participantReport(deck: deck, participant: "greedy").kinds["api"] == 3)
        }
    }

    @Test("a setting created by two stores at once has one value")
    func racedSetting() async throws {
        try await Self.withTwoStores { a, b in
            async let first = a.setting("participantSecret", orCreate: { "from-a" })
            async let second = b.setting("participantSecret", orCreate: { "from-b" })
            let (x, y) = try await (first, second)
            #expect(x.value == y.value)
            #expect([x.created, y.created].filter { $0 }.count == 1)
        }
    }

    @Test(
        "a deck changed through one store is marked changed on the other (LISTEN/NOTIFY)",
        .enabled(if: TestDatabase.onPostgres))
    func changesReachOtherServers() async throws {
        try await Self.withTwoStores { a, b in
            let (deck, cards) = try await Self.importDeck(a, cards: 2)
            _ = b.changes.take(deck.id)
            _ = try await SwipeWriter(store: a).submit(
                .swipe(StorageTests.swipe(deck, card: cards[0], participant: "p", id: "n1")))
            let deadline = ContinuousClock.now + .seconds(5)
            var seen = false
            while !seen && ContinuousClock.now < deadline {
                seen = b.changes.take(deck.id)
                if !seen { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(seen, "store b never heard of the swipe taken by store a")
        }
    }

    @Test(
        "the same random swipes, undos, flips, exclusions and edits on SQLite and PostgreSQL give the same answers",
        .enabled(if: TestDatabase.onPostgres))
    func enginesAgree() async throws {
        let sqlitePath = temporaryDatabasePath()
        defer { removeDatabase(at: sqlitePath) }
        let stores: [any Store] = [
            try AppDatabase(path: sqlitePath), try await openStore(try await TestDatabase.fresh()),
        ]
        var answers: [[String]] = [[], []]
        for (n, store) in stores.enumerated() {
            let (deck, cards) = try await Self.importDeck(store, cards: 6)
            let writer = SwipeWriter(store: store)
            var rng = SplitMix64(seed: 23)
            func pick<T>(_ xs: [T]) -> T { xs[Int(rng.next() % UInt64(xs.count))] }
            let people = (0..<10).map { "p\($0)" }
            var stored: [Swipe] = []
            for step in 0..<400 {
                switch rng.next() % 12 {
                case 0...6:
                    var s = StorageTests.swipe(
                        deck, card: pick(cards), participant: pick(people), id: "s\(step)",
                        direction: pick([.left, .right, .up, .downLeft]))
                    s.input = pick([.drag, .drag, .api, .button, .key])
                    s.decisionMs = pick([nil, 0, -0.0, 250, 250, 400, 1234.5, 9_000])
                    s.suspect = rng.next() % 5 == 0
                    s.createdAt = fixedTime + Double(step)
                    if s.input == .drag {
                        s.traceData = Data(TraceCodec.encode(SwipeSeeder.trace(right: true, rng: &rng)))
                    }
                    let quota = rng.next() % 4 == 0 ? 4 : nil
                    let outcome = try await writer.submit(
                        .swipe(s, quota: quota, origin: .init(mintedAt: nil, network: nil)))
                    answers[n].append("\(step) \(outcome.map(Self.describe) ?? "nil")")
                    if case .created(let c) = outcome { stored.append(c) }
                case 7:
                    guard !stored.isEmpty else { continue }
                    let s = pick(stored)
                    let undone = try await store.undoSwipe(
                        id: s.id, participant: s.participantId, at: fixedTime + Double(step))
                    answers[n].append("\(step) undo \(undone.id) \(undone.undoneAt ?? -1)")
                case 8:
                    guard !stored.isEmpty else { continue }
                    let s = pick(stored)
                    let flipped = try? await store.flipSwipe(
                        id: s.id, participant: s.participantId, to: pick([.left, .right]), at: fixedTime)
                    answers[n].append("\(step) flip \(flipped?.direction.rawValue ?? "refused")")
                case 9:
                    try await store.setExcluded(
                        deck: deck, participant: pick(people), rng.next() % 3 != 0, reason: "r", by: nil, now: fixedTime
                    )
                case 10:
                    try await store.moveCard(cardId: pick(cards), to: Int(rng.next() % 6), by: nil, now: fixedTime)
                default:
                    _ = try await writer.submit(
                        .rejection(
                            deckId: deck.id, cardId: pick(cards), participantId: pick(people), code: "too_fast",
                            at: fixedTime))
                }
                if step % 100 == 99 {
                    for counted in [CountedInput.defaultSet, [.api], Set(CountedInput.allCases)] {
                        var d = deck
                        d.countedInputs = counted
                        answers[n].append(try AggregateTests.json(try await store.results(for: d)))
                    }
                    for p in people {
                        let report = try await store.participantReport(deck: deck, participant: p)
                        answers[n].append(
                            "\(p) \(report.kinds.sorted { $0.key < $1.key }) \(report.rejections) \(report.excluded)")
                        let history = try await store.history(deckId: deck.id, participant: p, limit: 500)
                        answers[n].append(
                            history.map { "\($0.swipe.id):\($0.swipe.direction):\($0.card.id)" }.joined(separator: ","))
                    }
                    answers[n].append("\(try await store.flaggedParticipants(deckId: deck.id, limit: 50))")
                    let unswiped = try await store.unswipedCards(
                        deckId: deck.id, participant: "p1", order: .shuffled, after: -1, limit: 3)
                    answers[n].append("\(unswiped.cards.map(\.id)) \(unswiped.remaining)")
                }
            }
            let export = try await store.swipePage(deckId: deck.id, after: 0, limit: 10_000).map(\.swipe)
            answers[n].append("\(export.count) \(export.map(\.id).joined(separator: ","))")
            await store.close()
        }
        #expect(answers[0].count == answers[1].count)
        for (i, (sqlite, postgres)) in zip(answers[0], answers[1]).enumerated() where sqlite != postgres {
            Issue.record("answer \(i) differs:\nSQLite:     \(sqlite)\nPostgreSQL: \(postgres)")
            break
        }
    }

    static func describe(_ outcome: SwipeOutcome) -> String {
        switch outcome {
        case .created(let s):
            return "created \(s.id) suspect=\(s.suspect) \(s.suspectReason ?? "-") rev=\(s.cardRevision ?? -1)"
        case .replayed(let s): return "replayed \(s.id)"
        case .refused(let e): return "refused \(e)"
        }
    }

    @Test(
        "copy: SQLite to this run's engine and back keeps every row, the results and the swipes' checksum; a non-empty target is refused"
    )
    func copyRoundTrip() async throws {
        let firstPath = temporaryDatabasePath()
        let lastPath = temporaryDatabasePath()
        let middle = try await TestDatabase.fresh()
        defer {
            removeDatabase(at: firstPath)
            removeDatabase(at: lastPath)
            TestDatabase.dropLater(middle)
        }
        let first = try AppDatabase(path: firstPath)
        let sample = try SampleDeck.load(resourceRoot: AppConfiguration.defaultResourceRoot())
        let (d, cards) = try sample.validated(now: fixedTime)
        let deck = try await first.importDeck(d, cards: cards)
        let seeded = try await SwipeSeeder(store: first, signer: ParticipantSigner(secret: participantSecret))
            .seed(slug: deck.slug, count: 700, batch: 100, now: fixedTime)
        #expect(seeded == 700)
        let someone = try #require(try await first.swipePage(deckId: deck.id, after: 0, limit: 1).first?.swipe)
        _ = try await first.undoSwipe(id: someone.id, participant: someone.participantId, at: fixedTime + 1)
        try await first.setExcluded(
            deck: deck, participant: someone.participantId, true, reason: "test", by: nil, now: fixedTime + 2)
        _ = try await first.setting("participantSecret", orCreate: { participantSecret })
        // A room whose two members like one card: the room, its members, match and events are copied too.
        let room = try #require(
            try await first.createRoom(
                deckId: deck.id, code: "COPY22", settings: RoomSettings(), participant: "copier-a", name: "A",
                now: fixedTime))
        _ = try await first.joinRoom(roomId: room.id, participant: "copier-b", name: "B", now: fixedTime)
        let roomCard = try await first.allCards(deckId: deck.id)[0].id
        let writer = SwipeWriter(store: first, changes: first.changes)
        for p in ["copier-a", "copier-b"] {
            _ = try await writer.submit(.swipe(StorageTests.swipe(deck, card: roomCard, participant: p)))
        }
        _ = try await first.evaluateRoom(roomId: room.id, now: fixedTime + 3)

        let second = try await openStore(middle)
        guard let secondTables = second as? any Store & RawTables else {
            throw StoreCopier.Refusal(description: "no raw tables")
        }
        let there = try await StoreCopier(source: first, target: secondTables).run()
        let third = try AppDatabase(path: lastPath)
        let back = try await StoreCopier(source: secondTables, target: third).run()
        #expect(there.swipeChecksum == back.swipeChecksum)
        #expect(there.rows.map(\.count) == back.rows.map(\.count))
        #expect(there.rows.first { $0.table == "swipes" }?.count == 702)
        var answers: [String] = []
        for store in [first, second, third] as [any Store] {
            let copied = try #require(try await store.deck(slug: deck.slug))
            answers.append(try AggregateTests.json(try await store.results(for: copied)))
            answers.append("\(try await store.flaggedParticipants(deckId: deck.id, limit: 50))")
        }
        #expect(answers[0] == answers[2] && answers[0] == answers[4])
        #expect(answers[1] == answers[3] && answers[1] == answers[5])
        for store in [second, third] as [any Store] {
            #expect(try await store.room(code: "COPY22") == room)
            #expect(try await store.roomMatches(roomId: room.id).map(\.card) == [roomCard])
            #expect(
                try await store.roomEvents(roomId: room.id, after: 0, limit: 100).map(\.kind)
                    == first.roomEvents(roomId: room.id, after: 0, limit: 100).map(\.kind))
        }
        // New rows after a copy get fresh ids (PostgreSQL's sequences were moved past the copied ones).
        let added = try await second.addCard(
            NewCard(deckId: deck.id, position: 0, title: "after the copy"), deckId: deck.id, by: nil, now: fixedTime)
        #expect(added.id == Int64(cards.count + 1))

        await #expect(throws: StoreCopier.Refusal.self) {
            _ = try await StoreCopier(source: first, target: third).run()
        }
        await second.close()
    }
}
