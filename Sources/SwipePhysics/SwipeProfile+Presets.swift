extension SwipeProfile {
    /// The consensus rule of DESIGN.md: distance (0.35 of the card) or fling (0.5 px/ms with
    /// 0.08 of the card), left/right, rotation about the grab point, seed 000's stack and spring.
    public static let standard = SwipeProfile(
        name: "standard",
        summary: "Distance-or-fling, left/right: the default for new decks."
    )

    /// Seed 000's pan-gesture card: released when x / screen width passes ±0.4 AND |y| / screen
    /// height passes 0.02 (quirk kept: a dead-level drag springs back), rotation π/10 · x%,
    /// return spring 0.26 s ζ 0.68, exit at 1.6 × width with y from the velocity in 0.48 s,
    /// cards enter from a random off-screen point in 0.93 s.
    public static let classic = SwipeProfile(
        name: "classic",
        summary: "Seed 000 pan gesture: x/width past 0.4 and |y|/height past 0.02.",
        rule: .classic,
        rotationByViewport: true,
        rotateAboutGrabPoint: false,
        throwStyle: .horizontalVelocityY,
        throwMinMs: 480,
        throwMaxMs: 480,
        enterMs: 930
    )

    /// Seed 000's long-press card: the drag starts after 50 ms held within 0.5 px; thrown when
    /// released outside the inner zone (75 px from left/right, 100 px from top/bottom); exits
    /// to 2 × width in 0.48 / 2.5 s keeping its height. Rotation as seed: π/180 + Δx/1000 is
    /// approximated by the standard rotation (the seed's constant 1° tilt is not reproduced).
    public static let zone = SwipeProfile(
        name: "zone",
        summary: "Seed 000 long press: thrown when released outside the inner zone.",
        rule: .zone,
        throwStyle: .horizontalKeepY,
        exitDistanceFactor: 2.0,
        throwMinMs: 192,
        throwMaxMs: 192
    )

    /// Seed 002 (a Koloda-style view): 8 directions, thrown at 60 % of the way to the target
    /// point, rotation π/10 × strength about the grab point, POP spring (bounciness 10,
    /// speed 20 → tension ≈ 117.8, so response ≈ 579 ms, damping ratio ≈ 0.59 — DESIGN's values; the
    /// seed names POP but prints no parameters), inset stack.
    public static let eightway = SwipeProfile(
        name: "eightway",
        summary: "Seed 002: eight directions, thrown at 60% of the way to the target point.",
        rule: .koloda,
        directions: Decision.directions,
        returnSpring: SpringParameters(responseMs: 579, dampingRatio: 0.59),
        stack: StackParameters(mode: .inset)
    )

    /// Seed 004: a list row that slides left to reveal actions; direction from the sum of the
    /// last moves, each clamped to ±5 px; linear slide of at most 0.1 s.
    public static let reveal = SwipeProfile(
        name: "reveal",
        summary: "Seed 004: swipe a row left to reveal its actions.",
        rule: .reveal
    )

    /// Seed 003: a list whose items hang on springs (damping 1.0, 1 Hz); items lag a drag by
    /// distance-from-touch / 1000 and spread by overscroll / 10 at the ends.
    public static let springList = SwipeProfile(
        name: "springList",
        summary: "Seed 003: list items on springs; nothing is thrown.",
        rule: .springList,
        directions: []
    )

    /// Every named profile, in display order.
    public static let all: [SwipeProfile] = [.standard, .classic, .zone, .eightway, .reveal, .springList]

    /// The named profile, or nil.
    public static func named(_ name: String) -> SwipeProfile? {
        all.first { $0.name == name }
    }
}
