/// The trust class of a stored swipe, for results: each live swipe is in exactly one class, so
/// the counts by kind add up to the total.
public enum SwipeKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A trace that passed validation and looks human (input `drag`, or `api` with a trace).
    case drag
    /// A trace that passed validation but looks machine-made.
    case suspectDrag
    /// A button or key press at a human pace.
    case button
    /// A button or key press faster than a person can act (any suspect swipe without a trace).
    case suspectButton
    /// An API swipe without a trace.
    case api

    /// The class of a swipe from its stored columns.
    public static func of(input: SwipeInput, hasTrace: Bool, suspect: Bool) -> SwipeKind {
        if hasTrace { return suspect ? .suspectDrag : .drag }
        if suspect { return .suspectButton }
        if input == .button || input == .key { return .button }
        return .api
    }

    /// The ranking setting this class answers to; nil for suspect classes (never counted).
    public var countedAs: CountedInput? {
        switch self {
        case .drag: return .drag
        case .button: return .button
        case .api: return .api
        case .suspectDrag, .suspectButton: return nil
        }
    }
}
