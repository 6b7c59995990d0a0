extension SwipeProfile {
    /// The consensus rule of docs/DESIGN.md: distance (0.35 of the card) or fling (0.5 px/ms with
    /// 0.08 of the card), left/right, rotation about the grab point, seed 000's stack and spring.
    public static let standard = SwipeProfile(
        name: "standard",
        summary: "Drag a card about a third of its width to the left or right, or flick it that way. The default."
    )

    /// Seed 000's pan-gesture card: released when x / screen width passes ±0.4, however far up or
    /// down (the seed's |y| / height > 0.02 condition is dropped), rotation π/10 · x%,
    /// return spring 0.26 s ζ 0.68, exit at 1.6 × width with y from the velocity in 0.48 s,
    /// cards enter from a random off-screen point in 0.93 s.
    public static let classic = SwipeProfile(
        name: "classic",
        summary:
            "Drag a card far, past 40% of the screen's width, to the left or right. Cards fly in when the page opens.",
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
        summary:
            "Press and hold a card still for a moment, then drag it close to the left or right edge of the screen and let go.",
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
        summary:
            "Drag a card well past halfway towards a side or a corner: eight directions. Not far enough, it bounces back.",
        rule: .koloda,
        directions: Decision.directions,
        returnSpring: SpringParameters(responseMs: 579, dampingRatio: 0.59),
        stack: StackParameters(mode: .inset)
    )

    /// Seed 004: a list row that slides left to reveal actions; direction from the sum of the
    /// last moves, each clamped to ±5 px; linear slide of at most 0.1 s.
    public static let reveal = SwipeProfile(
        name: "reveal",
        summary: "Swipe a row to the left to show its actions, to the right to hide them.",
        rule: .reveal
    )

    /// Seed 003: a list whose items hang on springs (damping 1.0, 1 Hz); items lag a drag by
    /// distance-from-touch / 1000 and spread by overscroll / 10 at the ends.
    public static let springList = SwipeProfile(
        name: "springList",
        summary: "A list that sways as you scroll; nothing is swiped away.",
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
