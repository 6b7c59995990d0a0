/// Counts gathered for a results report: per card, the counted swipes by direction and every
/// live swipe by kind; per deck, the same totals. Counted swipes are those whose kind the deck
/// ranks (`SwipeKind.countedAs` in the deck's set).
public struct ResultsTally: Sendable {
    /// Card id → direction → counted swipes.
    public var counted: [Int64: [String: Int]] = [:]
    /// Card id → kind → live swipes.
    public var kinds: [Int64: [SwipeKind: Int]] = [:]
    /// Kind → live swipes over the deck.
    public var kindTotals: [SwipeKind: Int] = [:]
    /// Direction → counted swipes over the deck.
    public var directionTotals: [String: Int] = [:]

    public init() {}

    public mutating func add(
        card: Int64, direction: String, kind: SwipeKind, count: Int, counted set: Set<CountedInput>
    ) {
        kinds[card, default: [:]][kind, default: 0] += count
        kindTotals[kind, default: 0] += count
        guard let countedAs = kind.countedAs, set.contains(countedAs) else { return }
        counted[card, default: [:]][direction, default: 0] += count
        directionTotals[direction, default: 0] += count
    }
}
