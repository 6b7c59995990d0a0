/// What the store refuses because of what its caller asked: a record that is not there, a name
/// that is taken, a swipe rule (`SwipeRule`). Storage knows nothing of HTTP; the HTTP layer maps
/// each case to a status and an error code (`ApiError.init(_: StoreError)`), the CLI to a
/// sentence. Failures that are nobody's request (`StorageError`) are not here.
public enum StoreError: Error, Sendable, Equatable {
    /// The kinds of stored record a `notFound` names.
    public enum Record: String, Sendable {
        case deck, card, swipe, owner, token, participant, setting, room
    }

    /// No such record (or, for a swipe's undo and flip, none of the caller's).
    case notFound(Record)
    /// A deck with this slug exists.
    case slugTaken
    /// An owner with this name exists.
    case ownerNameTaken
    /// Undoing or flipping somebody else's swipe.
    case notYourSwipe
    /// Flipping a swipe that was undone.
    case alreadyUndone
    /// Rule 7 of `SwipeRule`: the participant has a live swipe on the card.
    case alreadySwiped
    /// Rule 8 of `SwipeRule`: the participant has as many live swipes in the deck as its quota.
    case quotaReached(Int)
    /// Rule 6 of `SwipeRule`: the idempotency key was stored with another request.
    case idempotencyMismatch
}
