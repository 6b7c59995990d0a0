/// Layout of the visible stack, rendered by the server into the HTML and animated by the page.
public struct StackParameters: Sendable, Hashable, Codable {
    /// Cards visible at once, including the top card. Default 3 (seeds 000 and 002).
    public var visible: Int
    /// `scale` (seed 000) or `inset` (seed 002).
    public var mode: StackMode
    /// Scale lost per depth, unitless. Default 0.018 (seed 000 `reduceRatio`).
    public var scaleStep: Double
    /// Vertical offset per depth, CSS px; deeper cards move up. Default 6 (seed 000 `6 * targetCount`).
    public var offsetStep: Double
    /// Opacity lost per depth, unitless. Default 0.008 (seed 000 `alphaRatio`).
    public var alphaStep: Double
    /// `inset` mode: horizontal inset per side per depth, CSS px. Default 12 (ours; seed 002
    /// describes the method without numbers).
    public var insetX: Double
    /// `inset` mode: downward shift per depth, CSS px. Default 8 (ours; see `insetX`).
    public var insetY: Double
    /// Duration of the stack moving up after a throw, ms. Default 260 (seed 000 `duration`).
    public var advanceMs: Double

    public init(
        visible: Int = 3, mode: StackMode = .scale, scaleStep: Double = 0.018, offsetStep: Double = 6,
        alphaStep: Double = 0.008, insetX: Double = 12, insetY: Double = 8, advanceMs: Double = 260
    ) {
        self.visible = visible
        self.mode = mode
        self.scaleStep = scaleStep
        self.offsetStep = offsetStep
        self.alphaStep = alphaStep
        self.insetX = insetX
        self.insetY = insetY
        self.advanceMs = advanceMs
    }
}
