import SwipePhysics

/// A deck's results: cards ranked by the lower bound of the Wilson 95 % interval of their
/// like rate. Likes are `right`, `up` and `up_right` (yes, super-yes); every other direction
/// is a pass. Undone and suspect swipes are not counted (suspect ones are reported separately).
public struct ResultsReport: Sendable, Codable {
    public struct CardResult: Sendable, Codable {
        public var rank: Int
        public var cardId: Int64
        public var title: String
        public var image: String
        public var likes: Int
        public var total: Int
        /// likes / total, 0 when total is 0.
        public var likeRate: Double
        public var wilson: WilsonInterval
        /// Live, non-suspect swipes per direction (only directions that occurred).
        public var counts: [String: Int]
    }

    public var deck: String
    public var title: String
    public var cards: [CardResult]
    /// Distinct participants with a counted swipe.
    public var participants: Int
    /// Counted swipes (live, not suspect).
    public var swipes: Int
    /// Suspect swipes left out of the numbers.
    public var suspectExcluded: Int
    /// Median time a card was on top before its decision, ms; nil without data.
    public var medianDecisionMs: Double?
    /// Refused swipes by rejection code.
    public var rejections: [String: Int]
    /// Counted swipes per direction over the whole deck.
    public var directionTotals: [String: Int]

    public static func isLike(_ direction: String) -> Bool {
        direction == Decision.right.rawValue || direction == Decision.up.rawValue || direction == Decision.upRight.rawValue
    }
}
