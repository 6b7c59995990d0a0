import Foundation
import GRDB
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Rooms through the store on the engine of this run (SQLite, or PostgreSQL with
/// `SWIPEDECK_TEST_DATABASE_URL`), with two stores on one database standing in for two servers.
@Suite("Room store (both engines)")
struct RoomStoreTests {
    @Test(
        "property: after random joins, leaves, likes, passes, undos and flips on two servers, a card is a stored match iff the rule holds on the stored swipes",
        .timeLimit(.minutes(5)))
    func matchIffRule() async throws {
        try await StoreContractTests.withTwoStores { a, b in
            var g = RoomRuleTests.Seeded(state: 2028)
            let (deck, cards) = try await StoreContractTests.importDeck(a, cards: 5)
            let servers = [a, b].map { store in
                (
                    store: store, writer: SwipeWriter(store: store, changes: store.changes),
                    notices: RecordedNotices()
                )
            }
            let rooms = servers.map {
                RoomService(store: $0.store, catalog: Catalog(store: $0.store), notices: $0.notices)
            }
            for round in 0..<6 {
                let rule = RoomRuleTests.randomRule(&g)
                var settings = RoomSettings()
                settings.rule = rule
                let anchor = "anchor\(round)"
                let room = try await rooms[0].create(
                    deck: deck, creator: anchor, name: "A", settings: settings, now: fixedTime)
                let people = (0..<4).map { "r\(round)p\($0)" } + [anchor]
                var members: Set<String> = [anchor]
                var live: [String: (id: String, like: Bool)] = [:]  // "participant|card" → live swipe
                for step in 0..<60 {
                    let server = Int.random(in: 0...1, using: &g)
                    let service = rooms[server]
                    let store = servers[server].store
                    let now = fixedTime + Double(step)
                    let p = people.randomElement(using: &g)!
                    // The anchor never decides the last card, so the room never finishes (frozen).
                    let card = (p == anchor ? cards.dropLast() : cards[...]).randomElement(using: &g)!
                    let key = "\(p)|\(card)"
                    switch Int.random(in: 0..<10, using: &g) {
                    case 0 where p != anchor:
                        if members.contains(p) {
                            try await service.leave(room, participant: p, now: now)
                            members.remove(p)
                        } else {
                            _ = try await service.join(room, deck: deck, participant: p, name: nil, now: now)
                            members.insert(p)
                        }
                    case 1, 2:
                        if let s = live[key] {
                            _ = try await store.undoSwipe(id: s.id, participant: p, at: now)
                            live[key] = nil
                            await service.decided(deckId: deck.id, participant: p, now: now)
                        }
                    case 3:
                        if let s = live[key] {
                            _ = try await store.flipSwipe(
                                id: s.id, participant: p, to: s.like ? .left : .right, at: now)
                            live[key] = (s.id, !s.like)
                            await service.decided(deckId: deck.id, participant: p, now: now)
                        }
                    default:
                        if live[key] == nil {
                            let like = Bool.random(using: &g)
                            var s = StorageTests.swipe(
                                deck, card: card, participant: p, direction: like ? .right : .left)
                            s.createdAt = now
                            _ = try await servers[server].writer.submit(.swipe(s))
                            live[key] = (s.id, like)
                            await service.decided(deckId: deck.id, participant: p, now: now)
                        }
                    }
                    let stored = Set(try await a.roomMatches(roomId: room.id).map(\.card))
                    let expected = Set(
                        cards.filter { c in
                            let likes = members.filter { live["\($0)|\(c)"]?.like == true }.count
                            return rule.holds(likes: likes, members: members.count)
                        })
                    #expect(stored == expected, "round \(round) step \(step) \(rule): \(stored) vs \(expected)")
                    if stored != expected { return }
                }
                let events = try await b.roomEvents(roomId: room.id, after: 0, limit: 10_000)
                #expect(events.map(\.id) == events.map(\.id).sorted())
                let matchEvents = events.filter { $0.kind == .match }.count
                let unmatchEvents = events.filter { $0.kind == .unmatch }.count
                #expect(matchEvents - unmatchEvents == (try await a.roomMatches(roomId: room.id)).count)
                let posted = servers.map { $0.notices.of(.roomMatched).count }.reduce(0, +)
                #expect(posted == matchEvents, "one room.matched notice per match event")
                // No event names a participant: members are room ids.
                #expect(events.allSatisfy { e in !people.contains { e.data.contains($0) } })
                for s in servers { s.notices.notices.withLock { $0.removeAll() } }
            }
        }
    }

    @Test("a room and its matches survive reopening the database; the cap holds; expiry reads as finished")
    func durable() async throws {
        let location = try await TestDatabase.fresh()
        do {
            let store = try await openStore(location)
            let (deck, cards) = try await StoreContractTests.importDeck(store, cards: 3)
            var settings = RoomSettings()
            settings.maxMembers = 2
            settings.rule = .atLeast(2)
            let room = try #require(
                try await store.createRoom(
                    deckId: deck.id, code: "ABCDEF", settings: settings, participant: "x", name: "X", now: fixedTime))
            #expect(
                try await store.createRoom(
                    deckId: deck.id, code: "ABCDEF", settings: settings, participant: "y", name: "Y", now: fixedTime)
                    == nil, "a taken code")
            guard case .joined = try await store.joinRoom(roomId: room.id, participant: "y", name: nil, now: fixedTime)
            else {
                Issue.record("y did not join")
                return
            }
            #expect(try await store.joinRoom(roomId: room.id, participant: "z", name: nil, now: fixedTime) == .full)
            let writer = SwipeWriter(store: store, changes: store.changes)
            for p in ["x", "y"] {
                _ = try await writer.submit(.swipe(StorageTests.swipe(deck, card: cards[1], participant: p)))
            }
            let events = try await store.evaluateRoom(roomId: room.id, now: fixedTime + 1)
            #expect(events.map(\.kind).contains(.match))
            await store.close()
            let again = try await openStore(location)
            let reread = try #require(try await again.room(code: "ABCDEF"))
            #expect(reread == room)
            #expect(try await again.roomMatches(roomId: room.id).map(\.card) == [cards[1]])
            #expect(try await again.roomMatchCounts(deckId: deck.id) == [cards[1]: 1])
            #expect(reread.status(now: fixedTime + 24 * 3600) == .expired)
            #expect(try await again.evaluateRoom(roomId: room.id, now: fixedTime + 24 * 3600).isEmpty)
            await again.close()
        } catch {
            await TestDatabase.drop(location)
            throw error
        }
        await TestDatabase.drop(location)
    }
}

@Suite("Room migration (SQLite)")
struct RoomMigrationTests {
    @Test("v10-rooms: decks made before rooms existed have rooms off; new decks have them on")
    func deckSetting() async throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try AppDatabase.migrator.migrate(queue, upTo: "v9-deck-listed")
        try await queue.write { db in
            try db.execute(
                sql: "INSERT INTO decks (slug, title, profile, createdAt) VALUES ('old', 'Old', 'standard', 0)")
        }
        let store = try AppDatabase(writer: queue)
        #expect(try await store.deck(slug: "old")?.rooms == false)
        let (deck, _) = try await StoreContractTests.importDeck(store, slug: "new", cards: 1)
        #expect(deck.rooms)
        #expect(try await store.deck(slug: "new")?.rooms == true)
    }
}

/// The room hub's group commit (`RoomHub`), on the engine of this run.
@Suite("Room hub (both engines)")
struct RoomHubTests {
    @Test(
        "N concurrent decisions in rooms are evaluated in fewer transactions than decisions, and every match is stored when its decision returns",
        .timeLimit(.minutes(2)))
    func groupCommit() async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, cards) = try await StoreContractTests.importDeck(store, cards: 3)
            let writer = SwipeWriter(store: store, changes: store.changes)
            let service = RoomService(store: store, catalog: Catalog(store: store), notices: RecordedNotices())
            // 12 rooms of 2: both members like card 1, so every room matches on it.
            let pairs = (0..<12).map { ("g\($0)a", "g\($0)b") }
            var settings = RoomSettings()
            settings.rule = .all
            var rooms: [Room] = []
            for (a, b) in pairs {
                let room = try await service.create(
                    deck: deck, creator: a, name: "A", settings: settings, now: fixedTime)
                _ = try await service.join(room, deck: deck, participant: b, name: nil, now: fixedTime)
                rooms.append(room)
            }
            let people = pairs.flatMap { [$0.0, $0.1] }
            for p in people {
                _ = try await writer.submit(.swipe(StorageTests.swipe(deck, card: cards[1], participant: p)))
            }
            let before = service.hub.batches
            try await withThrowingTaskGroup(of: Void.self) { group in
                for p in people {
                    group.addTask {
                        await service.decided(deckId: deck.id, participant: p, now: fixedTime + 1)
                    }
                }
                try await group.waitForAll()
            }
            let batches = service.hub.batches - before
            #expect(batches >= 1)
            #expect(batches < people.count, "\(batches) evaluation transactions for \(people.count) decisions")
            for room in rooms {
                #expect(try await store.roomMatches(roomId: room.id).map(\.card) == [cards[1]])
            }
        }
    }
}
