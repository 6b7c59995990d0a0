/// The one place storage refusals (`StoreError`) become HTTP errors.
extension ApiError {
    /// The API error for a store refusal: the same rule, with its status, code and message.
    public init(_ error: StoreError) {
        switch error {
        case .notFound(let record): self = .notFound(record.rawValue)
        case .slugTaken: self = .slugTaken
        case .ownerNameTaken: self = .ownerNameTaken
        case .notYourSwipe: self = .notYourSwipe
        case .alreadyUndone: self = .alreadyUndone
        case .alreadySwiped: self = .alreadySwiped
        case .quotaReached(let quota): self = .quotaReached(quota)
        case .idempotencyMismatch: self = .idempotencyMismatch
        }
    }

    /// `error` as a client's error when it is one (an `ApiError`, or a `StoreError` mapped);
    /// nil for a fault of ours, which the caller rethrows.
    public static func of(_ error: any Error) -> ApiError? {
        if let e = error as? ApiError { return e }
        if let e = error as? StoreError { return ApiError(e) }
        return nil
    }
}
