import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization

/// Sends the outbox's deliveries (`WebhookStore`): a service of the app that claims due
/// deliveries, signs and posts each to its hook's URL with AsyncHTTPClient, and records how it
/// went — a 2xx delivers it; anything else (another status, a timeout, a refused connection, an
/// address the target guard refuses) is tried again by `WebhookBackoff` until it gives up.
///
/// Claims are leases (`lease` seconds, longer than an attempt can last), so with several
/// servers each attempt is made by one of them, and a server that stops while sending leaves
/// its deliveries to whoever claims them after the lease: a delivery is sent at least once, and
/// its id lets a receiver drop a repeat.
public final class WebhookDispatcher: Service, Sendable {
    /// Seconds between two `swipe.created` deliveries to one hook (the issue's "at most one a
    /// second"); swipes stored in between join the waiting delivery.
    public static let swipeBatchInterval: Double = 1
    /// Seconds a claim holds a delivery: above the 10 s an attempt may last (`totalTimeout`),
    /// with room for a slow database; a server that died mid-send delays it this long at most.
    public static let lease: Double = 30
    /// Deliveries claimed (and sent concurrently) at a time. Default 16: a few slow targets do
    /// not hold up the rest for long, and one server never holds many leases idle.
    public static let claimBatch = 16
    /// Seconds to connect to a target before the attempt fails. Default 5 (the issue's).
    public static let connectTimeout: Int64 = 5
    /// Seconds an attempt may last in all (connect, send, the answer's head and body). Default 10.
    public static let totalTimeout: Int64 = 10
    /// Most bytes of an answer's body read (and dropped): receivers are asked for a status only.
    static let maxAnswerBytes = 64 * 1024

    /// A new delivery id: `dlv_` and 128 random bits in hex.
    static func newDeliveryId() -> String { "dlv_" + String(Secret.token().prefix(32)) }

    let store: any WebhookStore
    let clock: @Sendable () -> Double
    let resolver: any HostResolver
    let allowPrivate: Bool
    let backoff: WebhookBackoff
    let metrics: WebhookMetrics
    let relay: SwipeNotices
    /// Reveals each hook's signing secret from what the database stores (`SecretKey`).
    let secretKey: SecretKey
    let logger: Logger
    /// How long the loop waits for work when nothing is due (other servers' deliveries and
    /// retries come due without a wake-up).
    let pollInterval: Duration
    /// How long one attempt may last, start to end: a target that answers its head and then
    /// trickles the body is cut off here (`totalTimeout`; shorter in tests).
    let attemptDeadline: Duration
    private let wakeUps = WakeSignal()

    public init(
        store: any WebhookStore, clock: @escaping @Sendable () -> Double, resolver: any HostResolver = SystemResolver(),
        allowPrivate: Bool, backoff: WebhookBackoff = WebhookBackoff(), metrics: WebhookMetrics, relay: SwipeNotices,
        secretKey: SecretKey, logger: Logger, pollInterval: Duration = .seconds(1),
        attemptDeadline: Duration = .seconds(totalTimeout)
    ) {
        self.store = store
        self.clock = clock
        self.resolver = resolver
        self.allowPrivate = allowPrivate
        self.backoff = backoff
        self.metrics = metrics
        self.relay = relay
        self.secretKey = secretKey
        self.logger = logger
        self.pollInterval = pollInterval
        self.attemptDeadline = attemptDeadline
    }

    /// Asks the loop to look for due deliveries now (the outbox stored some).
    public func wake() { wakeUps.signal() }

    /// The HTTP client deliveries are sent with: no redirects, `connectTimeout`, and reads and
    /// writes within `totalTimeout`. Made by `run` and shut down when it ends (a client that
    /// is never shut down is a fault AsyncHTTPClient traps on in debug builds).
    static func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(
            connect: .seconds(Self.connectTimeout), read: .seconds(Self.totalTimeout),
            write: .seconds(Self.totalTimeout))
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    public func run() async throws {
        let client = Self.makeClient()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.relay.run() }
                group.addTask { await self.loop(client) }
            }
        }
        try await client.shutdown()
    }

    /// What ended a wait of the loop: an attempt, or a wake-up (or `pollInterval` without one).
    private enum LoopEvent: Sendable {
        case attempted
        case tick
    }

    /// Claims and sends until cancelled. Up to `claimBatch` attempts run at once, each on its own:
    /// as one ends the loop claims again, so a slow target holds its own attempt (for at most
    /// `attemptDeadline`) and never the deliveries of others behind it. With nothing due it waits
    /// `pollInterval` or a wake-up.
    private func loop(_ client: HTTPClient) async {
        let token = Secret.token(prefix: "lease_")
        await withTaskGroup(of: LoopEvent.self) { group in
            var inFlight = 0
            var ticking = false
            while !Task.isCancelled {
                let free = Self.claimBatch - inFlight
                let claimed = free > 0 ? await claim(limit: free, token: token) : []
                for delivery in claimed {
                    group.addTask {
                        await self.attempt(delivery, client, token: token)
                        return .attempted
                    }
                }
                inFlight += claimed.count
                if !ticking {
                    ticking = true
                    group.addTask {
                        await self.wakeUps.wait(upTo: self.pollInterval)
                        return .tick
                    }
                }
                switch await group.next() {
                case .attempted: inFlight -= 1
                case .tick: ticking = false
                case nil: return
                }
            }
            group.cancelAll()
        }
    }

    /// Up to `limit` due deliveries, leased under `token`; none when the claim failed (logged).
    func claim(limit: Int, token: String) async -> [ClaimedDelivery] {
        do {
            return try await store.claimDeliveries(now: clock(), lease: Self.lease, limit: limit, token: token)
        } catch {
            logger.error("webhook deliveries not claimed", metadata: ["error": "\(String(reflecting: error))"])
            return []
        }
    }

    /// Sends one claimed delivery and records the outcome; an attempt cut short by cancellation
    /// (shutdown) records nothing and is left to its lease.
    func attempt(_ claimed: ClaimedDelivery, _ client: HTTPClient, token: String) async {
        let delivery = claimed.delivery
        let outcome: DeliveryAttempt
        let sent = await send(claimed, client)
        // Shutting down: the attempt was cut short by us, not the target, so it is neither
        // recorded nor counted; the lease runs out and the delivery is claimed again later.
        if Task.isCancelled { return }
        switch sent {
        case .success(let status):
            outcome = .delivered(status: status)
            metrics.sent.increment()
        case .failure(let failure):
            let now = clock()
            let retryAt = backoff.retryAt(
                afterAttempts: delivery.attempts + 1, now: now, createdAt: delivery.createdAt,
                jitter: Double.random(in: 0...1))
            outcome = .failed(status: failure.status, error: failure.reason, retryAt: retryAt)
            metrics.attemptsFailed.increment()
            if retryAt == nil { metrics.failed.increment() }
        }
        do {
            try await store.recordAttempt(deliveryId: delivery.id, token: token, outcome, now: clock())
        } catch {
            logger.error(
                "webhook attempt not recorded",
                metadata: ["delivery": "\(delivery.id)", "error": "\(String(reflecting: error))"])
        }
    }

    /// Why an attempt failed: the status when the target answered, and a sentence.
    struct Failure: Error {
        let status: Int?
        let reason: String
    }

    /// Posts the delivery, signed, to its hook's URL (checked again first).
    func send(_ claimed: ClaimedDelivery, _ client: HTTPClient) async -> Result<Int, Failure> {
        let target: WebhookTarget
        let addresses: [IPAddress]
        do {
            target = try WebhookTarget(parsing: claimed.url)
            addresses = try await target.check(resolver: resolver, allowPrivate: allowPrivate)
        } catch {
            return .failure(Failure(status: nil, reason: error.message))
        }
        let secret: String
        do {
            secret = try secretKey.reveal(claimed.secret, for: .webhook)
        } catch {
            return .failure(
                Failure(status: nil, reason: "The hook's secret cannot be read with this server's secret key."))
        }
        let body = WebhookBody.encode(claimed.delivery, deckSlug: claimed.deckSlug)
        let timestamp = Int64(clock().rounded(.down))
        let (url, hostHeader) = target.pinned(to: addresses[0])
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Swipedeck-Webhooks/1")
        if let hostHeader { request.headers.replaceOrAdd(name: "Host", value: hostHeader) }
        request.headers.add(name: "X-Swipedeck-Event", value: claimed.delivery.event.rawValue)
        request.headers.add(name: "X-Swipedeck-Delivery", value: claimed.delivery.id)
        request.headers.add(name: "X-Swipedeck-Timestamp", value: String(timestamp))
        request.headers.add(
            name: "X-Swipedeck-Signature",
            value: WebhookSignature.header(secret: secret, timestamp: timestamp, body: body))
        request.body = .bytes(ByteBuffer(bytes: body))
        let started = ContinuousClock.now
        let (logger, signed) = (logger, request)
        let answered = await Self.within(attemptDeadline) { () -> Result<HTTPClientResponse, Failure> in
            do {
                return .success(try await client.execute(signed, timeout: .seconds(Self.totalTimeout), logger: logger))
            } catch {
                return .failure(Failure(status: nil, reason: Self.words(error)))
            }
        }
        switch answered {
        case nil:
            return .failure(Failure(status: nil, reason: "No answer within \(attemptDeadline.components.seconds) s."))
        case .failure(let failure):
            return .failure(failure)
        case .success(let response):
            // The body is not needed (the status decides): what arrives by the attempt's deadline is
            // read and dropped; one too long, cut short or still trickling in changes nothing.
            _ = await Self.within(attemptDeadline - (ContinuousClock.now - started)) {
                // Its end, whatever it is, is not the outcome (see above).
                _ = try? await response.body.collect(upTo: Self.maxAnswerBytes)
            }
            let status = Int(response.status.code)
            guard (200...299).contains(status) else {
                return .failure(Failure(status: status, reason: "The target answered HTTP \(status / 100)xx."))
            }
            return .success(status)
        }
    }

    /// `operation`'s result, or nil once `deadline` has passed; the operation is then cancelled and
    /// awaited (AsyncHTTPClient ends a cancelled request at once).
    static func within<T: Sendable>(_ deadline: Duration, _ operation: @escaping @Sendable () async -> T) async -> T? {
        await withTaskGroup(of: T?.self) { group in
            group.addTask { await operation() }
            group.addTask {
                // Cancelled (it throws) once the operation ended first: nothing to report then.
                try? await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            return await group.next() ?? nil
        }
    }

    /// A sending error as a coarse reason for the delivery log: timed out, TLS failed, or the
    /// connection failed — never the system's error text, which would make the log an oracle
    /// for probing the server's network (refused vs. unreachable, names, addresses).
    static func words(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout: return "No answer within \(totalTimeout) s."
            case .connectTimeout: return "No connection within \(connectTimeout) s."
            default: break
            }
        }
        // NIOSSL's error types, named by type so this file needs no TLS import.
        if String(reflecting: type(of: error)).contains("SSL") { return "TLS failed." }
        return "The connection failed."
    }
}

/// A wake-up for one waiting loop: `signal` ends the current (or the next) `wait` early.
final class WakeSignal: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func signal() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            guard let waiter = s.waiter else {
                s.pending = true
                return nil
            }
            s.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at a signal (one sent since the last wait counts) or after `duration`.
    func wait(upTo duration: Duration) async {
        let timer = Task {
            // Cancelled (it throws) once the wait ended otherwise: then no signal is left behind.
            guard (try? await Task.sleep(for: duration)) != nil else { return }
            self.signal()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.pending {
                    s.pending = false
                    return true
                }
                s.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
        timer.cancel()
    }
}
