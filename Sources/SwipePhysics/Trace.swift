/// A pointer trace as the browser records it, in the wire format of docs/DESIGN.md.
///
/// Flat arrays rather than arrays of points: cheaper to encode, decode and store.
/// - `t`: milliseconds since pointerdown, strictly increasing, `t[0] >= 0`.
/// - `x`, `y`: pointer offset from the pointerdown point, CSS px (y grows downwards).
/// - `w`, `h`: card size, CSS px. `vw`, `vh`: viewport size, CSS px.
/// - `gx`, `gy`: grab point inside the card, CSS px from its top-left corner (rotation pivot).
/// - `ox`, `oy` (optional): the pointerdown point in viewport coordinates, CSS px. Only the
///   `zone` profile needs it; when absent the card is assumed centred in the viewport.
///
/// Nothing here is checked on construction: `validate` names what is wrong.
public struct Trace: Sendable, Hashable {
    public var t: [Double]
    public var x: [Double]
    public var y: [Double]
    public var w: Double
    public var h: Double
    public var vw: Double
    public var vh: Double
    public var gx: Double
    public var gy: Double
    public var ox: Double?
    public var oy: Double?

    public init(
        t: [Double], x: [Double], y: [Double],
        w: Double, h: Double, vw: Double, vh: Double, gx: Double, gy: Double,
        ox: Double? = nil, oy: Double? = nil
    ) {
        self.t = t
        self.x = x
        self.y = y
        self.w = w
        self.h = h
        self.vw = vw
        self.vh = vh
        self.gx = gx
        self.gy = gy
        self.ox = ox
        self.oy = oy
    }

    /// Number of samples (the length of `t`; `validate` checks the others match).
    public var count: Int { t.count }

    /// The same trace reflected about the vertical axis through the pointerdown point:
    /// x offsets negated, the grab point and origin reflected inside card and viewport.
    public var mirroredHorizontally: Trace {
        var m = self
        m.x = x.map { -$0 }
        m.gx = w - gx
        if let ox { m.ox = vw - ox }
        return m
    }
}
