/// The transform of one card in the visible stack, applied as
/// `translate(translateX px, translateY px) scale(scaleX, scaleY)` with `opacity` and `z-index`.
public struct StackSlot: Sendable, Hashable, Codable {
    /// 0 for the top card.
    public var depth: Int
    public var scaleX: Double
    public var scaleY: Double
    /// CSS px.
    public var translateX: Double
    /// CSS px; negative = up.
    public var translateY: Double
    /// 0…1.
    public var opacity: Double
    /// Higher draws on top: `count − depth`.
    public var zIndex: Int

    public init(
        depth: Int, scaleX: Double, scaleY: Double, translateX: Double, translateY: Double, opacity: Double, zIndex: Int
    ) {
        self.depth = depth
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.translateX = translateX
        self.translateY = translateY
        self.opacity = opacity
        self.zIndex = zIndex
    }

    /// The slot at `depth` of a stack of `count` visible cards, each `w` px wide.
    /// Cards deeper than `stack.visible − 1` get the last visible slot with opacity 0.
    public static func at(depth: Int, count: Int, w: Double, stack s: StackParameters) -> StackSlot {
        let hidden = depth >= s.visible
        let d = Double(hidden ? s.visible - 1 : depth)
        let z = count - depth
        switch s.mode {
        case .scale:
            let scale = 1 - s.scaleStep * d
            let alpha = 1 - s.alphaStep * d
            return StackSlot(
                depth: depth, scaleX: scale, scaleY: scale, translateX: 0, translateY: -s.offsetStep * d,
                opacity: hidden ? 0 : alpha, zIndex: z)
        case .inset:
            let sx = (w - 2 * s.insetX * d) / w
            return StackSlot(
                depth: depth, scaleX: sx, scaleY: 1, translateX: 0, translateY: s.insetY * d, opacity: hidden ? 0 : 1,
                zIndex: z)
        }
    }
}
