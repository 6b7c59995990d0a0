/// The end of a throw-out animation: card offset (px, from its rest position) and duration (ms).
public struct ThrowOut: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double
    public var durationMs: Double

    public init(x: Double, y: Double, durationMs: Double) {
        self.x = x
        self.y = y
        self.durationMs = durationMs
    }
}
