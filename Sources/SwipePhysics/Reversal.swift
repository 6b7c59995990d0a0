extension Trace {
    /// How far a drag must have gone the other way before its release to count as reversed, as a
    /// share of the card's width: 0.1 (36 px on a 360 px card), beyond the few pixels a finger
    /// wobbles at pointerdown, short of the distance any profile commits a swipe at.
    public static let reversalFraction = 0.1

    /// Whether the drag changed its mind before release: some sample lay at least
    /// `fraction` × the card's width (`w`) on the far side of the pointerdown point from where
    /// the drag was released, measured along the release offset (the last sample's x, y). A
    /// trace released where it started (zero offset), with no samples or no width, never reverses.
    ///
    /// A signal of care for labelling decks: someone reading the card sometimes starts one way and
    /// releases the other; someone swiping without looking rarely does.
    public func reversesBeforeRelease(fraction: Double = Trace.reversalFraction) -> Bool {
        guard let lastX = x.last, let lastY = y.last, x.count == y.count, w > 0 else { return false }
        let length = (lastX * lastX + lastY * lastY).squareRoot()
        guard length > 0 else { return false }
        let limit = -fraction * w
        for i in x.indices where (x[i] * lastX + y[i] * lastY) / length <= limit {
            return true
        }
        return false
    }
}
