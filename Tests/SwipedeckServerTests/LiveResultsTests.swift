import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import SwipedeckServer

/// The live results stream's engine (`LiveResults`) on a real database and writer, and the
/// per-swipe exports through the router.
@Suite("Live results and exports")
struct LiveResultsTests {
    /// Collects the events of a stream in the background.
    final class Collector: Sendable {
        let events = Mutex<[String]>([])
        var results: [String] { events.withLock { $0.filter { $0.hasPrefix("event: results") } } }

        func start(_ stream: AsyncStream<String>) -> Task<Void, Never> {
            Task { for await e in stream { events.withLock { $0.append(e) } } }
        }
    }

    static func swipe(_ deck: Deck, card: Int64, participant: String, direction: String = "right") -> Swipe {
        Swipe(
            id: UUID().uuidString, deckId: deck.id!, cardId: card, participantId: participant, direction: direction, input: "button",
            trace: nil, velocityX: nil, velocityY: nil, durationMs: nil, decisionMs: nil, suspect: false, requestHash: "h",
            createdAt: fixedTime, undoneAt: nil)
    }

    static func poll(_ what: String, timeout: Double = 15, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { Issue.record("timed out waiting for \(what)"); return }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test("results at once, an update after a swipe, a burst of 500 coalesced, one computation shared by two watchers")
    func stream() async throws {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let database = try AppDatabase(path: path)
        let input = DeckInput(slug: "live", title: "Live", cards: (0..<10).map { DeckInput.CardInput(title: "c\($0)") })
        let (d, cards) = try input.validated(now: fixedTime)
        let deck = try database.importDeck(d, cards: cards)
        let ids = try database.cardIds(deckId: deck.id!).sorted()
        let catalog = Catalog(database: database)
        let live = LiveResults(database: database, catalog: catalog, interval: .milliseconds(500), heartbeatTicks: 1000)
        try live.start()
        let writer = SwipeWriter(pool: database.pool)

        let first = Collector()
        let firstTask = first.start(live.events(deckId: deck.id!, slug: "live"))
        try await Self.poll("the first event") { first.results.count == 1 }
        #expect(first.results[0].contains(#""allSwipes":0"#))
        let second = Collector()
        let secondTask = second.start(live.events(deckId: deck.id!, slug: "live"))
        // A late watcher gets the latest results at once, without a computation of its own.
        try await Self.poll("the second watcher's first event") { second.results.count == 1 }
        #expect(live.computations == 1)

        _ = try await writer.submit(.swipe(Self.swipe(deck, card: ids[0], participant: "one")))
        try await Self.poll("an update after one swipe") { first.results.count == 2 }
        #expect(first.results[1].contains(#""allSwipes":1"#))
        try await Self.poll("the same update for the second watcher") { second.results.count == 2 }
        let computationsBefore = live.computations

        // 500 swipes as fast as the writer takes them: a handful of updates, not 500.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<500 {
                group.addTask { _ = try await writer.submit(.swipe(Self.swipe(deck, card: ids[i % 10], participant: "b\(i / 10)"))) }
            }
            try await group.waitForAll()
        }
        try await Self.poll("the burst's final count") { first.results.last?.contains(#""allSwipes":501"#) == true }
        let burstEvents = first.results.count - 2
        #expect(burstEvents >= 1 && burstEvents <= 10, "\(burstEvents) events for 500 swipes")
        #expect(second.results.count == first.results.count)
        #expect(live.computations - computationsBefore == burstEvents, "one computation per update, shared")

        firstTask.cancel()
        secondTask.cancel()
    }

    @Test("exports: every swipe once, with kind, revision and undo; private to the owner")
    func exports() async throws {
        try await withApp { client, _ in
            let ids = try await client.makeDeck("x", titles: ["a", "b", "c"])
            #expect(try await client.swipe("x", card: ids[0], direction: "right", participant: "e1").status == .created)
            #expect(try await client.swipe("x", card: ids[1], direction: "left", input: "button", trace: nil, participant: "e1").status == .created)
            let undone = try await client.swipe("x", card: ids[2], direction: "right", participant: "e2")
            let undoneId = try #require(try undone.json()["swipe"]["id"].string)
            _ = try await client.execute(uri: "/api/v1/swipes/\(undoneId)?participant=\(pid("e2"))", method: .delete)
            expectAPIError(try await client.get("/api/v1/decks/x/swipes.csv"), .unauthorized, "unauthorized")
            expectAPIError(try await client.get("/api/v1/decks/x/swipes.jsonl"), .unauthorized, "unauthorized")
            let csv = try await client.get("/api/v1/decks/x/swipes.csv", headers: admin)
            #expect(csv.headers[.contentDisposition] == #"attachment; filename="x-swipes.csv""#)
            let lines = csv.text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.first == SwipeExport.csvHeader)
            #expect(lines.count == 4)
            #expect(lines.contains { $0.contains(",\(ids[0]),1,right,drag,drag,0,") })
            #expect(lines.contains { $0.contains(",\(ids[1]),1,left,button,button,0,") })
            #expect(lines.contains { $0.hasPrefix(undoneId) && !$0.hasSuffix(",") })
            let jsonl = try await client.get("/api/v1/decks/x/swipes.jsonl", headers: admin).text
            let objects = try jsonl.split(separator: "\n").map { try JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
            #expect(objects.count == 3)
            #expect(Set(objects.compactMap { $0["id"].string }).count == 3)
            #expect(objects.first { $0["id"].string == undoneId }?["undoneAt"].double == fixedTime)
        }
    }
}
