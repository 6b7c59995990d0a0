import Synchronization

/// Which decks an owner edited (settings, access, cards, archive, order), so that every copy of a
/// deck kept in memory (`Catalog`) is read anew. The storage layer marks a deck after each
/// committed edit; PostgreSQL also marks it on every other server through the commit's
/// notification, and marks every deck when its listener reconnects (notifications sent while it
/// was away are lost).
///
/// A reader takes `generation` before it reads a deck and keeps it; `isStale(_:since:)` then says
/// whether an edit was marked since, so an edit that commits while a read is under way is not
/// lost either. Marking and asking are one uncontended lock each.
public final class DeckEdits: Sendable {
    private struct State {
        var generation = 0
        /// Per deck, the generation of its latest edit.
        var edited: [Int64: Int] = [:]
        /// The generation of the latest `markAll`.
        var all = 0
    }

    private let state = Mutex(State())
    /// Told of every later edit (`listen`): a deck id, or nil for any deck (`markAll`).
    private let listeners = Mutex<[@Sendable (Int64?) -> Void]>([])

    public init() {}

    /// Calls `listener` with the deck of every later edit, and with nil when any deck may have been
    /// edited (`StageHub`: the phones of a deck on a big screen hear a Lock or a Reveal at once). It
    /// runs on the marking thread, so it must only hand the id on.
    public func listen(_ listener: @escaping @Sendable (Int64?) -> Void) {
        listeners.withLock { $0.append(listener) }
    }

    private func tell(_ deckId: Int64?) {
        for listener in listeners.withLock({ $0 }) { listener(deckId) }
    }

    /// The current generation, to keep with what is read after it.
    public var generation: Int { state.withLock { $0.generation } }

    /// Records an edit of `deckId`. Call it after the commit.
    public func mark(_ deckId: Int64) {
        state.withLock { s in
            s.generation += 1
            s.edited[deckId] = s.generation
        }
        tell(deckId)
    }

    /// Records that any deck may have been edited.
    public func markAll() {
        state.withLock { s in
            s.generation += 1
            s.all = s.generation
        }
        tell(nil)
    }

    /// Whether `deckId` was (or may have been) edited after `generation`.
    public func isStale(_ deckId: Int64, since generation: Int) -> Bool {
        state.withLock { s in s.all > generation || s.edited[deckId, default: 0] > generation }
    }
}
