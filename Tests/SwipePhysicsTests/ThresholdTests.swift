import Testing

@testable import SwipePhysics

/// Every decision rule just below, exactly at and just above its threshold, for each profile.
///
/// "Just below/above" is one representable double away wherever the rule's arithmetic allows it
/// (found by stepping ulp by ulp until the rule's own quotient crosses), so these tests pin `>=`
/// versus `>` exactly. Each "at" case first checks that the quotient really equals the constant.
@Suite("Decision thresholds")
struct ThresholdTests {
    // MARK: standard: distance

    @Test("standard: distance threshold 0.35 of the card width, both sides")
    func standardDistance() {
        let p = SwipeProfile.standard
        #expect(p.distanceThreshold == 0.35)
        #expect(140.0 / 400 == 0.35)
        let below = stepDown(from: 140) { $0 / 400 < 0.35 }
        let above = stepUp(from: (140.0).nextUp) { $0 / 400 > 0.35 }
        #expect(below < 140 && above > 140 && 140 - below < 1e-12 && above - 140 < 1e-12)

        #expect(decide(rampTrace(dx: below), p) == Decision.none)
        #expect(decide(rampTrace(dx: 140), p) == .right)
        #expect(decide(rampTrace(dx: above), p) == .right)

        #expect(decide(rampTrace(dx: -below), p) == Decision.none)
        #expect(decide(rampTrace(dx: -140), p) == .left)
        #expect(decide(rampTrace(dx: -above), p) == .left)

        // The ramp traces really hold still at release, so only the distance rule can throw.
        #expect(Velocity.release(of: rampTrace(dx: 140), windowMs: 100) == .zero)
    }

    @Test("standard: distance is normalised by card height for up/down when enabled")
    func standardDistanceVertical() {
        var p = SwipeProfile.standard
        p.directions = [.left, .right, .up, .down]
        #expect(210.0 / 600 == 0.35)
        let below = stepDown(from: 210) { $0 / 600 < 0.35 }
        #expect(decide(rampTrace(dx: 0, dy: -210), p) == .up)
        #expect(decide(rampTrace(dx: 0, dy: -below), p) == Decision.none)
        #expect(decide(rampTrace(dx: 0, dy: 210), p) == .down)
        #expect(decide(rampTrace(dx: 0, dy: below), p) == Decision.none)
        // With the standard left/right profile a vertical drag never throws, however far.
        #expect(decide(rampTrace(dx: 0, dy: -300), .standard) == Decision.none)
    }

    // MARK: standard: fling

    @Test("standard: fling velocity 0.5 px/ms at 0.2 of the card")
    func standardFlingVelocity() {
        let p = SwipeProfile.standard
        #expect(p.flingVelocity == 0.5)
        let eps = 0x1p-10
        for (slope, expected) in [(0.5 - eps, Decision.none), (0.5, .right), (0.5 + eps, .right)] {
            let tr = flingTrace(final: 80, slope: slope)
            let v = Velocity.release(of: tr, windowMs: p.velocityWindowMs)
            #expect(v.x == slope, "the fling trace's release velocity is exact")
            #expect(tr.x.last! / tr.w == 0.2)
            #expect(decide(tr, p) == expected, "slope \(slope)")
        }
        for (slope, expected) in [(-0.5 + eps, Decision.none), (-0.5, .left), (-0.5 - eps, .left)] {
            let tr = flingTrace(final: -80, slope: slope)
            #expect(Velocity.release(of: tr, windowMs: p.velocityWindowMs).x == slope)
            #expect(decide(tr, p) == expected, "slope \(slope)")
        }
    }

    @Test("release velocity: the 100 ms window includes a sample exactly 100 ms before the last")
    func velocityWindow() {
        let p = SwipeProfile.standard
        #expect(p.velocityWindowMs == 100)
        // Window {100, 150, 200} ms with x {0, 60, 60}: slope 0.6 px/ms. Were the sample at
        // 100 ms left out, {150, 200} would give 0.
        let tr = makeTrace([50, 100, 150, 200], [0, 0, 60, 60], [0, 0, 0, 0])
        #expect(Velocity.release(of: tr, windowMs: 100) == Velocity(x: 0.6, y: 0))
        #expect(decide(tr, p) == .right, "60 / 400 = 0.15 of the card at 0.6 px/ms is a fling")
        // One ulp earlier, the sample falls out of the window.
        var later = tr
        later.t[1] = (100.0).nextDown
        #expect(Velocity.release(of: later, windowMs: 100) == .zero)
        #expect(decide(later, p) == Decision.none)
        // Fewer than two samples in the window: the last two are used.
        let sparse = makeTrace([10, 20, 150, 300], [0, 0, 0, 75], [0, 0, 0, -30])
        #expect(Velocity.release(of: sparse, windowMs: 100) == Velocity(x: 0.5, y: -0.2))
        // One sample or none: zero.
        #expect(Velocity.release(of: makeTrace([10], [5], [5]), windowMs: 100) == .zero)
        #expect(Velocity.release(of: makeTrace([], [], []), windowMs: 100) == .zero)
    }

    @Test("standard: a fast release back towards the centre does not fling")
    func standardFlingMustPointTheSameWay() {
        let tr = flingTrace(final: 80, slope: -0.75)
        #expect(Velocity.release(of: tr, windowMs: 100).x == -0.75)
        #expect(decide(tr, .standard) == Decision.none)
        #expect(decide(flingTrace(final: -80, slope: 0.75), .standard) == Decision.none)
    }

    @Test("standard: minimum fling distance 0.08 of the card")
    func standardMinFlingDistance() {
        let p = SwipeProfile.standard
        #expect(p.minFlingDistance == 0.08)
        let g = Geometry(w: 625, h: 600, vw: 800, vh: 800, gx: 300, gy: 300)
        #expect(50.0 / 625 == 0.08)
        let below = stepDown(from: 50) { $0 / 625 < 0.08 }
        let above = stepUp(from: (50.0).nextUp) { $0 / 625 > 0.08 }
        for (final, expected) in [(below, Decision.none), (50, .right), (above, .right)] {
            let tr = flingTrace(final: final, slope: 0.625, g)
            #expect(tr.x.last! == final)
            #expect(Velocity.release(of: tr, windowMs: 100).x >= 0.5)
            #expect(decide(tr, p) == expected, "final \(final)")
            let m = flingTrace(final: -final, slope: -0.625, g)
            #expect(decide(m, p) == expected.mirroredHorizontally, "final \(-final)")
        }
    }

    // MARK: classic (seed 000 pan)

    @Test("classic: x / viewport width must exceed 0.4 (strict)")
    func classicX() {
        let p = SwipeProfile.classic
        #expect(p.classicXRatio == 0.4)
        #expect(160.0 / 400 == 0.4)
        let below = stepDown(from: 160) { $0 / 400 < 0.4 }
        let above = stepUp(from: 160) { $0 / 400 > 0.4 }
        #expect(above - 160 < 1e-12)
        #expect(decide(rampTrace(dx: below, dy: 40), p) == Decision.none)
        #expect(decide(rampTrace(dx: 160, dy: 40), p) == Decision.none, "exactly 0.4 is not beyond it")
        #expect(decide(rampTrace(dx: above, dy: 40), p) == .right)
        #expect(decide(rampTrace(dx: -below, dy: 40), p) == Decision.none)
        #expect(decide(rampTrace(dx: -160, dy: 40), p) == Decision.none)
        #expect(decide(rampTrace(dx: -above, dy: 40), p) == .left)
        // The seed's min(·, 1) caps the ratio above only; far beyond the screen still throws.
        #expect(decide(rampTrace(dx: 900, dy: 40), p) == .right)
        #expect(decide(rampTrace(dx: -900, dy: 40), p) == .left)
    }

    @Test("classic: vertical movement does not matter, a dead-level drag counts")
    func classicY() {
        let p = SwipeProfile.classic
        for dy in [0.0, -0.0, 1, -1, 16, -16, 400, -400] {
            #expect(decide(rampTrace(dx: 200, dy: dy), p) == .right)
            #expect(decide(rampTrace(dx: -200, dy: dy), p) == .left)
            #expect(decide(rampTrace(dx: 150, dy: dy), p) == Decision.none)
        }
        // Issue 26: a clean horizontal 260 px drag on a 390 × 844 phone.
        let phone = Geometry(w: 359, h: 560, vw: 390, vh: 844, gx: 180, gy: 280, ox: 195, oy: 422)
        #expect(decide(rampTrace(dx: 260, dy: 0, phone), p) == .right)
        #expect(decide(rampTrace(dx: -260, dy: 0, phone), p) == .left)
    }

    // MARK: zone (seed 000 long press)

    static let zoneGeometry = Geometry(w: 300, h: 400, vw: 400, vh: 800, gx: 150, gy: 200, ox: 200, oy: 400)

    @Test("zone: left edge at 75 px (released strictly left of it throws)")
    func zoneLeftEdge() {
        let p = SwipeProfile.zone
        #expect(p.zoneInsetX == 75)
        let g = Self.zoneGeometry
        let outside = stepDown(from: -125) { 200 + $0 < 75 }
        let inside = stepUp(from: (-125.0).nextUp) { 200 + $0 > 75 }
        #expect(decide(rampTrace(dx: inside, pressMs: 60, g), p) == Decision.none)
        #expect(decide(rampTrace(dx: -125, pressMs: 60, g), p) == Decision.none, "on the edge is inside")
        #expect(decide(rampTrace(dx: outside, pressMs: 60, g), p) == .left)
    }

    @Test("zone: right edge at viewport width − 75 px")
    func zoneRightEdge() {
        let p = SwipeProfile.zone
        let g = Self.zoneGeometry
        let outside = stepUp(from: 125) { 200 + $0 > 325 }
        let inside = stepDown(from: (125.0).nextDown) { 200 + $0 < 325 }
        #expect(decide(rampTrace(dx: inside, pressMs: 60, g), p) == Decision.none)
        #expect(decide(rampTrace(dx: 125, pressMs: 60, g), p) == Decision.none)
        #expect(decide(rampTrace(dx: outside, pressMs: 60, g), p) == .right)
    }

    @Test("zone: the press must last 50 ms")
    func zonePressDelay() {
        let p = SwipeProfile.zone
        #expect(p.pressDelayMs == 50)
        let g = Self.zoneGeometry
        // Still for 40 ms, then one sample far outside the zone: the release time decides.
        for (end, expected) in [((50.0).nextDown, Decision.none), (50, .left), ((50.0).nextUp, .left)] {
            let tr = makeTrace([0, 10, 20, 30, 40, end], [0, 0, 0, 0, 0, -140], [0, 0, 0, 0, 0, 0], g)
            #expect(rejection(tr) == nil)
            #expect(decide(tr, p) == expected, "release at \(end) ms")
        }
        // A 1 px move just before 50 ms is during the press; at 50 ms it is part of the drag.
        for (moveAt, expected) in [((50.0).nextDown, Decision.none), (50, .left), ((50.0).nextUp, .left)] {
            let tr = makeTrace(
                [0, 16, 32, moveAt, 66, 82, 98], [0, 0, 0, 1, -40, -100, -140], [0, 0, 0, 0, 0, 0, 0], g)
            #expect(decide(tr, p) == expected, "first move at \(moveAt) ms")
        }
    }

    @Test("zone: movement during the press may reach 0.5 px, not more")
    func zonePressSlop() {
        let p = SwipeProfile.zone
        #expect(p.pressSlopPx == 0.5)
        let g = Self.zoneGeometry
        let over = stepUp(from: (0.5).nextUp) { $0 * $0 > 0.25 }
        #expect(over - 0.5 < 1e-15)
        for (m, expected) in [(0.499, Decision.left), (0.5, .left), (over, Decision.none)] {
            for (mx, my) in [(m, 0.0), (-m, 0.0), (0.0, m), (0.0, -m)] {
                let tr = makeTrace(
                    [0, 16, 32, 48, 64, 80, 96], [0, mx, 0, 0, -50, -100, -140], [0, my, 0, 0, 0, 0, 0], g)
                #expect(decide(tr, p) == expected, "moved (\(mx), \(my)) during the press")
            }
        }
    }

    // MARK: eightway (seed 002, Koloda)

    @Test("eightway: thrown at 0.6 of the way to each of the eight targets", arguments: Decision.directions)
    func kolodaThreshold(direction d: Decision) {
        let p = SwipeProfile.eightway
        #expect(p.kolodaThreshold == 0.6)
        // Card 400 × 600: 2·120/400 = 0.6 and 2·180/600 = 0.6 exactly.
        #expect(2 * 120.0 / 400 == 0.6 && 2 * 180.0 / 600 == 0.6)
        let bx = stepDown(from: 120) { 2 * $0 / 400 < 0.6 }
        let by = stepDown(from: 180) { 2 * $0 / 600 < 0.6 }
        let ax = stepUp(from: 120) { 2 * $0 / 400 > 0.6 }
        let ay = stepUp(from: 180) { 2 * $0 / 600 > 0.6 }
        let g = d.target
        #expect(decide(rampTrace(dx: g.x * bx, dy: g.y * by), p) == Decision.none)
        #expect(decide(rampTrace(dx: g.x * 120, dy: g.y * 180), p) == d)
        #expect(decide(rampTrace(dx: g.x * ax, dy: g.y * ay), p) == d)
        // The drag state agrees: progress 1 at the threshold.
        let s = DragState.of(dx: g.x * 120, dy: g.y * 180, w: 400, h: 600, vw: 400, vh: 800, ox: 200, profile: p)
        #expect(s.candidate == d)
        #expect(s.progress == 1)
    }

    @Test("ties go to the earlier direction in Decision.directions (left, right, up, down, then diagonals)")
    func tieBreaks() {
        // Koloda, card 400 × 600: (2·200/400, 2·−150/600) = (1, −0.5) is as near to `right` (1, 0)
        // as to `up_right` (1, −1): right comes first and is thrown (k = 1); up_right would be too.
        #expect(decide(rampTrace(dx: 200, dy: -150), .eightway) == .right)
        #expect(decide(rampTrace(dx: -200, dy: -150), .eightway) == .left)
        // (0.5, −1) is as near to `up` as to `up_right`: up first.
        #expect(decide(rampTrace(dx: 100, dy: -300), .eightway) == .up)
        #expect(decide(rampTrace(dx: -100, dy: -300), .eightway) == .up)
        #expect(decide(rampTrace(dx: 100, dy: 300), .eightway) == .down)
        // Distance-or-fling with four directions: equal projections on right and down.
        var p = SwipeProfile.standard
        p.directions = [.left, .right, .up, .down]
        #expect(decide(rampTrace(dx: 160, dy: 240), p) == .right)
        #expect(decide(rampTrace(dx: -160, dy: 240), p) == .left)
        #expect(decide(rampTrace(dx: -160, dy: -240), p) == .left)
        p.directions = [.up, .down, .left, .right]
        #expect(decide(rampTrace(dx: 160, dy: 240), p) == .down, "the profile's own order decides")
    }

    // MARK: reveal (seed 004)

    /// A row swipe through explicit x positions, one sample every 16 ms.
    static func row(_ xs: [Double]) -> Trace {
        makeTrace(xs.indices.map { 16 * Double($0 + 1) }, xs, xs.map { _ in 0 })
    }

    @Test("reveal: travel below 8 px is a tap")
    func revealMinTravel() {
        let p = SwipeProfile.reveal
        #expect(p.reveal.minTravelPx == 8)
        let short = (8.0).nextDown
        #expect(decide(Self.row([0, -2, -4, -6, -short]), p) == Decision.none)
        #expect(decide(Self.row([0, -2, -4, -6, -8]), p) == .left)
        #expect(decide(Self.row([0, -2, -4, -6, -(8.0).nextUp]), p) == .left)
        #expect(decide(Self.row([0, 2, 4, 6, short]), p) == Decision.none)
        #expect(decide(Self.row([0, 2, 4, 6, 8]), p) == .right)
        // Travel is the final offset, not the path: out 40 px and back to 7 px is a tap.
        #expect(decide(Self.row([0, 10, 20, 30, 40, 30, 20, 10, 7]), p) == Decision.none)
    }

    @Test("reveal: direction sum > 0 closes (right); 0 and below open (left)")
    func revealDirectionSum() {
        let p = SwipeProfile.reveal
        let e = 0x1p-20
        let base: [Double] = [0, -10, -20, -30, -40, -39, -38, -39, -40]
        for (last, expected) in [(-e, Decision.left), (0, .left), (e, .right)] {
            let xs = base + [-40 + last]
            #expect(clampedMoveSum(xs, clamp: 5, samples: 5) == last)
            #expect(decide(Self.row(xs), p) == expected, "sum \(last)")
        }
        // Only the last five moves count: a +5 move sixth from the end is ignored.
        let xs: [Double] = [0, -10, -20, -30, -40, -35, -34, -33, -34, -35, -35]
        #expect(decide(Self.row(xs), p) == .left)
        var wider = p
        wider.reveal.moveSamples = 6
        #expect(decide(Self.row(xs), wider) == .right)
    }
}
