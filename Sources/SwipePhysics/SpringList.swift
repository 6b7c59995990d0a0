/// The spring list of seed 003: items attached to anchors by springs.
public enum SpringList {
    /// How far an item lags behind a drag step, px: `scrollDelta` × |touchY − itemY| / resistance.
    /// Items far from the finger trail more (the Messages effect).
    public static func lag(scrollDelta: Double, touchY: Double, itemY: Double, resistance: Double) -> Double {
        let d = touchY - itemY
        return scrollDelta * (d < 0 ? -d : d) / resistance
    }

    /// Extra offset of item `index` of `count` when the list is pulled `overscroll` px past an end,
    /// px (the Evernote effect): gaps open by overscroll / resistance each. Pulling past the top
    /// (`atTop`) pushes item i down by (i + 1) gaps; past the bottom pushes it up by (count − i) gaps.
    public static func edgeSpread(index: Int, count: Int, overscroll: Double, atTop: Bool, resistance: Double) -> Double
    {
        let gap = overscroll / resistance
        return atTop ? gap * Double(index + 1) : -gap * Double(count - index)
    }
}
