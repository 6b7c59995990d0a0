import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Prometheus
import Testing

@testable import SwipedeckServer

#if canImport(Glibc)
    import Glibc
#endif

/// Webhooks' pure rules: the signature, the target guard, the backoff schedule.
@Suite("Webhook rules")
struct WebhookRuleTests {
    @Test("the signature is HMAC-SHA256(secret, timestamp + '.' + body) in hex (a vector computed with Python's hmac)")
    func signatureVector() {
        let header = WebhookSignature.header(
            secret: "whsec_test", timestamp: 1_790_000_000, body: Data(#"{"id":"dlv_1"}"#.utf8))
        #expect(header == "sha256=d66110c6828ee64df12e35324226b67fe7fd35d5f90f31e50aa5854269b7300c")
        // Any change of timestamp, body or secret changes it.
        #expect(
            WebhookSignature.header(secret: "whsec_test", timestamp: 1_790_000_001, body: Data(#"{"id":"dlv_1"}"#.utf8))
                != header)
        #expect(
            WebhookSignature.header(secret: "whsec_tesT", timestamp: 1_790_000_000, body: Data(#"{"id":"dlv_1"}"#.utf8))
                != header)
    }

    @Test("the body is {id, event, deck, at, data} in that order, the data as stored")
    func body() {
        let delivery = WebhookDelivery(
            id: "dlv_1", hookId: 1, deckId: 1, event: .cardDecided, at: 1.5, data: Data(#"{"card":7}"#.utf8),
            status: .pending, attempts: 0, createdAt: 1, nextAttemptAt: 1)
        let text = String(decoding: WebhookBody.encode(delivery, deckSlug: "get\"aways"), as: UTF8.self)
        #expect(text == #"{"id":"dlv_1","event":"card.decided","deck":"get\"aways","at":1.5,"data":{"card":7}}"#)
    }

    /// Every refused range (the issue's list and the reserved ones beside it), with the range named.
    static let refused: [(String, IPAddress.Range)] = [
        ("0.0.0.0", .unspecified), ("0.1.2.3", .unspecified), ("127.0.0.1", .loopback), ("127.255.255.254", .loopback),
        ("10.0.0.1", .privateNetwork), ("10.255.255.255", .privateNetwork), ("172.16.0.1", .privateNetwork),
        ("172.31.255.255", .privateNetwork), ("192.168.1.1", .privateNetwork), ("100.64.0.1", .sharedAddressSpace),
        ("100.127.255.255", .sharedAddressSpace), ("169.254.0.1", .linkLocal), ("169.254.169.254", .metadata),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast), ("255.255.255.255", .multicast),
        ("240.0.0.1", .reserved), ("198.18.0.1", .reserved), ("192.0.0.8", .reserved), ("::", .unspecified),
        ("::1", .loopback), ("fc00::1", .uniqueLocal), ("fdff:ffff::1", .uniqueLocal), ("fe80::1", .linkLocal),
        ("febf::1", .linkLocal), ("fec0::1", .siteLocal), ("feff:ffff::1", .siteLocal), ("ff02::1", .multicast),
        ("fd00:ec2::254", .metadata),
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.1.2.3", .privateNetwork), ("::ffff:169.254.169.254", .metadata),
        ("64:ff9b::a9fe:a9fe", .metadata), ("::127.0.0.1", .loopback),
        // The field test's: 6to4, translated, local-use NAT64, discard, documentation, TEST-NETs, benchmarking.
        ("2002:7f00:1::", .loopback), ("2002:a9fe:a9fe::1", .metadata), ("::ffff:0:7f00:1", .loopback),
        ("64:ff9b:1::7f00:1", .reserved), ("100::1", .reserved), ("2001:db8::1", .reserved),
        ("2001:0:4136:e378::1", .reserved), ("192.0.2.1", .reserved), ("198.51.100.7", .reserved),
        ("203.0.113.200", .reserved), ("198.19.255.255", .reserved),
    ]

    /// Public addresses next to the refused ranges' edges, which must be allowed.
    static let allowed = [
        "1.1.1.1", "8.8.8.8", "93.184.216.34", "9.255.255.255", "11.0.0.0", "172.15.255.255", "172.32.0.0",
        "192.167.255.255", "192.169.0.0", "100.63.255.255", "100.128.0.0", "169.253.255.255", "169.255.0.0",
        "126.255.255.255", "128.0.0.0", "223.255.255.255", "198.17.255.255", "198.20.0.0", "2606:4700:4700::1111",
        "2001:4860:4860::8888", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2001:200::1",
        "192.0.3.1", "198.51.101.1", "203.0.114.1",
    ]

    @Test("the target guard refuses every inward range by literal address, and allows public ones")
    func addressTable() throws {
        for (text, range) in Self.refused {
            let address = try #require(IPAddress(text), "\(text) parses")
            #expect(address.refusal == range, "\(text)")
        }
        for text in Self.allowed {
            let address = try #require(IPAddress(text), "\(text) parses")
            #expect(address.refusal == nil, "\(text) is public")
        }
        #expect(IPAddress("example.org") == nil)
        #expect(IPAddress("2130706433") == nil)  // not a literal here; the resolver reads it (checked below)
        #expect(IPAddress("10.0.0.1")?.description == "10.0.0.1")
        #expect(IPAddress("fd00:ec2::254")?.description == "fd00:ec2::254")
    }

    /// A resolver answering from a table (no DNS in tests).
    struct TableResolver: HostResolver {
        let table: [String: [String]]
        struct Unknown: Error {}

        func addresses(of host: String, port: Int) async throws -> [IPAddress] {
            guard let texts = table[host] else { throw Unknown() }
            return texts.compactMap(IPAddress.init)
        }
    }

    @Test("a URL is checked for scheme, credentials and form, and its host as it resolves (every address of it)")
    func targets() async throws {
        let resolver = TableResolver(table: [
            "hooks.example": ["93.184.216.34"], "rebound.example": ["93.184.216.34", "10.0.0.7"],
            "metadata.example": ["169.254.169.254"], "v6.example": ["::1"],
        ])
        func problem(_ url: String, allowPrivate: Bool = false) async -> WebhookTarget.Problem? {
            do {
                let target = try WebhookTarget(parsing: url)
                _ = try await target.check(resolver: resolver, allowPrivate: allowPrivate)
                return nil
            } catch {
                return error
            }
        }
        #expect(await problem("https://hooks.example/in") == nil)
        #expect(await problem("http://93.184.216.34:8080/in") == nil)
        #expect(await problem("ftp://hooks.example/in")?.code == "webhook_url_scheme")
        #expect(await problem("javascript:alert(1)")?.code == "webhook_url_scheme")
        #expect(await problem("https://user:pw@hooks.example/in")?.code == "webhook_url_credentials")
        #expect(await problem("not a url")?.code != nil)
        #expect(await problem("https://")?.code == "invalid_url")
        #expect(await problem("https://" + String(repeating: "a", count: 2001))?.code == "invalid_url")
        #expect(await problem("https://nowhere.example/")?.code == "webhook_host_unresolvable")
        #expect(await problem("http://127.0.0.1:9/")?.code == "webhook_private_address")
        #expect(await problem("http://[::1]/")?.code == "webhook_private_address")
        #expect(await problem("http://[fd00:ec2::254]/")?.code == "webhook_private_address")
        #expect(await problem("http://[fec0::1]/")?.code == "webhook_private_address")
        #expect(await problem("http://[FEC0::1]:8080/in")?.code == "webhook_private_address")
        #expect(await problem("https://rebound.example/")?.code == "webhook_private_address")
        #expect(await problem("https://metadata.example/")?.code == "webhook_private_address")
        // A name's refusal does not print the address it resolved to.
        let named = await problem("https://rebound.example/")?.message ?? ""
        #expect(!named.contains("10.0.0.7") && named.contains("rebound.example"), "\(named)")
        // A delivery's error is a coarse reason, not the system's text.
        #expect(WebhookDispatcher.words(CancellationError()) == "The connection failed.")
        #expect(await problem("https://v6.example/")?.code == "webhook_private_address")
        // The flag lets inward addresses through (tests' receivers on 127.0.0.1), not bad URLs.
        #expect(await problem("http://127.0.0.1:9/", allowPrivate: true) == nil)
        #expect(await problem("https://rebound.example/", allowPrivate: true) == nil)
        #expect(await problem("ftp://127.0.0.1/", allowPrivate: true)?.code == "webhook_url_scheme")
        let message = await problem("https://rebound.example/")?.message ?? ""
        #expect(
            message.contains("rebound.example resolves to an address that is a private address")
                && message.contains("--webhook-allow-private"), "\(message)")
    }

    @Test("the system resolver reads numeric forms getaddrinfo accepts, so 2130706433 is 127.0.0.1 and refused")
    func numericHost() async throws {
        let target = try WebhookTarget(parsing: "http://2130706433/")
        await #expect(throws: WebhookTarget.Problem.self) {
            _ = try await target.check(resolver: SystemResolver(), allowPrivate: false)
        }
        let addresses = try await SystemResolver().addresses(of: "127.0.0.1", port: 80)
        #expect(addresses == [IPAddress("127.0.0.1")!])
    }

    @Test("an http target is pinned to the address just checked (Host keeps the name); https keeps its name")
    func pinning() throws {
        let http = try WebhookTarget(parsing: "http://hooks.example:8080/in?x=1")
        let pinned = http.pinned(to: IPAddress("93.184.216.34")!)
        #expect(pinned.url == "http://93.184.216.34:8080/in?x=1")
        #expect(pinned.host == "hooks.example:8080")
        let v6 = try WebhookTarget(parsing: "http://hooks.example/in").pinned(to: IPAddress("2606:4700::1")!)
        #expect(v6.url == "http://[2606:4700::1]/in" && v6.host == "hooks.example")
        let https = try WebhookTarget(parsing: "https://hooks.example/in").pinned(to: IPAddress("93.184.216.34")!)
        #expect(https.url == "https://hooks.example/in" && https.host == nil)
    }

    @Test("backoff doubles from 2 s to an hour, jitter moves it within its upper half, and gives up after 24 h")
    func backoff() {
        let b = WebhookBackoff()
        #expect(
            (1...12).map { b.delay(afterAttempts: $0, jitter: 1) } == [
                2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 3600,
            ])
        #expect(b.delay(afterAttempts: 1, jitter: 0) == 1)
        #expect(b.delay(afterAttempts: 40, jitter: 0) == 1800)
        #expect(b.delay(afterAttempts: 3, jitter: 0.5) == 6)
        // Retries until 24 h after creation, then none.
        #expect(b.retryAt(afterAttempts: 1, now: 100, createdAt: 100, jitter: 1) == 102)
        #expect(b.retryAt(afterAttempts: 20, now: 100 + 86_400 - 3600, createdAt: 100, jitter: 1) == 86_500.0)
        #expect(b.retryAt(afterAttempts: 20, now: 100 + 86_400 - 3599, createdAt: 100, jitter: 1) == nil)
        // With the worst jitter the schedule still fits some 35 attempts in a day.
        var now = 0.0
        var attempts = 0
        while let next = b.retryAt(afterAttempts: attempts + 1, now: now, createdAt: 0, jitter: 1) {
            attempts += 1
            now = next
        }
        #expect((30...40).contains(attempts), "\(attempts) attempts")
    }
}

/// The outbox on the engine of this run (both engines in `make test`).
@Suite("Webhook outbox (both engines)")
struct WebhookOutboxTests {
    static func notice(_ kind: DeckNoticeKind, deck: Int64, at: Double = fixedTime, _ data: String = "{}")
        -> DeckNotice
    {
        DeckNotice(kind: kind, deckId: deck, at: at, data: Data(data.utf8))
    }

    static func swipes(_ ids: [String]) -> String {
        let items = ids.map { #"{"at":1,"card":1,"direction":"right","id":"\#($0)","participant":"p"}"# }
        return #"{"swipes":["# + items.joined(separator: ",") + "]}"
    }

    @Test(
        "a notice is stored once per subscribed, enabled hook, before anything is sent; other kinds and decks are not")
    func enqueue() async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, _) = try await StoreContractTests.importDeck(store, cards: 2)
            let (other, _) = try await StoreContractTests.importDeck(store, slug: "other", cards: 1)
            let a = try await store.addWebhook(
                deckId: deck.id, url: "https://a.example/", events: [.cardDecided, .deckDecided], secret: "s1", by: nil,
                now: fixedTime)
            let b = try await store.addWebhook(
                deckId: deck.id, url: "https://b.example/", events: [.cardDecided], secret: "s2", by: nil,
                now: fixedTime)
            let off = try await store.addWebhook(
                deckId: deck.id, url: "https://c.example/", events: [.cardDecided], secret: "s3", by: nil,
                now: fixedTime)
            _ = try await store.disableWebhook(id: off.id, deckId: deck.id, now: fixedTime)
            let reached = try await store.enqueue(
                [
                    Self.notice(.cardDecided, deck: deck.id, #"{"card":1}"#), Self.notice(.deckDecided, deck: deck.id),
                    Self.notice(.roomMatched, deck: deck.id), Self.notice(.cardDecided, deck: other.id),
                ], now: fixedTime)
            #expect(reached == 3)
            #expect(
                try await store.deliveries(hookId: a.id, limit: 10).map(\.event).sorted { $0.rawValue < $1.rawValue }
                    == [
                        .cardDecided, .deckDecided,
                    ])
            let forB = try await store.deliveries(hookId: b.id, limit: 10)
            #expect(forB.count == 1 && forB[0].status == .pending && forB[0].attempts == 0)
            #expect(String(decoding: forB[0].data, as: UTF8.self) == #"{"card":1}"#)
            #expect(try await store.deliveries(hookId: off.id, limit: 10).isEmpty)
            #expect(try await store.hookedDecks(for: .cardDecided) == [deck.id])
            #expect(try await store.hookedDecks(for: .swipeCreated).isEmpty)
            #expect(try await store.webhooks(deckId: deck.id).map(\.isEnabled) == [true, true, false])
        }
    }

    @Test(
        "swipe.created is batched: swipes join the hook's waiting delivery; once claimed, the next is due a second later"
    )
    func swipeBatches() async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, _) = try await StoreContractTests.importDeck(store, cards: 2)
            let hook = try await store.addWebhook(
                deckId: deck.id, url: "https://a.example/", events: [.swipeCreated], secret: "s", by: nil,
                now: fixedTime)
            try await store.enqueue([Self.notice(.swipeCreated, deck: deck.id, Self.swipes(["k1"]))], now: fixedTime)
            try await store.enqueue(
                [Self.notice(.swipeCreated, deck: deck.id, Self.swipes(["k2", "k3"]))], now: fixedTime + 0.2)
            var log = try await store.deliveries(hookId: hook.id, limit: 10)
            #expect(log.count == 1)
            #expect(
                try JSONDecoder().decode(SwipesCreated.self, from: log[0].data).swipes.map(\.id) == ["k1", "k2", "k3"])
            let claimed = try await store.claimDeliveries(now: fixedTime + 0.3, lease: 30, limit: 10, token: "t")
            #expect(claimed.map(\.delivery.id) == [log[0].id])
            #expect(claimed.first?.url == "https://a.example/" && claimed.first?.secret == "s")
            #expect(claimed.first?.deckSlug == deck.slug)
            // Claimed: a new swipe starts the next delivery, due a second after the first.
            try await store.enqueue(
                [Self.notice(.swipeCreated, deck: deck.id, Self.swipes(["k4"]))], now: fixedTime + 0.4)
            log = try await store.deliveries(hookId: hook.id, limit: 10)
            #expect(log.count == 2)
            let next = try #require(log.first { $0.id != claimed[0].delivery.id })
            #expect(next.nextAttemptAt == fixedTime + 1)
            #expect(try await store.claimDeliveries(now: fixedTime + 0.9, lease: 30, limit: 10, token: "u").isEmpty)
            #expect(try await store.claimDeliveries(now: fixedTime + 1, lease: 30, limit: 10, token: "u").count == 1)
        }
    }

    @Test("a claim is a lease: nobody else claims it until it ends; an attempt is recorded by its holder only")
    func leases() async throws {
        try await StoreContractTests.withTwoStores { a, b in
            let (deck, _) = try await StoreContractTests.importDeck(a, cards: 1)
            let hook = try await a.addWebhook(
                deckId: deck.id, url: "https://a.example/", events: [.deckDecided], secret: "s", by: nil, now: fixedTime
            )
            try await a.enqueue([Self.notice(.deckDecided, deck: deck.id)], now: fixedTime)
            let first = try await a.claimDeliveries(now: fixedTime, lease: 30, limit: 10, token: "one")
            #expect(first.count == 1)
            #expect(try await b.claimDeliveries(now: fixedTime + 29, lease: 30, limit: 10, token: "two").isEmpty)
            // The lease ran out (the first server died mid-send): the other one takes it over.
            let second = try await b.claimDeliveries(now: fixedTime + 31, lease: 30, limit: 10, token: "two")
            #expect(second.map(\.delivery.id) == first.map(\.delivery.id))
            let id = first[0].delivery.id
            #expect(
                try await a.recordAttempt(deliveryId: id, token: "one", .delivered(status: 200), now: fixedTime + 32)
                    == false)
            #expect(
                try await b.recordAttempt(
                    deliveryId: id, token: "two",
                    .failed(status: 500, error: "The target answered HTTP 5xx.", retryAt: fixedTime + 40),
                    now: fixedTime + 32))
            var d = try #require(try await a.deliveries(hookId: hook.id, limit: 1).first)
            #expect(d.status == .pending && d.attempts == 1 && d.lastStatus == 500 && d.nextAttemptAt == fixedTime + 40)
            #expect(d.lastError == "The target answered HTTP 5xx.")
            #expect(try await a.claimDeliveries(now: fixedTime + 39, lease: 30, limit: 10, token: "x").isEmpty)
            let third = try await a.claimDeliveries(now: fixedTime + 40, lease: 30, limit: 10, token: "three")
            #expect(third.count == 1)
            #expect(
                try await a.recordAttempt(deliveryId: id, token: "three", .delivered(status: 204), now: fixedTime + 41))
            d = try #require(try await b.deliveries(hookId: hook.id, limit: 1).first)
            #expect(d.status == .delivered && d.attempts == 2 && d.deliveredAt == fixedTime + 41 && d.lastError == nil)
            #expect(try await a.claimDeliveries(now: fixedTime + 1000, lease: 30, limit: 10, token: "x").isEmpty)
        }
    }

    @Test("a delivery without a retry is failed; disabling a hook cancels its pending ones and keeps the log")
    func failAndDisable() async throws {
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, _) = try await StoreContractTests.importDeck(store, cards: 1)
            let hook = try await store.addWebhook(
                deckId: deck.id, url: "https://a.example/", events: [.deckDecided, .cardDecided], secret: "s", by: nil,
                now: fixedTime)
            try await store.enqueue([Self.notice(.deckDecided, deck: deck.id)], now: fixedTime)
            let claimed = try await store.claimDeliveries(now: fixedTime, lease: 30, limit: 10, token: "t")
            try await store.recordAttempt(
                deliveryId: claimed[0].delivery.id, token: "t",
                .failed(status: nil, error: "No answer within 10 s.", retryAt: nil), now: fixedTime + 1)
            try await store.enqueue([Self.notice(.cardDecided, deck: deck.id)], now: fixedTime + 2)
            let disabled = try await store.disableWebhook(id: hook.id, deckId: deck.id, now: fixedTime + 3)
            #expect(disabled.disabledAt == fixedTime + 3)
            let log = try await store.deliveries(hookId: hook.id, limit: 10)
            #expect(Set(log.map(\.status)) == [.failed, .cancelled])
            #expect(try await store.claimDeliveries(now: fixedTime + 10, lease: 30, limit: 10, token: "t").isEmpty)
            // Disabling again changes nothing; another deck's id is not found.
            #expect(
                try await store.disableWebhook(id: hook.id, deckId: deck.id, now: fixedTime + 9).disabledAt == fixedTime
                    + 3)
            await #expect(throws: StoreError.notFound(.webhook)) {
                _ = try await store.disableWebhook(id: hook.id, deckId: deck.id + 1, now: fixedTime)
            }
        }
    }

    @Test("two dispatchers claiming at once on one database each claim every delivery exactly once")
    func twoDispatchers() async throws {
        try await StoreContractTests.withTwoStores { a, b in
            let (deck, _) = try await StoreContractTests.importDeck(a, cards: 1)
            _ = try await a.addWebhook(
                deckId: deck.id, url: "https://a.example/", events: [.cardDecided], secret: "s", by: nil, now: fixedTime
            )
            let notices = (0..<200).map { Self.notice(.cardDecided, deck: deck.id, "{\"card\":\($0)}") }
            try await a.enqueue(notices, now: fixedTime)
            // Each dispatcher claims batches of 7 until nothing is left, both at once.
            let claims = try await withThrowingTaskGroup(of: [String].self) { group in
                for (store, token) in [(a, "one"), (b, "two")] {
                    group.addTask {
                        var ids: [String] = []
                        while true {
                            let batch = try await store.claimDeliveries(
                                now: fixedTime, lease: 30, limit: 7, token: token)
                            if batch.isEmpty { return ids }
                            ids += batch.map(\.delivery.id)
                        }
                    }
                }
                return try await group.reduce(into: [[String]]()) { $0.append($1) }
            }
            let all = claims.flatMap { $0 }
            #expect(all.count == 200)
            #expect(Set(all).count == 200)
        }
    }
    @Test("an attempt cut short by shutdown is no failed attempt: not counted, the delivery left pending to its lease")
    func cancelledAttempt() async throws {
        let target = try SilentListener()
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, _) = try await StoreContractTests.importDeck(store, cards: 1)
            let hook = try await store.addWebhook(
                deckId: deck.id, url: "http://127.0.0.1:\(target.port)/", events: [.deckDecided], secret: "s", by: nil,
                now: fixedTime)
            try await store.enqueue([Self.notice(.deckDecided, deck: deck.id)], now: fixedTime)
            let claimed = try await store.claimDeliveries(now: fixedTime, lease: 30, limit: 1, token: "one")
            let registry = PrometheusCollectorRegistry()
            let dispatcher = WebhookDispatcher(
                store: store, clock: { fixedTime }, allowPrivate: true,
                metrics: WebhookMetrics(factory: PrometheusMetricsFactory(registry: registry)),
                relay: SwipeNotices(
                    store: store, names: ParticipantNames(signer: CredentialTests.signer, store: store),
                    logger: Logger(label: "test")),
                secretKey: testSecretKey, logger: Logger(label: "test"))
            let client = WebhookDispatcher.makeClient()
            // The target accepts and never answers: the attempt waits (up to its 10 s) until cancelled.
            let attempt = Task { await dispatcher.attempt(claimed[0], client, token: "one") }
            try await Task.sleep(for: .milliseconds(300))
            attempt.cancel()
            await attempt.value
            try await client.shutdown()
            let d = try #require(try await store.deliveries(hookId: hook.id, limit: 1).first)
            #expect(d.status == .pending && d.attempts == 0 && d.lastError == nil)
            var exposition: [UInt8] = []
            registry.emit(into: &exposition)
            let text = String(decoding: exposition, as: UTF8.self)
            #expect(!text.contains("swipedeck_webhook_attempts_failed_total 1"), "\(text)")
        }
    }
    @Test(
        "a target that answers its head and trickles its body holds its own attempt until the deadline, never the deliveries of another owner's hook"
    )
    func slowTargetHoldsNobody() async throws {
        let slow = try HTTPTestReceiver(trickles: true)
        let fast = try HTTPTestReceiver(trickles: false)
        defer {
            slow.stop()
            fast.stop()
        }
        try await StoreContractTests.withTwoStores { store, _ in
            let (deck, _) = try await StoreContractTests.importDeck(store, cards: 1)
            let (other, _) = try await StoreContractTests.importDeck(store, slug: "other", cards: 1)
            let slowHook = try await store.addWebhook(
                deckId: deck.id, url: "http://127.0.0.1:\(slow.port)/", events: [.deckDecided], secret: "s", by: nil,
                now: fixedTime)
            let fastHook = try await store.addWebhook(
                deckId: other.id, url: "http://127.0.0.1:\(fast.port)/", events: [.deckDecided], secret: "s", by: nil,
                now: fixedTime)
            try await store.enqueue([Self.notice(.deckDecided, deck: deck.id)], now: fixedTime)
            let dispatcher = WebhookDispatcher(
                store: store, clock: { fixedTime }, allowPrivate: true,
                metrics: WebhookMetrics(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry())),
                relay: SwipeNotices(
                    store: store, names: ParticipantNames(signer: CredentialTests.signer, store: store),
                    logger: Logger(label: "test")),
                secretKey: testSecretKey, logger: Logger(label: "test"), pollInterval: .milliseconds(50),
                attemptDeadline: .seconds(10))
            let service = Task { try await dispatcher.run() }
            defer { service.cancel() }
            // The slow target has the first delivery and trickles its answer's body, a byte at a time.
            try await Self.waitFor("the slow target's request") { slow.answered >= 1 }
            try await store.enqueue([Self.notice(.deckDecided, deck: other.id)], now: fixedTime)
            dispatcher.wake()
            try await Self.waitFor("the other hook's delivery") {
                try await store.deliveries(hookId: fastHook.id, limit: 1).first?.status == .delivered
            }
            // Delivered while the slow attempt still runs (the former round waited for it, for ever:
            // each trickled byte restarted the client's read timeout).
            let meanwhile = try #require(try await store.deliveries(hookId: slowHook.id, limit: 1).first)
            #expect(meanwhile.attempts == 0 && meanwhile.status == .pending)
            // The slow attempt ends at its deadline; its head said 200, so it is delivered.
            try await Self.waitFor("the slow attempt's end") {
                try await store.deliveries(hookId: slowHook.id, limit: 1).first?.attempts == 1
            }
            let slowEnd = try #require(try await store.deliveries(hookId: slowHook.id, limit: 1).first)
            #expect(slowEnd.status == .delivered && slowEnd.lastStatus == 200)
            service.cancel()
            _ = try? await service.value  // cancelled on purpose: its end is not under test
        }
    }

    /// Polls `condition` every 50 ms for up to 15 s.
    static func waitFor(_ what: String, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<300 {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("timed out waiting for \(what)")
        throw CancellationError()
    }
}

/// A TCP socket on 127.0.0.1 that listens and never accepts: connections complete (the
/// kernel's backlog) and requests are sent, but no answer ever comes.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        (descriptor, port) = try HTTPTestReceiver.listen()
    }

    deinit { Glibc.close(descriptor) }
}

/// The webhooks API and the app's wiring (the engine of this run).
@Suite("Webhooks API")
struct WebhookApiTests {
    static let hooks = "/api/v1/decks/getaways/webhooks"

    @Test("an owner registers a hook and gets its secret once; lists it without; disables it; reads its log")
    func lifecycle() async throws {
        try await withApp { client, env in
            var r = try await client.postJSON(
                Self.hooks, #"{"url":"https://93.184.216.34/in","events":["card.decided","swipe.created"]}"#,
                headers: admin)
            #expect(r.status == .created, "\(r.text)")
            let created = try r.json()
            let secret = try #require(created["secret"].string)
            #expect(secret.hasPrefix("whsec_") && secret.count == 70)
            #expect(created["events"].array.compactMap(\.string) == ["card.decided", "swipe.created"])
            let id = try #require(created["id"].int)
            r = try await client.get(Self.hooks, headers: admin)
            #expect(r.status == .ok)
            #expect(try r.json()["webhooks"][0]["id"].int == id)
            #expect(try r.json()["webhooks"][0]["secret"].isNull)
            #expect(!r.text.contains(secret))
            // The database keeps a seed the secret is derived from under the server's key, never the secret.
            #expect(try await env.count("SELECT COUNT(*) FROM webhooks WHERE secret = ?", [secret]) == 0)
            let stored = try #require(try await env.row("SELECT secret FROM webhooks")?["secret"] as String?)
            #expect(try testSecretKey.reveal(stored, for: .webhook) == secret)
            r = try await client.get("\(Self.hooks)/\(id)/deliveries", headers: admin)
            #expect(r.status == .ok)
            #expect(try r.json()["deliveries"].array.isEmpty)
            r = try await client.execute(uri: "\(Self.hooks)/\(id)", method: .delete, headers: admin)
            #expect(r.status == .ok)
            #expect(try r.json()["disabledAt"].double == fixedTime)
            #expect(try await env.count("SELECT COUNT(*) FROM webhooks WHERE disabledAt IS NOT NULL") == 1)
            r = try await client.execute(uri: "\(Self.hooks)/\(id + 1)", method: .delete, headers: admin)
            expectAPIError(r, .notFound, "not_found")
            r = try await client.get("\(Self.hooks)/x/deliveries", headers: admin)
            expectAPIError(r, .notFound, "not_found")
            r = try await client.get("\(Self.hooks)/\(id)/deliveries?limit=0", headers: admin)
            expectAPIError(r, .badRequest, "invalid_limit")
        }
    }

    @Test("refused: inward addresses, other schemes, credentials, unknown events, strangers; each names its rule")
    func refusals() async throws {
        try await withApp { client, _ in
            for (url, code) in [
                ("http://127.0.0.1:8080/", "webhook_private_address"), ("http://10.1.2.3/", "webhook_private_address"),
                ("http://169.254.169.254/latest/meta-data", "webhook_private_address"),
                ("http://[::1]/", "webhook_private_address"), ("http://localhost/", "webhook_private_address"),
                ("http://[fec0::1]/", "webhook_private_address"), ("http://2130706433/", "webhook_private_address"),
                ("ftp://93.184.216.34/", "webhook_url_scheme"),
                ("https://u:p@93.184.216.34/", "webhook_url_credentials"), ("https://", "invalid_url"),
            ] {
                let body = try jsonString(["url": url, "events": ["deck.decided"]])
                expectAPIError(try await client.postJSON(Self.hooks, body, headers: admin), .badRequest, code)
            }
            for events in [[], ["deck.done"]] {
                let body = try jsonString(["url": "https://93.184.216.34/", "events": events])
                expectAPIError(
                    try await client.postJSON(Self.hooks, body, headers: admin), .badRequest, "invalid_events")
            }
            let body = #"{"url":"https://93.184.216.34/","events":["deck.decided"]}"#
            expectAPIError(try await client.postJSON(Self.hooks, body), .unauthorized, "unauthorized")
            expectAPIError(try await client.get(Self.hooks), .unauthorized, "unauthorized")
            for _ in 0..<WebhooksController.maxPerDeck {
                #expect(try await client.postJSON(Self.hooks, body, headers: admin).status == .created)
            }
            expectAPIError(
                try await client.postJSON(Self.hooks, body, headers: admin), .badRequest, "too_many_webhooks")
        }
    }

    @Test(
        "with --webhook-allow-private a loopback target is taken; swipes reach it in swipe.created deliveries (each swipe once), tried and logged"
    )
    func swipesCreated() async throws {
        let metricsToken = "webhook-metrics-0123456789"
        try await withApp({
            $0.webhookAllowPrivate = true
            $0.metricsToken = metricsToken
        }) { client, env in
            let cards = try await client.cardIds("getaways")
            // Port 9 (discard) on loopback: nothing listens, so every attempt is refused and retried.
            var r = try await client.postJSON(
                Self.hooks, #"{"url":"http://127.0.0.1:9/in","events":["swipe.created"]}"#, headers: admin)
            #expect(r.status == .created, "\(r.text)")
            let id = try #require(try r.json()["id"].int)
            for (i, card) in cards.prefix(3).enumerated() {
                r = try await client.swipe(
                    "getaways", card: card, direction: i == 1 ? "left" : "right",
                    trace: i == 1 ? leftDrag() : rightDrag(),
                    key: "sw-\(i)")
                #expect(r.status == .created, "\(r.text)")
            }
            // The relay posts off the swipe's path; the dispatcher attempts the first delivery at
            // once (the test clock stands still, so a later one, due a second after, waits).
            func batches() async throws -> [SwipesCreated.Item] {
                try await env.rows("SELECT data FROM webhookDeliveries WHERE hookId = ? ORDER BY dueAt", [Int64(id)])
                    .compactMap { $0["data"] as String? }
                    .flatMap { try JSONDecoder().decode(SwipesCreated.self, from: Data($0.utf8)).swipes }
            }
            var log = JSONValue.null
            for _ in 0..<100 {
                log = try await client.get("\(Self.hooks)/\(id)/deliveries", headers: admin).json()["deliveries"]
                if try await batches().count == 3, log.array.contains(where: { $0["attempts"].int == 1 }) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            let swipes = try await batches()
            #expect(swipes.map(\.id) == ["sw-0", "sw-1", "sw-2"], "each swipe once, in order")
            #expect(swipes.map(\.direction) == ["right", "left", "right"])
            let shown = try await identity("alice", in: "getaways", env)
            #expect(swipes.allSatisfy { $0.participant == shown })
            #expect(log.array.allSatisfy { $0["event"].string == "swipe.created" && $0["status"].string == "pending" })
            let tried = try #require(log.array.first { $0["attempts"].int == 1 }, "\(log)")
            #expect(tried["lastStatus"].isNull)
            #expect(!(tried["lastError"].string ?? "").isEmpty, "\(tried)")
            #expect((tried["nextAttemptAt"].double ?? 0) > fixedTime)
            // Deliveries to one hook are due a second apart at least.
            let due = try await env.rows("SELECT dueAt FROM webhookDeliveries ORDER BY dueAt").compactMap {
                $0["dueAt"] as Double?
            }
            #expect(zip(due, due.dropFirst()).allSatisfy { $1 - $0 >= 1 }, "\(due)")
            // The failed attempts are counted; nothing was sent.
            let metrics = try await client.get("/metrics", headers: [.authorization: "Bearer \(metricsToken)"]).text
            func value(_ name: String) -> Double? {
                metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap {
                    Double($0.split(separator: " ")[1])
                }
            }
            #expect((value("swipedeck_webhook_attempts_failed_total") ?? 0) >= 1, "\(metrics)")
            #expect(value("swipedeck_webhook_deliveries_sent_total") == 0)
        }
    }

    @Test("a deck's stop rule reaches its hooks: a delivery per card decided, then one for the deck, each once")
    func decidedReachHooks() async throws {
        try await withApp({ $0.webhookAllowPrivate = true }) { client, env in
            let cards = try await client.cardIds("getaways")
            let r = try await client.postJSON(
                Self.hooks, #"{"url":"http://127.0.0.1:9/in","events":["card.decided","deck.decided"]}"#,
                headers: admin)
            #expect(r.status == .created, "\(r.text)")
            // Settled at one vote: each like decides its card; the last one decides the deck. One
            // person per card, so no burst of one person's swipes goes uncounted (`HumanPace`).
            let rule = try await client.patchDeck("getaways", #"{"stopRule":{"kind":"votes","votes":1}}"#)
            #expect(rule.status == .ok, "\(rule.text)")
            for (i, card) in cards.enumerated() { try await DecideApiTests.like(client, "getaways", card, by: "p\(i)") }
            // Once more for a card already decided: no second delivery.
            try await DecideApiTests.like(client, "getaways", cards[0], by: "bob")
            func events() async throws -> [String] {
                try await env.rows("SELECT event FROM webhookDeliveries ORDER BY createdAt, id").compactMap {
                    $0["event"] as String?
                }
            }
            var seen: [String] = []
            for _ in 0..<100 {
                seen = try await events()
                if seen.count >= cards.count + 1 { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(seen.filter { $0 == "card.decided" }.count == cards.count, "\(seen)")
            #expect(seen.filter { $0 == "deck.decided" }.count == 1, "\(seen)")
        }
    }

    @Test("the owner's page: add (URL and events), the secret once, problems next to their field, the log, disable")
    func ownerPage() async throws {
        try await withApp { client, env in
            let me = try await OwnerAuthTests.signIn(client, "olive", adding: env)
            var r = try await client.get("/owner/decks/getaways", headers: me)
            #expect(r.text.contains(#"href="/owner/decks/getaways/webhooks""#))
            r = try await client.get("/owner/decks/getaways/webhooks", headers: me)
            #expect(r.status == .ok)
            let csrf = OwnerAuthTests.csrf(r.text)
            r = try await client.postForm(
                "/owner/decks/getaways/webhooks", "csrf=\(csrf)&url=http%3A%2F%2F10.0.0.5%2Fin&events=deck.decided",
                headers: me)
            #expect(r.status == .badRequest)
            #expect(
                r.text.contains(#"<p class="field-error" id="url-error">10.0.0.5 is a private address"#), "\(r.text)")
            #expect(r.text.contains(#"value="http://10.0.0.5/in""#))
            #expect(r.text.contains(#"value="deck.decided" checked"#))
            r = try await client.postForm(
                "/owner/decks/getaways/webhooks", "csrf=\(csrf)&url=https%3A%2F%2F93.184.216.34%2Fin", headers: me)
            #expect(r.status == .badRequest)
            #expect(r.text.contains(#"<p class="field-error" id="events-error">Choose at least one event."#))
            r = try await client.postForm(
                "/owner/decks/getaways/webhooks",
                "csrf=\(csrf)&url=https%3A%2F%2F93.184.216.34%2Fin&events=deck.decided&events=card.decided", headers: me
            )
            #expect(r.status == .seeOther)
            let flash = String((r.headers[.setCookie] ?? "").prefix { $0 != ";" })
            #expect(flash.hasPrefix("sd_webhook_secret="))
            let withFlash = merged(me, [.cookie: flash])
            r = try await client.get("/owner/decks/getaways/webhooks", headers: withFlash)
            let stored = try #require(try await env.row("SELECT secret FROM webhooks")?["secret"] as String?)
            let secret = try testSecretKey.reveal(stored, for: .webhook)
            #expect(r.text.contains(secret))
            #expect(r.text.contains("https://93.184.216.34/in") && r.text.contains("card.decided, deck.decided"))
            // Once: the same cookie again shows it no more.
            r = try await client.get("/owner/decks/getaways/webhooks", headers: withFlash)
            #expect(!r.text.contains(secret))
            #expect(r.text.contains("No deliveries yet."))
            let id = try #require(try await env.row("SELECT id FROM webhooks")?["id"] as Int64?)
            r = try await client.postForm("/owner/decks/getaways/webhooks/\(id)/disable", "csrf=\(csrf)", headers: me)
            #expect(r.status == .seeOther)
            r = try await client.get("/owner/decks/getaways/webhooks", headers: me)
            #expect(r.text.contains("Disabled"))
            // Another owner's deck: not theirs.
            let other = try await OwnerAuthTests.signIn(client, "otto", adding: env)
            r = try await client.get("/owner/decks/getaways/webhooks", headers: other)
            #expect(r.status == .forbidden)
        }
    }
}
