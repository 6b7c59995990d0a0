/// How cards behind the top card are drawn.
public enum StackMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Seed 000: each deeper card scaled by 1 − `scaleStep`·depth, raised by `offsetStep`·depth,
    /// faded by `alphaStep`·depth.
    case scale
    /// Seed 002: each deeper card inset by `insetX`·depth on both sides and moved down by
    /// `insetY`·depth, so its lower edge peeks out below the card above it.
    case inset
}
