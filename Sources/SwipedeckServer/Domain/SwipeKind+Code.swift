extension SwipeKind {
    /// The kind's stored number (its place in `allCases`: drag 0, suspectDrag 1, button 2,
    /// suspectButton 3, api 4); the aggregate tables key on it.
    public var code: Int {
        switch self {
        case .drag: return 0
        case .suspectDrag: return 1
        case .button: return 2
        case .suspectButton: return 3
        case .api: return 4
        }
    }

    /// The kind stored as `code`, nil for a number no kind has.
    public static func code(_ code: Int) -> SwipeKind? {
        allCases.first { $0.code == code }
    }

    /// Bits `1 << code` of the kinds a deck's ranking counts.
    public static func countedMask(_ counted: Set<CountedInput>) -> Int {
        allCases.filter { $0.countedAs.map(counted.contains) ?? false }.reduce(0) { $0 | 1 << $1.code }
    }
}
