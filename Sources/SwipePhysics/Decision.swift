/// The outcome of a gesture: one of eight directions, or `none` (the card springs back).
///
/// Raw values are the wire names used by the API, `swipedeck classify` and `physics.js`.
public enum Decision: String, Sendable, Hashable, Codable, CaseIterable {
    case none
    case left
    case right
    case up
    case down
    case upLeft = "up_left"
    case upRight = "up_right"
    case downLeft = "down_left"
    case downRight = "down_right"

    /// The eight real directions, in the fixed order used to break ties (first wins).
    public static let directions: [Decision] = [.left, .right, .up, .down, .upLeft, .upRight, .downLeft, .downRight]

    /// Unit vector in screen coordinates (y grows downwards). Diagonals use `sqrt(0.5)`,
    /// which is correctly rounded in both Swift and JavaScript, so projections are bit-identical.
    /// `none` is the zero vector.
    public var unit: (x: Double, y: Double) {
        let d = (0.5).squareRoot()
        switch self {
        case .none: return (0, 0)
        case .left: return (-1, 0)
        case .right: return (1, 0)
        case .up: return (0, -1)
        case .down: return (0, 1)
        case .upLeft: return (-d, -d)
        case .upRight: return (d, -d)
        case .downLeft: return (-d, d)
        case .downRight: return (d, d)
        }
    }

    /// Koloda's target point for the direction: components in {-1, 0, 1} on the square
    /// [-1, 1]² that a normalised drag is measured against (seed 002).
    public var target: (x: Double, y: Double) {
        switch self {
        case .none: return (0, 0)
        case .left: return (-1, 0)
        case .right: return (1, 0)
        case .up: return (0, -1)
        case .down: return (0, 1)
        case .upLeft: return (-1, -1)
        case .upRight: return (1, -1)
        case .downLeft: return (-1, 1)
        case .downRight: return (1, 1)
        }
    }

    /// The opposite direction (`none` stays `none`); used to mirror traces in tests and to flip a decision.
    public var mirroredHorizontally: Decision {
        switch self {
        case .left: return .right
        case .right: return .left
        case .upLeft: return .upRight
        case .upRight: return .upLeft
        case .downLeft: return .downRight
        case .downRight: return .downLeft
        default: return self
        }
    }
}
