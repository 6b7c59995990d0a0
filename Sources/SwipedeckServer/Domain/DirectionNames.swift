import Foundation

/// A deck's own words for the directions of a decision (its four labels; a corner is its two
/// labels joined by "+"), as the exports name columns and values.
public struct DirectionNames: Sendable, Hashable {
    public let left: String
    public let right: String
    public let up: String
    public let down: String

    /// The directions the results count, in the exports' column order.
    public static let columns = ["left", "right", "up", "down", "up_left", "up_right", "down_left", "down_right"]

    public init(left: String, right: String, up: String, down: String) {
        self.left = left
        self.right = right
        self.up = up
        self.down = down
    }

    public init(deck: Deck) {
        self.init(left: deck.leftLabel, right: deck.rightLabel, up: deck.upLabel, down: deck.downLabel)
    }

    /// The name of `direction` (a `Decision` raw value); an unknown one stays as it is.
    public func name(_ direction: String) -> String {
        switch direction {
        case "left": return left
        case "right": return right
        case "up": return up
        case "down": return down
        case "up_left": return "\(up)+\(left)"
        case "up_right": return "\(up)+\(right)"
        case "down_left": return "\(down)+\(left)"
        case "down_right": return "\(down)+\(right)"
        default: return direction
        }
    }

    /// The column of counted swipes saying yes (right or up, `ResultsReport.isLike`).
    public var likes: String { "\(right) or \(up)" }
}
