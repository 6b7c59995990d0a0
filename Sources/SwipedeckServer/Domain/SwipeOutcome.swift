/// What happened to a submitted swipe inside its transaction.
public enum SwipeOutcome: Sendable, Equatable {
    /// Inserted now (HTTP 201).
    case created(Swipe)
    /// The same request was seen before under this key: the stored swipe (HTTP 201, replayed).
    case replayed(Swipe)
    /// Refused by a storage rule (already swiped, key reused for another request).
    case refused(StoreError)
}
