import Foundation
import Logging
import Synchronization

/// The app's `DeckNoticeSink`: every notice posted is stored as deliveries for the hooks
/// subscribed to it (`WebhookStore.enqueue`, one transaction) before anything is sent; then the
/// local dispatcher is woken (other servers' dispatchers find the rows within their poll).
/// A failure to store is logged and never fails the write that caused the notice.
public struct WebhookOutbox: DeckNoticeSink {
    let store: any WebhookStore
    let clock: @Sendable () -> Double
    let dispatcher: WebhookDispatcher
    let logger: Logger

    public func post(_ notices: [DeckNotice]) async {
        if notices.isEmpty { return }
        do {
            if try await store.enqueue(notices, now: clock()) > 0 { dispatcher.wake() }
        } catch {
            logger.error(
                "webhook deliveries not stored",
                metadata: [
                    "kinds": "\(Set(notices.map(\.kind.rawValue)).sorted())", "error": "\(String(reflecting: error))",
                ])
        }
    }
}

/// Turns the swipes each group commit stored into `swipe.created` notices, for decks with a hook
/// subscribed to them only: the writer hands every commit's new swipes to `stored`, which keeps
/// those of hooked decks (a set looked up under one lock; nothing at all when no deck has such a
/// hook) and queues them; `run` posts them, one notice per deck and commit, off the writer's path.
///
/// The set of hooked decks is read from the store every `refreshInterval`, and before answering
/// a hook added or disabled here; a hook added on another server takes up to that long to see
/// swipes taken on this one.
public final class SwipeNotices: Sendable {
    /// Seconds between two reads of the hooked decks. Default 2: one small query per server.
    public static let refreshInterval: Duration = .seconds(2)
    /// Commits' swipe lists queued for posting at most; beyond it the oldest are dropped, with a
    /// warning (the swipes are stored; a receiver that needs every one reads the export). Default
    /// 4,096 commits, up to a million swipes: more than the outbox falls behind by unless its
    /// database is down.
    static let queueLimit = 4096

    private let hooked = Mutex<Set<Int64>>([])
    private let stream: AsyncStream<[Swipe]>
    private let queue: AsyncStream<[Swipe]>.Continuation
    let store: any WebhookStore
    let names: ParticipantNames
    let logger: Logger
    /// Where the notices go (the outbox); set once when the app is built.
    private let sink = Mutex<(any DeckNoticeSink)?>(nil)

    public init(store: any WebhookStore, names: ParticipantNames, logger: Logger) {
        self.store = store
        self.names = names
        self.logger = logger
        let (stream, queue) = AsyncStream.makeStream(
            of: [Swipe].self, bufferingPolicy: .bufferingNewest(Self.queueLimit))
        self.stream = stream
        self.queue = queue
    }

    /// Sets where the notices are posted (the outbox is built after the writer that feeds this).
    func connect(_ sink: any DeckNoticeSink) { self.sink.withLock { $0 = sink } }

    /// The swipes a group commit just stored (after its commit).
    public func stored(_ swipes: [Swipe]) {
        let kept = hooked.withLock { decks -> [Swipe] in
            decks.isEmpty ? [] : swipes.filter { decks.contains($0.deckId) }
        }
        if !kept.isEmpty, case .dropped(let lost) = queue.yield(kept) {
            logger.warning("swipe.created notices dropped: the queue is full", metadata: ["swipes": "\(lost.count)"])
        }
    }

    /// Reads the hooked decks again, returning once read (a hook was just added or disabled here:
    /// the next swipe already counts).
    public func refresh() async { await reloadHookedDecks() }

    /// Refreshes the hooked decks and posts queued swipes until cancelled.
    func run() async {
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    await self.reloadHookedDecks()
                    // Cancellation ends the sleep early; the loop's condition then ends the task.
                    try? await Task.sleep(for: Self.refreshInterval)
                }
            }
            // Iterating ends when the task is cancelled (an AsyncStream ends with its consumer).
            group.addTask {
                for await swipes in self.stream {
                    await self.post(swipes)
                }
            }
        }
    }

    func reloadHookedDecks() async {
        do {
            let decks = try await store.hookedDecks(for: .swipeCreated)
            hooked.withLock { $0 = decks }
        } catch {
            logger.error("hooked decks not read", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// One `swipe.created` notice per deck of `swipes`.
    func post(_ swipes: [Swipe]) async {
        guard let sink = sink.withLock({ $0 }) else { return }
        var notices: [DeckNotice] = []
        for (deckId, group) in Dictionary(grouping: swipes, by: \.deckId).sorted(by: { $0.key < $1.key }) {
            let data = SwipesCreated(
                swipes: group.map {
                    SwipesCreated.Item(
                        id: $0.id, card: $0.cardId, direction: $0.direction.rawValue,
                        participant: names.shown($0.participantId, deckId: deckId), at: $0.createdAt)
                })
            do {
                let at = group.map(\.createdAt).max() ?? 0
                notices.append(try DeckNotice(kind: .swipeCreated, deckId: deckId, at: at, payload: data))
            } catch {
                logger.error("swipe.created not encoded", metadata: ["error": "\(String(reflecting: error))"])
            }
        }
        await sink.post(notices)
    }
}
