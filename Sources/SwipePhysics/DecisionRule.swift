/// Which throw-out rule a profile applies on release. Each rule reproduces one seed system.
public enum DecisionRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Distance-or-fling (the consensus rule): displacement / card size reaches
    /// `distanceThreshold`, or release speed reaches `flingVelocity` with at least
    /// `minFlingDistance` displacement, along the enabled direction with the largest projection.
    case distanceOrFling
    /// Seed 000, pan gesture: `x / viewport width` beyond ±`classicXRatio`, however far up or down
    /// (the seed's extra `|y| / height > 0.02` condition is dropped: a level drag must count).
    case classic
    /// Seed 000, long press: the drag starts after a press of `pressDelayMs` that moved less
    /// than `pressSlopPx`; thrown when released outside the inner zone.
    case zone
    /// Seed 002 (Koloda): drag normalised to the square [-1, 1]², nearest of 8 target points,
    /// thrown at `kolodaThreshold` of the way to it.
    case koloda
    /// Seed 004: a list row; open (left) or close (right) from the clamped sum of recent moves.
    case reveal
    /// Seed 003: a spring list; never throws anything.
    case springList
}
