import Foundation
import Testing

@testable import SwipePhysics

/// The behaviour each seed document describes, reproduced by its named profile
/// (shared/seeds/000 … 004), including the quirks we keep on purpose.
@Suite("Seed reproductions")
struct SeedTests {
    // MARK: 000, pan gesture (classic)

    @Test("000 pan: x/width 0.41 throws, however little or much it moved up or down")
    func classicSeedCondition() {
        let p = SwipeProfile.classic
        let g = Geometry.square  // viewport 400 × 800
        #expect(decide(rampTrace(dx: 0.41 * 400, dy: 0.03 * 800, g), p) == .right)
        #expect(decide(rampTrace(dx: 0.41 * 400, dy: -0.03 * 800, g), p) == .right)
        #expect(decide(rampTrace(dx: -0.41 * 400, dy: 0.03 * 800, g), p) == .left)
        #expect(decide(rampTrace(dx: -0.41 * 400, dy: -0.03 * 800, g), p) == .left)
        // The seed also asked `abs(y%) > swipeYPosLimitRatio`; dropped (issue 26): a level drag counts.
        #expect(decide(rampTrace(dx: 0.41 * 400, dy: 0.01 * 800, g), p) == .right)
        #expect(decide(rampTrace(dx: -0.41 * 400, dy: -0.01 * 800, g), p) == .left)
        #expect(decide(rampTrace(dx: 0.41 * 400, dy: 0, g), p) == .right)
        // The same drags under the standard profile: distance alone decides (164 / 400 > 0.35).
        #expect(decide(rampTrace(dx: 0.41 * 400, dy: 0.01 * 800, g), .standard) == .right)
        // Not far enough in x, whatever y does.
        #expect(decide(rampTrace(dx: 0.39 * 400, dy: 0.3 * 800, g), p) == Decision.none)
    }

    @Test("000 pan: rotation π/10 · x/screen width about the centre; exit at 1.6 × width, y from velocity, 0.48 s")
    func classicMotion() {
        let p = SwipeProfile.classic
        let r = Motion.rotation(dx: 100, w: 320, h: 440, vw: 400, gy: 400, profile: p)
        #expect(abs(r - Double.pi / 10 * 0.25) < 1e-15)
        #expect(Motion.rotation(dx: 1000, w: 320, h: 440, vw: 400, gy: 0, profile: p) == Double.pi / 10)
        #expect(Motion.rotation(dx: -1000, w: 320, h: 440, vw: 400, gy: 0, profile: p) == -Double.pi / 10)
        let out = Motion.throwOut(
            dx: 170, dy: 20, velocity: Velocity(x: 1.2, y: -0.3), decision: .right, vw: 400, profile: p)
        #expect(abs(out.x - 640) < 1e-12)
        #expect(abs(out.y - -300) < 1e-12, "the seed's endCenterPosY = velocity.y (points per second)")
        #expect(out.durationMs == 480)
        let left = Motion.throwOut(
            dx: -170, dy: 20, velocity: Velocity(x: -1.2, y: 0.1), decision: .left, vw: 400, profile: p)
        #expect(abs(left.x - -640) < 1e-12 && abs(left.y - 100) < 1e-12)
        #expect(p.returnSpring == SpringParameters(responseMs: 260, dampingRatio: 0.68))
        #expect(p.enterMs == 930)
    }

    @Test("000: cards enter from x ∈ [−300, 300], y ∈ [−600, −300], rotated up to ±90°")
    func classicEntrance() {
        let lo = Motion.entrance(0, 0, 0)
        let hi = Motion.entrance(1, 1, 1)
        let mid = Motion.entrance(0.5, 0.5, 0.5)
        #expect(lo.x == -300 && lo.y == -300 && abs(lo.rotation + Double.pi / 2) < 1e-15)
        #expect(hi.x == 300 && hi.y == -600 && abs(hi.rotation - Double.pi / 2) < 1e-15)
        #expect(mid.x == 0 && mid.y == -450 && mid.rotation == 0)
    }

    // MARK: 000, long press (zone)

    @Test("000 long press: released 70 px from the left edge after a 60 ms still press throws left")
    func zoneSeed() {
        let p = SwipeProfile.zone
        // No `ox`: the card is centred, so the pointerdown point is (390 − 320) / 2 + 160 = 195.
        let g = Geometry.phone
        #expect(decide(rampTrace(dx: 70 - 195, pressMs: 60, g), p) == .left)
        #expect(decide(rampTrace(dx: (390 - 70) - 195, pressMs: 60, g), p) == .right)
        // Released 80 px from the edge: inside the zone, back to the stack.
        #expect(decide(rampTrace(dx: 80 - 195, pressMs: 60, g), p) == Decision.none)
        // Moved 1 px during the press: the long press never began.
        let moved = makeTrace(
            [0, 16, 32, 48, 60, 100, 140, 180], [0, 0, 1, 1, 1, -40, -90, -125], [0, 0, 0, 0, 0, 0, 0, 0], g)
        #expect(rejection(moved) == nil)
        #expect(decide(moved, p) == Decision.none)
        var still = moved
        still.x = [0, 0, 0, 0, 0, -40, -90, -125]
        #expect(decide(still, p) == .left)
        // An explicit pointerdown point wins over the centred assumption.
        var g2 = g
        g2.ox = 300
        #expect(decide(rampTrace(dx: -125, pressMs: 60, g2), p) == Decision.none)
        #expect(decide(rampTrace(dx: -226, pressMs: 60, g2), p) == .left)
    }

    @Test("000 long press: leaving the zone at the top or bottom is not a throw (kept quirk)")
    func zoneVerticalExit() {
        let p = SwipeProfile.zone
        let g = Geometry(w: 300, h: 400, vw: 400, vh: 800, gx: 150, gy: 200, ox: 200, oy: 400)
        // 100 px from the top and bottom edges bound the zone in the seed, but its release only
        // ever swipes left or right; above or below the zone nothing is counted.
        #expect(decide(rampTrace(dx: 0, dy: -350, pressMs: 60, g), p) == Decision.none)
        #expect(decide(rampTrace(dx: 0, dy: 350, pressMs: 60, g), p) == Decision.none)
        #expect(decide(rampTrace(dx: -150, dy: -350, pressMs: 60, g), p) == .left)
    }

    @Test("000 long press: exits to 2 × width keeping its height, in 0.48 / 2.5 s")
    func zoneMotion() {
        let p = SwipeProfile.zone
        let out = Motion.throwOut(
            dx: -130, dy: 42, velocity: Velocity(x: -2, y: 1), decision: .left, vw: 390, profile: p)
        #expect(out.x == -780 && out.y == 42 && out.durationMs == 192)
        #expect(abs(p.throwMaxMs - 480 / 2.5) < 1e-12)
    }

    // MARK: 000, stack layout

    @Test("000 stack: scale 1 − 0.018·d, offset −6·d, alpha 1 − 0.008·d, z = count − d")
    func stackScale() {
        let s = SwipeProfile.standard.stack
        #expect(s.mode == .scale && s.visible == 3)
        let expected: [(scale: Double, y: Double, alpha: Double)] = [
            (1, 0, 1), (0.982, -6, 0.992), (0.964, -12, 0.984),
        ]
        for d in 0..<5 {
            let slot = StackSlot.at(depth: d, count: 5, w: 320, stack: s)
            let e = expected[min(d, 2)]
            #expect(slot.depth == d)
            #expect(abs(slot.scaleX - e.scale) < 1e-12 && slot.scaleY == slot.scaleX)
            #expect(slot.translateX == 0 && abs(slot.translateY - e.y) < 1e-12)
            #expect(abs(slot.opacity - (d < 3 ? e.alpha : 0)) < 1e-12, "depth \(d)")
            #expect(slot.zIndex == 5 - d)
        }
        // z-order strictly decreases with depth, so the top card draws on top.
        let z = (0..<6).map { StackSlot.at(depth: $0, count: 6, w: 320, stack: s).zIndex }
        #expect(z == [6, 5, 4, 3, 2, 1])
    }

    @Test("002 stack: inset mode narrows each deeper card by 2 × 12 px and moves it down 8 px")
    func stackInset() {
        let s = SwipeProfile.eightway.stack
        #expect(s.mode == .inset)
        let expected: [(sx: Double, y: Double)] = [(1, 0), (296.0 / 320, 8), (272.0 / 320, 16)]
        for d in 0..<4 {
            let slot = StackSlot.at(depth: d, count: 4, w: 320, stack: s)
            let e = expected[min(d, 2)]
            #expect(abs(slot.scaleX - e.sx) < 1e-12 && slot.scaleY == 1)
            #expect(slot.translateY == e.y)
            #expect(slot.opacity == (d < 3 ? 1 : 0))
            #expect(slot.zIndex == 4 - d)
        }
    }

    // MARK: 002 (eightway)

    @Test("002: a diagonal drag 60 % of the way to the corner target throws diagonally")
    func kolodaDiagonal() {
        let p = SwipeProfile.eightway
        let g = Geometry.phone  // card 320 × 440
        let cases: [(Decision, Double, Double)] = [
            (.upRight, 96, -132), (.upLeft, -96, -132), (.downRight, 96, 132), (.downLeft, -96, 132),
        ]
        for (d, dx, dy) in cases {
            #expect(decide(rampTrace(dx: dx, dy: dy, g), p) == d, "60 %")
            #expect(decide(rampTrace(dx: dx * 59 / 60, dy: dy * 59 / 60, g), p) == Decision.none, "59 %")
            #expect(decide(rampTrace(dx: dx * 61 / 60, dy: dy * 61 / 60, g), p) == d, "61 %")
            // Left/right-only profiles never go diagonal.
            #expect(decide(rampTrace(dx: dx * 2, dy: dy, g), .standard) == (dx < 0 ? .left : .right))
        }
        // Mostly sideways: the nearest target is the side, not the corner.
        #expect(decide(rampTrace(dx: 96, dy: -20, g), p) == .right)
        #expect(decide(rampTrace(dx: 20, dy: -132, g), p) == .up)
        #expect(p.returnSpring == SpringParameters(responseMs: 579, dampingRatio: 0.59))
    }

    // MARK: 004 (reveal)

    @Test("004: each move counts at most 5 px, so a final 40 px jump counts as 5")
    func revealClampedSum() {
        let p = SwipeProfile.reveal
        func row(_ xs: [Double]) -> Trace { makeTrace(xs.indices.map { 16 * Double($0 + 1) }, xs, xs.map { _ in 0 }) }
        // Left 60 px, then four moves of −3 and a +40 jump: −12 + 5 = −7, still opening.
        let xs: [Double] = [0, -10, -20, -30, -40, -50, -60, -63, -66, -69, -72, -32]
        #expect(RevealRow.direction(of: xs, clampPx: 5, samples: 5) == .left)
        #expect(decide(row(xs), p) == .left)
        // Unclamped the jump would win (−12 + 40 > 0): the clamp is what decides.
        #expect(RevealRow.direction(of: xs, clampPx: 100, samples: 5) == .right)
        // Four moves of −1 and the jump: −4 + 5 = 1 > 0, closing.
        let ys: [Double] = [0, -10, -20, -30, -40, -50, -60, -61, -62, -63, -64, -24]
        #expect(decide(row(ys), p) == .right)
        // Four moves of −1.25 and the jump: exactly 0, which the seed treats as opening.
        let zs: [Double] = [0, -10, -20, -30, -40, -50, -60, -61.25, -62.5, -63.75, -65, -25]
        #expect(clampedMoveSum(zs, clamp: 5, samples: 5) == 0)
        #expect(decide(row(zs), p) == .left)
    }

    @Test("004: the slide lasts at most 0.1 s, shorter in proportion to the distance left (text, not MAX)")
    func revealSlide() {
        let r = SwipeProfile.reveal.reveal
        #expect(r.maxSlideMs == 100 && r.moveClampPx == 5)
        #expect(RevealRow.slideDuration(offset: 0, travel: 200, opening: true, maxSlideMs: 100) == 100)
        #expect(RevealRow.slideDuration(offset: -100, travel: 200, opening: true, maxSlideMs: 100) == 50)
        #expect(RevealRow.slideDuration(offset: -150, travel: 200, opening: true, maxSlideMs: 100) == 25)
        #expect(RevealRow.slideDuration(offset: -200, travel: 200, opening: true, maxSlideMs: 100) == 0)
        #expect(RevealRow.slideDuration(offset: -50, travel: 200, opening: false, maxSlideMs: 100) == 25)
        // The seed's code, MAX(duration, 0.1), would never go below 0.1 s; ours never goes above.
        #expect(RevealRow.slideDuration(offset: 80, travel: 200, opening: true, maxSlideMs: 100) == 100)
        #expect(RevealRow.slideDuration(offset: 80, travel: 200, opening: false, maxSlideMs: 100) == 0)
        #expect(RevealRow.slideDuration(offset: -50, travel: 0, opening: true, maxSlideMs: 100) == 0)
    }

    // MARK: 003 (springList)

    @Test("003: springs of damping 1.0 at 1 Hz; lag = distance from touch / 1000; edge spread = overscroll / 10")
    func springListSeed() {
        let p = SwipeProfile.springList
        #expect(p.springList.spring == SpringParameters(responseMs: 1000, dampingRatio: 1))
        #expect(
            SpringList.lag(scrollDelta: 10, touchY: 500, itemY: 100, resistance: p.springList.scrollResistance) == 4)
        #expect(SpringList.lag(scrollDelta: 10, touchY: 100, itemY: 500, resistance: 1000) == 4)
        #expect(SpringList.lag(scrollDelta: -10, touchY: 300, itemY: 300, resistance: 1000) == 0)
        #expect(
            SpringList.edgeSpread(
                index: 2, count: 5, overscroll: 50, atTop: true, resistance: p.springList.boundaryResistance) == 15)
        #expect(SpringList.edgeSpread(index: 2, count: 5, overscroll: 50, atTop: false, resistance: 10) == -15)
        #expect(SpringList.edgeSpread(index: 0, count: 5, overscroll: 50, atTop: true, resistance: 10) == 5)
        #expect(SpringList.edgeSpread(index: 4, count: 5, overscroll: 50, atTop: false, resistance: 10) == -5)
        // Nothing is ever thrown, however wild the drag.
        #expect(decide(rampTrace(dx: 390, dy: 0), p) == Decision.none)
        #expect(decide(flingTrace(final: 80, slope: 5), p) == Decision.none)
    }

    // MARK: standard motion

    @Test("standard: rotation about the grab point flips in the lower half; overlay ramps 25 % → 100 %")
    func standardMotion() {
        let p = SwipeProfile.standard
        let upper = Motion.rotation(dx: 160, w: 320, h: 440, vw: 390, gy: 100, profile: p)
        let lower = Motion.rotation(dx: 160, w: 320, h: 440, vw: 390, gy: 300, profile: p)
        let centre = Motion.rotation(dx: 160, w: 320, h: 440, vw: 390, gy: 220, profile: p)
        #expect(abs(upper - Double.pi / 20) < 1e-15 && lower == -upper && centre == upper)
        #expect(Motion.overlayOpacity(progress: 0.25, profile: p) == 0)
        #expect(Motion.overlayOpacity(progress: 0.1, profile: p) == 0)
        #expect(Motion.overlayOpacity(progress: 0.625, profile: p) == 0.5)
        #expect(Motion.overlayOpacity(progress: 1, profile: p) == 1)
        #expect(Motion.overlayOpacity(progress: 3, profile: p) == 1)
        #expect(Motion.overlayOpacity(progress: .nan, profile: p) == 0)
        // Throw-out along the release, 1.6 × viewport width away, duration clamped to [180, 480] ms.
        let fast = Motion.throwOut(
            dx: 100, dy: 0, velocity: Velocity(x: 3, y: 4), decision: .right, vw: 500, profile: p)
        #expect(abs(fast.x - (100 + 0.6 * 800)) < 1e-9 && abs(fast.y - 0.8 * 800) < 1e-9)
        #expect(fast.durationMs == 180)
        let slow = Motion.throwOut(
            dx: 100, dy: 0, velocity: Velocity(x: 0.1, y: 0), decision: .right, vw: 500, profile: p)
        #expect(slow.durationMs == 480 && abs(slow.x - 900) < 1e-9)
        let mid = Motion.throwOut(dx: 0, dy: 0, velocity: Velocity(x: 2.5, y: 0), decision: .right, vw: 500, profile: p)
        #expect(abs(mid.durationMs - 320) < 1e-9)
        // Released moving the wrong way: it leaves along the decided direction.
        let back = Motion.throwOut(
            dx: 200, dy: 0, velocity: Velocity(x: -1, y: 0), decision: .right, vw: 500, profile: p)
        #expect(abs(back.x - 1000) < 1e-9 && back.y == 0)
    }
}
