import Logging
import Synchronization

/// What a deck's followers hear: its stage and, host-paced, the presenter's card.
public struct StageReading: Sendable {
    public var stage: DeckStage
    /// The card the presenter shows (host-paced; nil otherwise, or before the first card).
    public var card: Card?
}

/// One per server: the stage (`DeckStage`) of every deck a phone follows (`/d/{deck}/stage`),
/// read once for all of the deck's streams.
///
/// Each followed deck has one task that reads the deck and its presentation, works out the
/// stage at the clock's time and hands it to every stream of the deck: at once when the deck was
/// edited (`Store.edits`: a Reveal, a timer, Lock or Unlock, its settings, its rule closing it —
/// on this server, or on another through PostgreSQL's notification), and otherwise every
/// `interval`, which is how a reveal timer running out and a heartbeat reach the streams. So a thousand phones on one deck cost
/// one read per `interval`, not a thousand. The task ends with the deck's last stream.
public final class StageHub: Sendable {
    private struct Follower {
        var streams: [Int: AsyncStream<StageReading>.Continuation] = [:]
        var wake: AsyncStream<Void>.Continuation
        var task: Task<Void, Never>?
    }

    private let store: any Store
    private let clock: @Sendable () -> Double
    private let logger: Logger
    /// Time between two reads of a followed deck (`AppConfiguration.liveInterval`, default 1 s).
    let interval: Duration
    private let followers = Mutex<[Int64: Follower]>([:])
    private let nextStream = Atomic<Int>(0)

    public init(
        store: any Store, interval: Duration = .seconds(1), clock: @escaping @Sendable () -> Double,
        logger: Logger = Logger(label: "swipedeck.stage")
    ) {
        self.store = store
        self.interval = interval
        self.clock = clock
        self.logger = logger
        store.edits.listen { [weak self] deckId in self?.wake(deckId) }
    }

    /// The deck's stage for one stream, every `interval` and at once after an edit of the deck, until the
    /// caller stops iterating (the first comes with the deck's first read).
    public func follow(deckId: Int64, slug: String) -> AsyncStream<StageReading> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: StageReading.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextStream.add(1, ordering: .relaxed).newValue
        continuation.onTermination = { [weak self] _ in self?.unfollow(deckId: deckId, stream: id) }
        let wake = followers.withLock { f -> AsyncStream<Void>.Continuation in
            if var follower = f[deckId] {
                follower.streams[id] = continuation
                f[deckId] = follower
                return follower.wake
            }
            let (signals, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            var follower = Follower(wake: wake)
            follower.streams[id] = continuation
            follower.task = Task { [weak self] in await self?.run(deckId: deckId, slug: slug, signals: signals) }
            f[deckId] = follower
            return wake
        }
        // A stream joining a deck already followed hears the stage now, not at the next tick.
        wake.yield()
        return stream
    }

    /// Wakes the reader of the deck (nil: of every followed deck), told of an edit here or, through
    /// PostgreSQL's notification, on another server.
    private func wake(_ deckId: Int64?) {
        let wakes = followers.withLock { f in deckId.map { f[$0].map { [$0.wake] } ?? [] } ?? f.values.map(\.wake) }
        for wake in wakes { wake.yield() }
    }

    private func unfollow(deckId: Int64, stream: Int) {
        followers.withLock { f in
            f[deckId]?.streams[stream] = nil
            if f[deckId]?.streams.isEmpty == true {
                f[deckId]?.task?.cancel()
                f[deckId]?.wake.finish()
                f[deckId] = nil
            }
        }
    }

    private func run(deckId: Int64, slug: String, signals: AsyncStream<Void>) async {
        let ticker = Task { [weak self, interval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)  // Cancelled: the loop's condition ends the ticks.
                self?.followers.withLock { $0[deckId]?.wake }?.yield()
            }
        }
        defer { ticker.cancel() }
        for await _ in signals {
            let stage: StageReading
            do {
                guard let deck = try await store.deck(slug: slug) else { continue }
                let presentation = try await store.presentation(deckId: deckId)
                var steps = 0
                var card: Card?
                if let pacing = presentation?.pacing, pacing.hosted {
                    steps = try await store.cardIds(deckId: deckId).active.count
                    if let id = pacing.cardId { card = try await store.card(id: id) }
                }
                stage = StageReading(
                    stage: DeckStage.of(open: deck.isOpen, presentation: presentation, steps: steps, now: clock()),
                    card: card)
            } catch {
                // The streams keep the stage they have; the next tick reads again.
                logger.error("deck stage not read", metadata: ["deck": "\(slug)", "error": "\(error)"])
                continue
            }
            let streams = followers.withLock { Array($0[deckId]?.streams.values ?? [:].values) }
            for stream in streams { stream.yield(stage) }
        }
    }
}
