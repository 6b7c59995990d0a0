import Synchronization

/// Which decks changed since someone last asked: the storage layer marks a deck after every
/// committed write that can change its results (swipes, rejections, undo, flip, exclusions, deck
/// and card edits); `LiveResults` takes the mark once per tick per watched deck.
///
/// Marking is one uncontended lock and a set insert, so it is cheap enough for the swipe hot path
/// (the group-commit writer marks once per deck per batch). Marks of decks nobody watches stay
/// in the set (at most one entry per deck) until somebody watches them.
public final class DeckChanges: Sendable {
    private let changed = Mutex<Set<Int64>>([])

    public init() {}

    /// Records that the deck's results may have changed. Call it after the commit.
    public func mark(_ deckId: Int64) {
        _ = changed.withLock { $0.insert(deckId) }
    }

    /// Records changes to several decks at once (one lock for a whole group commit).
    public func mark<Decks: Sequence>(_ deckIds: Decks) where Decks.Element == Int64 {
        changed.withLock { $0.formUnion(deckIds) }
    }

    /// Whether the deck changed since the last call for it; clears its mark.
    public func take(_ deckId: Int64) -> Bool {
        changed.withLock { $0.remove(deckId) != nil }
    }
}
