import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import SwipePhysics
import Synchronization
import Testing

@testable import SwipedeckServer

/// The live results stream: its engine (`LiveResults`) on a real database and writer, and
/// `GET /api/v1/decks/{deck}/results/live` over a real socket.
@Suite("Live results")
struct LiveResultsTests {
    /// Collects the events of a stream in the background.
    final class Collector: Sendable {
        let events = Mutex<[String]>([])
        var results: [String] { events.withLock { $0.filter { $0.hasPrefix("event: results") } } }

        func start(_ stream: AsyncStream<String>) -> Task<Void, Never> {
            Task { for await e in stream { events.withLock { $0.append(e) } } }
        }
    }

    static func swipe(_ deck: Deck, card: Int64, participant: String, direction: Decision = .right) -> Swipe {
        Swipe(
            id: UUID().uuidString, deckId: deck.id, cardId: card, participantId: participant, direction: direction,
            input: .button,
            trace: nil, velocityX: nil, velocityY: nil, durationMs: nil, decisionMs: nil, suspect: false,
            requestHash: "h",
            createdAt: fixedTime, undoneAt: nil)
    }

    /// Waits until `condition` holds; throws (ending the test, which then reads nothing that is
    /// not there) after `timeout` seconds, with the tail of `logs` (what the engine logged) and
    /// the pool watchdog's worst wait in its message.
    static func poll(_ what: String, timeout: Double = 15, logs: LogLines, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { throw TimedOut(what: what, diagnosis: logs.diagnosis()) }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    struct TimedOut: Error, CustomStringConvertible {
        let what: String
        let diagnosis: String
        var description: String { "timed out waiting for \(what)\n\(diagnosis)" }
    }

    @Test("results at once, an update after a swipe, a burst of 500 coalesced, one computation shared by two watchers")
    func stream() async throws {
        let location = try await TestDatabase.fresh()
        let database = try await openStore(location)
        defer { TestDatabase.dropLater(location, closing: database) }
        let input = DeckInput(slug: "live", title: "Live", cards: (0..<10).map { DeckInput.CardInput(title: "c\($0)") })
        let (d, cards) = try input.validated(now: fixedTime)
        let deck = try await database.importDeck(d, cards: cards)
        let ids = try await database.cardIds(deckId: deck.id).active.sorted()
        let catalog = Catalog(store: database)
        let logs = LogLines()
        let live = LiveResults(
            store: database, catalog: catalog, interval: .milliseconds(500), heartbeatTicks: 1000, logger: logs.logger)
        let writer = SwipeWriter(store: database, changes: database.changes)

        let first = Collector()
        let firstTask = first.start(live.events(deckId: deck.id, slug: "live"))
        try await Self.poll("the first event", logs: logs) { first.results.count == 1 }
        #expect(first.results[0].contains(#""allSwipes":0"#))
        let second = Collector()
        let secondTask = second.start(live.events(deckId: deck.id, slug: "live"))
        // A late watcher gets the latest results at once, without a computation of its own.
        try await Self.poll("the second watcher's first event", logs: logs) { second.results.count == 1 }
        #expect(live.computations == 1)

        _ = try await writer.submit(.swipe(Self.swipe(deck, card: ids[0], participant: "one")))
        try await Self.poll("an update after one swipe", logs: logs) { first.results.count == 2 }
        #expect(first.results[1].contains(#""allSwipes":1"#))
        try await Self.poll("the same update for the second watcher", logs: logs) { second.results.count == 2 }
        let computationsBefore = live.computations

        // 500 swipes as fast as the writer takes them: a handful of updates, not 500.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<500 {
                group.addTask {
                    _ = try await writer.submit(.swipe(Self.swipe(deck, card: ids[i % 10], participant: "b\(i / 10)")))
                }
            }
            try await group.waitForAll()
        }
        try await Self.poll("the burst's final count", logs: logs) {
            first.results.last?.contains(#""allSwipes":501"#) == true
        }
        // Each watcher's events arrive on its own task: the second may read the last one a moment later.
        try await Self.poll("the burst's final count for the second watcher", logs: logs) {
            second.results.last?.contains(#""allSwipes":501"#) == true
        }
        let burstEvents = first.results.count - 2
        #expect(burstEvents >= 1 && burstEvents <= 10, "\(burstEvents) events for 500 swipes")
        #expect(second.results.count == first.results.count)
        #expect(live.computations - computationsBefore == burstEvents, "one computation per update, shared")

        // Watchers that leave end the deck's task; nothing is kept for a deck nobody watches.
        #expect(live.watchedDecks == 1)
        firstTask.cancel()
        secondTask.cancel()
        try await Self.poll("the deck's task to end", logs: logs) { live.watchedDecks == 0 }
    }

    @Test("a change to one deck recomputes that deck only; an undo, a flip and an exclusion each update it")
    func perDeck() async throws {
        let location = try await TestDatabase.fresh()
        let database = try await openStore(location)
        defer { TestDatabase.dropLater(location, closing: database) }
        var decks: [Deck] = []
        for slug in ["one", "two"] {
            let (d, cards) = try DeckInput(slug: slug, title: slug, cards: [.init(title: "a"), .init(title: "b")])
                .validated(now: fixedTime)
            decks.append(try await database.importDeck(d, cards: cards))
        }
        let logs = LogLines()
        let live = LiveResults(
            store: database, catalog: Catalog(store: database), interval: .milliseconds(100), heartbeatTicks: 1000,
            logger: logs.logger)
        let writer = SwipeWriter(store: database, changes: database.changes)
        let one = Collector()
        let oneTask = one.start(live.events(deckId: decks[0].id, slug: "one"))
        let two = Collector()
        let twoTask = two.start(live.events(deckId: decks[1].id, slug: "two"))
        try await Self.poll("both first events", logs: logs) { one.results.count == 1 && two.results.count == 1 }
        let card = try await database.cardIds(deckId: decks[0].id).active.min()!
        let outcome = try await writer.submit(.swipe(Self.swipe(decks[0], card: card, participant: "u")))
        guard case .created(let swipe) = outcome else {
            Issue.record("not created: \(String(describing: outcome))")
            return
        }
        try await Self.poll("deck one's update", logs: logs) { one.results.count == 2 }
        _ = try await database.flipSwipe(id: swipe.id, participant: "u", to: .left, at: fixedTime)
        try await Self.poll("the flip", logs: logs) {
            one.results.last?.contains(#""directionTotals":{"left":1}"#) == true
        }
        _ = try await database.undoSwipe(id: swipe.id, participant: "u", at: fixedTime)
        try await Self.poll("the undo", logs: logs) { one.results.last?.contains(#""allSwipes":0"#) == true }
        _ = try await writer.submit(.swipe(Self.swipe(decks[0], card: card, participant: "v")))
        try await Self.poll("another swipe", logs: logs) { one.results.last?.contains(#""allSwipes":1"#) == true }
        try await database.setExcluded(deck: decks[0], participant: "v", true, reason: "", by: nil, now: fixedTime)
        try await Self.poll("the exclusion", logs: logs) {
            one.results.last?.contains(#""excludedParticipants":1"#) == true
        }
        // Several ticks of deck two's task have passed: none recomputed it.
        try await Task.sleep(for: .milliseconds(300))
        #expect(two.results.count == 1)
        oneTask.cancel()
        twoTask.cancel()
    }

    @Test("a deck that cannot be read is logged and tried again on the next tick, not dropped in silence")
    func failedComputation() async throws {
        try await StoreContractTests.withTwoStores { database, _ in
            let (deck, _) = try await StoreContractTests.importDeck(database, slug: "good", cards: 1)
            // A row this server did not write: reading the deck fails (an unknown card order).
            let row = try await TypedColumnsTests.rawRow(database, "decks", where: "slug", is: .text("good"))
            try await TypedColumnsTests.insertCopy(
                database, "decks", of: row,
                with: [
                    "id": .int(deck.id + 100), "slug": .text("odd"), "cardOrder": .text("sideways"),
                ])
            let logs = LogLines()
            let live = LiveResults(
                store: database, catalog: Catalog(store: database), interval: .milliseconds(20), heartbeatTicks: 1000,
                logger: logs.logger)
            let watcher = Collector()
            let task = watcher.start(live.events(deckId: deck.id + 100, slug: "odd"))
            defer { task.cancel() }
            // Two failures: the first tick's, and a retry although nothing marked the deck changed since.
            try await Self.poll("two logged failures", logs: logs) {
                logs.errors(containing: "live results not computed").count >= 2
            }
            #expect(watcher.results.isEmpty)
        }
    }

    @Test("heartbeats while nothing changes")
    func heartbeat() async throws {
        let location = try await TestDatabase.fresh()
        let database = try await openStore(location)
        defer { TestDatabase.dropLater(location, closing: database) }
        let (d, cards) = try DeckInput(slug: "hb", title: "hb", cards: [.init(title: "a")]).validated(now: fixedTime)
        let deck = try await database.importDeck(d, cards: cards)
        let logs = LogLines()
        let live = LiveResults(
            store: database, catalog: Catalog(store: database), interval: .milliseconds(20), heartbeatTicks: 5,
            logger: logs.logger)
        let watcher = Collector()
        let task = watcher.start(live.events(deckId: deck.id, slug: "hb"))
        func pings() -> Int { watcher.events.withLock { $0.filter { $0 == ": ping\n\n" }.count } }
        try await Self.poll("two heartbeats", logs: logs) { pings() >= 2 }
        // On PostgreSQL the deck's own import is told by a notification that may arrive after the
        // first look (one more computation, once); from then on nothing changes.
        let (results, computations) = (watcher.results.count, live.computations)
        #expect(results >= 1 && results <= 2)
        try await Self.poll("two more heartbeats", logs: logs) { pings() >= 4 }
        #expect(watcher.results.count == results)
        // Heartbeats cost no computation. (Reading `live` here also keeps it alive until now: its
        // deck task holds it weakly, as the app does, and the app keeps it for its lifetime.)
        #expect(live.computations == computations)
        task.cancel()
    }

    /// The `data:` line of the first `event: results` in `text`, or nil.
    static func firstResultsData(_ text: String) -> String? {
        guard let event = text.range(of: "event: results\ndata: ") else { return nil }
        return text[event.upperBound...].split(separator: "\n", maxSplits: 1).first.map(String.init)
    }

    /// The results JSON `text` without the owner's `people` (the stream, shared by every watcher,
    /// carries none).
    static func withoutPeople(_ text: String?) -> JSONValue? {
        guard let text, case .object(var o) = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            return nil
        }
        o["people"] = nil
        return .object(o)
    }

    @Test(
        "over HTTP: an event stream of the very results JSON at once, an update within about a second of a swipe; 401 first",
        .timeLimit(.minutes(3)))
    func overHTTP() async throws {
        // A 250 ms interval and the default 15 s heartbeat: the update must come on the swipe, not
        // with a heartbeat. The bound is a third of the heartbeat because the whole suite runs at
        // once, on PostgreSQL too, and a loaded machine has taken 2 s (the latency is benchmarked).
        try await withApp({ $0.liveInterval = .milliseconds(250) }, testing: .live) { client, env in
            let ids = try await client.makeDeck("sse", titles: ["a", "b"])
            let port = try #require(client.port)
            // Anonymous on a private deck: a JSON 401 before any stream; HEAD answers at once.
            expectAPIError(try await client.get("/api/v1/decks/sse/results/live"), .unauthorized, "unauthorized")
            let head = try await client.execute(uri: "/api/v1/decks/sse/results/live", method: .head, headers: admin)
            #expect(head.status == .ok)
            #expect(head.headers[.contentType] == "text/event-stream")
            let before = try await client.get("/api/v1/decks/sse/results", headers: admin).text
            let swipe = try swipeBody(card: ids[0], direction: "right", participant: "watched")
            let (first, delay, second) = try await RawHTTPConnection.run { () throws -> (String, Double, String) in
                let stream = try RawHTTPConnection(port: port)
                _ = stream.send(
                    Array(
                        "GET /api/v1/decks/sse/results/live HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(adminToken)\r\n\r\n"
                            .utf8))
                let first = stream.receive(until: "event: results")
                let poster = try RawHTTPConnection(port: port)
                let post =
                    "POST /api/v1/decks/sse/swipes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(swipe.utf8.count)\r\n\r\n" + swipe
                let sent = Date()
                _ = poster.send(Array(post.utf8))
                let updated = stream.hasAnswered(waitingMilliseconds: 5_000)
                let delay = updated ? Date().timeIntervalSince(sent) : .infinity
                return (first, delay, stream.receive(until: "event: results"))
            }
            #expect(first.hasPrefix("HTTP/1.1 200"), "\(first.prefix(300))\n\(env.diagnosis())")
            #expect(first.lowercased().contains("content-type: text/event-stream"))
            #expect(first.lowercased().contains("cache-control: no-store"))
            #expect(Self.withoutPeople(before) != nil && before.contains(#""people":{"#))
            #expect(
                Self.withoutPeople(Self.firstResultsData(first)) == Self.withoutPeople(before),
                "the first event is GET …/results")
            #expect(delay < 5, "the update came \(delay) s after the swipe\n\(env.diagnosis())")
            let after = try await client.get("/api/v1/decks/sse/results", headers: admin).text
            #expect(after.contains(#""allSwipes":1"#))
            #expect(Self.withoutPeople(Self.firstResultsData(second)) == Self.withoutPeople(after))
        }
    }

    @Test(
        "the owner's results page: sign-in first, others' decks refused, suspect participants with reasons and Exclude/Include"
    )
    func ownerPage() async throws {
        try await withApp { client, env in
            let ann = try await OwnerAuthTests.signIn(client, "ann", adding: env)  // adopts the sample deck `getaways`
            let ben = try await OwnerAuthTests.signIn(client, "ben", adding: env)
            let anonymous = try await client.get("/owner/decks/getaways/results")
            #expect(anonymous.status == .seeOther && anonymous.headers[.location]?.hasPrefix("/owner/sign-in") == true)
            #expect(try await client.get("/owner/decks/getaways/results", headers: ben).status == .forbidden)
            #expect(try await client.get("/owner/decks/nope/results", headers: ann).status == .notFound)
            let card = try #require(try await client.cardIds("getaways").first)
            // A drag traced by a machine: stored, suspect, with its reason.
            let body = try swipeBody(card: card, direction: "right", trace: machineDrag(), participant: "quick")
            #expect(try await client.postJSON("/api/v1/decks/getaways/swipes", body).status == .created)

            let goTo = try await client.get("/owner/decks/getaways/results", headers: ann)
            let location = try #require(goTo.headers[.location])
            let page = try await client.get(location, headers: ann).text
            #expect(page.contains(#"data-live="/api/v1/decks/getaways/results/live""#))
            #expect(
                page.range(
                    of: #"<script type="module" src="/js/live\.[0-9a-f]{10}\.js"></script>"#,
                    options: .regularExpression) != nil)
            #expect(
                page.contains("/api/v1/decks/getaways/swipes.csv")
                    && page.contains("/api/v1/decks/getaways/swipes.jsonl"))
            // Named by the identity (what exports show), never by the credential.
            let quick = try await identity("quick", in: "getaways", env)
            #expect(page.contains(#"title="\#(quick)""#), "the suspect participant is listed")
            #expect(!page.contains(pid("quick")))
            #expect(page.contains("machine_like_trace ×1"), "with the reason and its count")
            let exclude = "/owner/decks/getaways/participants/\(quick)/exclude"
            #expect(page.contains(exclude))
            // Without the form's csrf token nothing changes.
            #expect(try await client.postForm(exclude, "csrf=wrong", headers: ann).status == .forbidden)
            #expect(try await env.count("SELECT COUNT(*) FROM exclusions") == 0)
            let excluded = try await client.postForm(exclude, "csrf=\(OwnerAuthTests.csrf(page))", headers: ann)
            #expect(excluded.status == .seeOther)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM exclusions WHERE liftedAt IS NULL AND participantId = ?", [quick]) == 1)
            let after = try await client.get(location, headers: ann).text
            #expect(after.contains("Include again") && after.contains("excluded: excluded on the results page"))
            #expect(
                try await client.postForm(exclude, "csrf=\(OwnerAuthTests.csrf(page))", headers: ben).status
                    == .forbidden)
        }
    }
}
