import Foundation
import Logging
import Synchronization

/// Live results for `GET /api/v1/decks/{deck}/results/live`: one computation per watched deck
/// per `interval`, shared by everybody watching it, and only when something changed.
///
/// Every write that can change a deck's results marks the deck in `Store.changes` after
/// its commit (the swipe writer once per deck per group commit: a lock and a set insert). Each
/// watched deck has one task that, every `interval`, takes the deck's mark, recomputes the results
/// if it was set (or the deck has just been watched) and sends them to all its watchers as a
/// Server-Sent Event; otherwise every `heartbeatTicks` ticks it sends a comment so proxies keep
/// the connection open. A burst of swipes thus costs one computation per interval, however many
/// watch. The task ends with the deck's last watcher; a change to one deck never recomputes
/// another.
public final class LiveResults: Sendable {
    struct DeckState {
        var slug: String
        var watchers: [Int: AsyncStream<String>.Continuation] = [:]
        /// Set for a newly watched deck: its first tick computes whether or not anything changed.
        var dirty = true
        var lastEvent: String?
        var task: Task<Void, Never>?
    }

    private let store: any Store
    private let catalog: Catalog
    /// Where a failed computation is reported (the watchers keep the last results meanwhile).
    private let logger: Logger
    /// Time between two looks at a deck. Default 1 s: a swipe shows within a second.
    let interval: Duration
    /// Ticks between heartbeats when nothing changed. Default 15 (15 s).
    let heartbeatTicks: Int
    private let decks = Mutex<[Int64: DeckState]>([:])
    private let nextWatcher = Atomic<Int>(0)
    private let computationCount = Atomic<Int>(0)

    /// Results computed so far (all decks); the tests read it to check sharing and coalescing.
    public var computations: Int { computationCount.load(ordering: .relaxed) }

    public init(
        store: any Store, catalog: Catalog, interval: Duration = .seconds(1), heartbeatTicks: Int = 15,
        logger: Logger = Logger(label: "swipedeck.live")
    ) {
        self.store = store
        self.catalog = catalog
        self.logger = logger
        self.interval = interval
        self.heartbeatTicks = heartbeatTicks
    }

    /// Decks being watched now (the tests check that leaving watchers end their deck's task).
    public var watchedDecks: Int { decks.withLock { $0.count } }

    /// Streams open now, over every deck (the metrics' `swipedeck_live_streams_open`).
    public var openStreams: Int { decks.withLock { $0.values.reduce(0) { $0 + $1.watchers.count } } }

    /// The deck's events for one watcher: the latest results at once, then changes and heartbeats.
    public func events(deckId: Int64, slug: String) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(8))
        let watcher = nextWatcher.add(1, ordering: .relaxed).newValue
        continuation.onTermination = { [weak self] _ in self?.leave(deckId: deckId, watcher: watcher) }
        decks.withLock { states in
            var state = states[deckId] ?? DeckState(slug: slug)
            state.watchers[watcher] = continuation
            if let last = state.lastEvent { continuation.yield(last) }
            if state.task == nil {
                state.task = Task { [weak self] in await self?.run(deckId: deckId) }
            }
            states[deckId] = state
        }
        return stream
    }

    private func leave(deckId: Int64, watcher: Int) {
        decks.withLock { states in
            states[deckId]?.watchers[watcher] = nil
            if states[deckId]?.watchers.isEmpty == true {
                states[deckId]?.task?.cancel()
                states[deckId] = nil
            }
        }
    }

    private func run(deckId: Int64) async {
        var quietTicks = 0
        while !Task.isCancelled {
            let (first, slug) = decks.withLock { states -> (Bool, String?) in
                guard let state = states[deckId] else { return (false, nil) }
                states[deckId]?.dirty = false
                return (state.dirty, state.slug)
            }
            guard let slug else { return }
            // Taken before the computation reads: a commit after this point marks it again.
            let changed = store.changes.take(deckId)
            if first || changed {
                quietTicks = 0
                switch await compute(slug) {
                case .event(let event): send(event, to: deckId, remember: true)
                case .deckGone: break
                // Logged in `compute`; marked again, so the next tick retries (watchers keep the last results).
                case .failed: decks.withLock { $0[deckId]?.dirty = true }
                }
            } else {
                quietTicks += 1
                if quietTicks % heartbeatTicks == 0 { send(": ping\n\n", to: deckId, remember: false) }
            }
            // Cancelled only when the last watcher left: the loop then ends at its `while`.
            try? await Task.sleep(for: interval)
        }
    }

    /// What one computation of a deck's results gave.
    enum Computed {
        /// The results as one SSE event.
        case event(String)
        /// The deck is gone: nothing to send.
        case deckGone
        /// Reading failed (logged): the next tick tries again.
        case failed
    }

    private func compute(_ slug: String) async -> Computed {
        let report: ResultsReport
        do {
            report = try await store.resultsWithRooms(for: try await catalog.deck(slug))
        } catch ApiError.notFound {
            return .deckGone
        } catch {
            logger.error("live results not computed", metadata: ["deck": "\(slug)", "error": "\(error)"])
            return .failed
        }
        computationCount.add(1, ordering: .relaxed)
        // The responses' encoder: the event's data is byte for byte what GET …/results answers.
        let encoder = JSONCoding.shared
        let json: Data
        do {
            json = try encoder.encode(report)
        } catch {
            logger.error("live results not encoded", metadata: ["deck": "\(slug)", "error": "\(error)"])
            return .failed
        }
        return .event("event: results\ndata: " + String(decoding: json, as: UTF8.self) + "\n\n")
    }

    private func send(_ event: String, to deckId: Int64, remember: Bool) {
        let watchers = decks.withLock { states -> [AsyncStream<String>.Continuation] in
            if remember { states[deckId]?.lastEvent = event }
            return Array(states[deckId]?.watchers.values ?? [:].values)
        }
        for watcher in watchers { watcher.yield(event) }
    }
}
