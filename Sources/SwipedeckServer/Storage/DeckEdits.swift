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

    public init() {}

    /// The current generation, to keep with what is read after it.
    public var generation: Int { state.withLock { $0.generation } }

    /// Records an edit of `deckId`. Call it after the commit.
    public func mark(_ deckId: Int64) {
        state.withLock { s in
            s.generation += 1
            s.edited[deckId] = s.generation
        }
    }

    /// Records that any deck may have been edited.
    public func markAll() {
        state.withLock { s in
            s.generation += 1
            s.all = s.generation
        }
    }

    /// Whether `deckId` was (or may have been) edited after `generation`.
    public func isStale(_ deckId: Int64, since generation: Int) -> Bool {
        state.withLock { s in s.all > generation || s.edited[deckId, default: 0] > generation }
    }
}
