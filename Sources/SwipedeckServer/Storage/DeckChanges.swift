import Synchronization

/// Which decks changed since someone last asked: the storage layer marks a deck after every
/// committed write that can change its results (swipes, rejections, undo, flip, exclusions, deck
/// and card edits); `LiveResults` takes the mark once per tick per watched deck.
///
/// Marking is one uncontended lock and a set insert, so it is cheap enough for the swipe hot path
/// (the group-commit writer marks once per deck per batch). Marks of decks nobody watches stay
/// in the set (at most one entry per deck) until somebody watches them.
public final class DeckChanges: Sendable {
    private struct State {
        var changed: Set<Int64> = []
        /// Bumped by `markAll`; `seen` holds, per deck taken, the generation it was last taken in.
        var generation = 0
        var seen: [Int64: Int] = [:]
    }

    private let state = Mutex(State())
    /// Told of every marked deck (`listen`): `DeckDecisions` follows every results-changing write.
    private let deckListeners = Mutex<[@Sendable ([Int64]) -> Void]>([])
    /// Told of rooms whose events another server (or this one) stored (`RoomHub`); nil: maybe any room.
    private let roomListeners = Mutex<[@Sendable ([Int64]?) -> Void]>([])

    public init() {}

    /// Records that the deck's results may have changed. Call it after the commit.
    public func mark(_ deckId: Int64) {
        _ = state.withLock { $0.changed.insert(deckId) }
        tell([deckId])
    }

    /// Records changes to several decks at once (one lock for a whole group commit).
    public func mark<Decks: Sequence>(_ deckIds: Decks) where Decks.Element == Int64 {
        let ids = Array(deckIds)
        state.withLock { $0.changed.formUnion(ids) }
        tell(ids)
    }

    /// Calls `listener` with the decks of every later mark (a second consumer beside `take`: it
    /// steals no deck's mark). It runs on the marking thread, so it must only hand the ids on.
    public func listen(_ listener: @escaping @Sendable ([Int64]) -> Void) {
        deckListeners.withLock { $0.append(listener) }
    }

    private func tell(_ ids: [Int64]) {
        for listener in deckListeners.withLock({ $0 }) { listener(ids) }
    }

    /// Records that any deck may have changed (a PostgreSQL listener that reconnected may have
    /// missed notifications): the next `take` of every deck answers true.
    public func markAll() {
        state.withLock { $0.generation += 1 }
        for listener in roomListeners.withLock({ $0 }) { listener(nil) }
    }

    /// Calls `listener` with the rooms each `roomsChanged` names, and with nil on `markAll` (any
    /// room may have changed). A second consumer beside `take`: it steals no deck's mark.
    public func listenForRooms(_ listener: @escaping @Sendable ([Int64]?) -> Void) {
        roomListeners.withLock { $0.append(listener) }
    }

    /// Records that these rooms' events changed (a PostgreSQL notification): tells the room listeners.
    public func roomsChanged(_ roomIds: [Int64]) {
        for listener in roomListeners.withLock({ $0 }) { listener(roomIds) }
    }

    /// Whether the deck changed since the last call for it; clears its mark.
    public func take(_ deckId: Int64) -> Bool {
        state.withLock { s in
            let missed = s.seen[deckId, default: 0] != s.generation
            s.seen[deckId] = s.generation
            return s.changed.remove(deckId) != nil || missed
        }
    }
}
