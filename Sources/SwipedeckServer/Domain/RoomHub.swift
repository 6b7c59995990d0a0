import Foundation
import Logging
import Synchronization

/// One per server: evaluates rooms after decisions in group commits, and pushes each followed
/// room's new events to its open streams.
///
/// Evaluating: a decision (swipe, undo, flip) or a join/leave asks `evaluate`, which marks the
/// decider (deck, participant) or the room (a lock and a set insert) and waits for the batch that
/// covers it. ONE task evaluates everything marked in ONE write transaction
/// (`RoomStore.evaluateRooms`); what is marked while a batch runs goes into the next, as in
/// `SwipeWriter`. So a burst of N decisions costs far fewer than N transactions, and a match is
/// stored before the decision's caller answers.
///
/// Following: each followed room has one task reading its new events by id (`roomEvents`) and
/// handing them to all its streams. It reads at once when a batch of this server stored events
/// for the room, when another server's notification names the room (`DeckChanges.roomsChanged`,
/// PostgreSQL), and, as a fallback, every `interval`; a quiet interval hands the streams an empty
/// list (their heartbeat and expiry tick). The task ends with the room's last stream.
public final class RoomHub: Sendable {
    private struct Pending {
        var roomIds: Set<Int64> = []
        var deciders: Set<RoomDecider> = []
        var now: Double = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var running = false
    }

    private struct Follower {
        var streams: [Int: AsyncStream<[RoomEvent]>.Continuation] = [:]
        /// Events up to this id were handed to every stream following then.
        var cursor: Int64
        var wake: AsyncStream<Signal>.Continuation
        var task: Task<Void, Never>?
    }

    private enum Signal {
        case wake, tick
    }

    private let store: any Store
    /// Where matches are posted (`room.matched`), after the commit that made them.
    private let notices: any DeckNoticeSink
    private let logger: Logger
    /// Time between two fallback reads of a followed room (`AppConfiguration.liveInterval`, default 1 s).
    let interval: Duration
    /// Events read at most per look at a room (more are read at once, in pages of this size).
    static let pageSize = 200
    private let pending = Mutex(Pending())
    private let followers = Mutex<[Int64: Follower]>([:])
    private let nextStream = Atomic<Int>(0)
    private let batchCount = Atomic<Int>(0)

    /// Evaluation transactions so far (the tests check that decisions share them).
    public var batches: Int { batchCount.load(ordering: .relaxed) }

    /// Rooms followed now (the tests check that a room's last stream ends its reader).
    public var followedRooms: Int { followers.withLock { $0.count } }

    public init(
        store: any Store, notices: any DeckNoticeSink, interval: Duration = .seconds(1),
        logger: Logger = Logger(label: "swipedeck.rooms")
    ) {
        self.store = store
        self.notices = notices
        self.interval = interval
        self.logger = logger
        store.changes.listenForRooms { [weak self] rooms in self?.wake(rooms) }
    }

    // MARK: - Evaluating

    /// Evaluates the rooms `roomIds` and the open rooms of `decider`, in the next group commit;
    /// returns once it committed and its matches were posted. A failure is the rooms', not the
    /// caller's: it is logged, and the next decision evaluates again.
    public func evaluate(roomIds: Set<Int64> = [], decider: RoomDecider? = nil, now: Double) async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let start = pending.withLock { p -> Bool in
                p.roomIds.formUnion(roomIds)
                if let decider { p.deciders.insert(decider) }
                p.now = max(p.now, now)
                p.waiters.append(waiter)
                if p.running { return false }
                p.running = true
                return true
            }
            if start { Task { await self.drain() } }
        }
    }

    private func drain() async {
        while true {
            let batch = pending.withLock { p -> Pending? in
                if p.waiters.isEmpty {
                    p.running = false
                    return nil
                }
                let batch = p
                p = Pending()
                p.running = true
                return batch
            }
            guard let batch else { return }
            do {
                let evaluated = try await store.evaluateRooms(
                    roomIds: batch.roomIds, deciders: batch.deciders, now: batch.now)
                batchCount.add(1, ordering: .relaxed)
                wake(evaluated.filter { !$0.events.isEmpty || batch.roomIds.contains($0.room.id) }.map(\.room.id))
                for e in evaluated { try await post(e.events, room: e.room, now: batch.now) }
            } catch {
                logger.error("rooms not evaluated", metadata: ["rooms": "\(batch.roomIds.count)", "error": "\(error)"])
            }
            for waiter in batch.waiters { waiter.resume() }
        }
    }

    /// Posts a `room.matched` notice for each match among `events`.
    func post(_ events: [RoomEvent], room: Room, now: Double) async throws {
        let matches = events.filter { $0.kind == .match }
        if matches.isEmpty { return }
        var notices: [DeckNotice] = []
        for event in matches {
            guard let stored = try? JSONDecoder().decode(RoomService.StoredMatch.self, from: Data(event.data.utf8))
            else {
                continue  // Written by `RoomEvaluation` a moment ago: always decodes.
            }
            notices.append(
                try DeckNotice(
                    kind: .roomMatched, deckId: room.deckId, at: now,
                    payload: RoomService.MatchNotice(room: room.code, card: stored.card, likes: stored.likedBy.count)))
        }
        await self.notices.post(notices)
    }

    // MARK: - Following

    /// The room's new events for one stream, in order, in lists (an empty list each quiet
    /// `interval`), until the caller stops iterating; and the id after which they start: `after`
    /// for a room nobody followed, else the room reader's cursor (the caller reads the events
    /// between `after` and it itself, once, before iterating).
    public func follow(roomId: Int64, after: Int64) -> (events: AsyncStream<[RoomEvent]>, from: Int64) {
        let (stream, continuation) = AsyncStream.makeStream(of: [RoomEvent].self)
        let id = nextStream.add(1, ordering: .relaxed).newValue
        continuation.onTermination = { [weak self] _ in self?.unfollow(roomId: roomId, stream: id) }
        let from = followers.withLock { f -> Int64 in
            if var follower = f[roomId] {
                follower.streams[id] = continuation
                f[roomId] = follower
                return follower.cursor
            }
            let (signals, wake) = AsyncStream.makeStream(of: Signal.self, bufferingPolicy: .bufferingNewest(1))
            var follower = Follower(cursor: after, wake: wake)
            follower.streams[id] = continuation
            follower.task = Task { [weak self] in await self?.run(roomId: roomId, signals: signals) }
            f[roomId] = follower
            return after
        }
        return (stream, from)
    }

    private func unfollow(roomId: Int64, stream: Int) {
        followers.withLock { f in
            f[roomId]?.streams[stream] = nil
            if f[roomId]?.streams.isEmpty == true {
                f[roomId]?.task?.cancel()
                f[roomId]?.wake.finish()
                f[roomId] = nil
            }
        }
    }

    /// Wakes the readers of these rooms (nil: of every followed room) to read their new events now.
    func wake(_ roomIds: [Int64]?) {
        let wakes = followers.withLock { f -> [AsyncStream<Signal>.Continuation] in
            guard let roomIds else { return f.values.map(\.wake) }
            return roomIds.compactMap { f[$0]?.wake }
        }
        for wake in wakes { wake.yield(.wake) }
    }

    private func run(roomId: Int64, signals: AsyncStream<Signal>) async {
        let ticker = Task { [weak self, interval] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)  // Cancelled: the loop's condition ends the ticks.
                self?.followers.withLock { $0[roomId]?.wake }?.yield(.tick)
            }
        }
        defer { ticker.cancel() }
        for await signal in signals {
            guard let after = followers.withLock({ $0[roomId]?.cursor }) else { return }
            var events: [RoomEvent] = []
            do {
                while true {
                    let page = try await store.roomEvents(
                        roomId: roomId, after: events.last?.id ?? after, limit: Self.pageSize)
                    events += page
                    if page.count < Self.pageSize { break }
                }
            } catch {
                // The streams keep what they have; the next signal reads again from the same cursor.
                logger.error("room events not read", metadata: ["room": "\(roomId)", "error": "\(error)"])
                continue
            }
            if events.isEmpty && signal == .wake { continue }
            let streams = followers.withLock { f -> [AsyncStream<[RoomEvent]>.Continuation] in
                if let last = events.last { f[roomId]?.cursor = last.id }
                return Array(f[roomId]?.streams.values ?? [:].values)
            }
            for stream in streams { stream.yield(events) }
        }
    }
}
