import Testing

@testable import SwipePhysics

/// Every validation limit just inside, exactly at and just outside its bound, under every profile,
/// mapped to its `SwipeRejection` code; plus the precedence of the checks.
@Suite("Validation limits")
struct ValidationLimitTests {
    static let names = SwipeProfile.all.map(\.name)

    /// Asserts that `checkTrace`, `validate` and `Classification.of` all agree on the outcome:
    /// `expected` (a rejection) or nil (valid).
    func expectOutcome(
        _ tr: Trace, _ profile: SwipeProfile, _ expected: SwipeRejection?, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var checked: SwipeRejection?
        do { try checkTrace(tr, limits: profile.limits) } catch { checked = error }
        #expect(checked == expected, "checkTrace: \(what)", sourceLocation: sourceLocation)
        #expect(rejection(tr, profile) == expected, "validate: \(what)", sourceLocation: sourceLocation)
        let c = Classification.of(tr, claimed: nil, profile: profile)
        #expect(c.rejection == expected, "Classification.of: \(what)", sourceLocation: sourceLocation)
        if expected != nil {
            #expect(
                c.decision == Decision.none && c.velocity == .zero && c.progress == 0 && !c.suspect,
                sourceLocation: sourceLocation)
        }
    }

    static let base = rampTrace(dx: 100, dy: 10, .phone)

    @Test("the rejection codes are the API's wire names")
    func codes() {
        let expected: [SwipeRejection: String] = [
            .malformed: "malformed", .sizeOutOfRange: "size_out_of_range", .tooFewSamples: "too_few_samples",
            .tooLong: "too_long", .nonMonotonicTime: "non_monotonic_time", .tooShort: "too_short",
            .impossibleSpeed: "impossible_speed", .decisionMismatch: "decision_mismatch", .notAThrow: "not_a_throw",
        ]
        #expect(SwipeRejection.allCases.count == expected.count)
        for r in SwipeRejection.allCases {
            #expect(r.rawValue == expected[r])
            #expect(!r.message.isEmpty)
        }
    }

    @Test("limits: the documented defaults", arguments: names)
    func defaults(name: String) {
        let l = SwipeProfile.named(name)!.limits
        #expect(l.minSamples == 3 && l.maxSamples == 1200)
        #expect(l.minDurationMs == 16 && l.maxDurationMs == 10_000)
        #expect(l.maxSpeed == 20 && l.speedWindowMs == 24 && l.pointerSlopPx == 2)
        #expect(l.minCardSize == 16 && l.maxCardSize == 4096)
        #expect(l.minViewport == 100 && l.maxViewport == 16384)
    }

    @Test("samples: min 3, max 1200", arguments: names)
    func sampleCount(name: String) {
        let p = SwipeProfile.named(name)!
        expectOutcome(makeTrace([10], [0], [0], .phone), p, .tooFewSamples, "1 sample")
        expectOutcome(makeTrace([], [], [], .phone), p, .tooFewSamples, "0 samples")
        expectOutcome(makeTrace([0, 40], [0, 200], [0, 0], .phone), p, .tooFewSamples, "2 samples, 200 px in 40 ms")
        expectOutcome(makeTrace([0, 10, 20], [0, 5, 10], [0, 0, 0], .phone), p, nil, "3 samples")
        expectOutcome(makeTrace([0, 10, 20, 30], [0, 5, 10, 15], [0, 0, 0, 0], .phone), p, nil, "4 samples")
        for (n, expected) in [(1199, SwipeRejection?.none), (1200, nil), (1201, .tooLong)] {
            let t = (1...n).map(Double.init)
            expectOutcome(makeTrace(t, t.map { $0 / 100 }, t.map { _ in 0 }, .phone), p, expected, "\(n) samples")
        }
    }

    @Test("duration: first to last at least 16 ms; last at most 10,000 ms", arguments: names)
    func duration(name: String) {
        let p = SwipeProfile.named(name)!
        expectOutcome(
            makeTrace([1, 9, (17.0).nextDown], [0, 1, 2], [0, 0, 0], .phone), p, .tooShort, "just under 16 ms")
        expectOutcome(makeTrace([1, 9, 17], [0, 1, 2], [0, 0, 0], .phone), p, nil, "16 ms")
        expectOutcome(makeTrace([1, 9, (17.0).nextUp], [0, 1, 2], [0, 0, 0], .phone), p, nil, "just over 16 ms")
        expectOutcome(
            makeTrace([0, 5000, (10_000.0).nextDown], [0, 1, 2], [0, 0, 0], .phone), p, nil, "just under 10 s")
        expectOutcome(makeTrace([0, 5000, 10_000], [0, 1, 2], [0, 0, 0], .phone), p, nil, "10 s")
        expectOutcome(
            makeTrace([0, 5000, (10_000.0).nextUp], [0, 1, 2], [0, 0, 0], .phone), p, .tooLong, "just over 10 s")
    }

    @Test("time: starts at or after 0 and strictly increases", arguments: names)
    func monotonic(name: String) {
        let p = SwipeProfile.named(name)!
        expectOutcome(
            makeTrace([(0.0).nextDown, 10, 20], [0, 1, 2], [0, 0, 0], .phone), p, .nonMonotonicTime, "t[0] just below 0"
        )
        expectOutcome(makeTrace([0, 10, 20], [0, 1, 2], [0, 0, 0], .phone), p, nil, "t[0] = 0")
        expectOutcome(makeTrace([-0.0, 10, 20], [0, 1, 2], [0, 0, 0], .phone), p, nil, "t[0] = −0")
        expectOutcome(
            makeTrace([0, 10, 10, 20], [0, 1, 1, 2], [0, 0, 0, 0], .phone), p, .nonMonotonicTime, "repeated time")
        expectOutcome(
            makeTrace([0, 10, (10.0).nextDown, 20], [0, 1, 1, 2], [0, 0, 0, 0], .phone), p, .nonMonotonicTime,
            "one ulp back")
        expectOutcome(
            makeTrace([0, 10, (10.0).nextUp, 20], [0, 1, 1, 2], [0, 0, 0, 0], .phone), p, nil, "one ulp forward")
    }

    @Test("speed: at most 20 px/ms over spans of at least 24 ms, plus 2 px of slop", arguments: names)
    func speed(name: String) {
        let p = SwipeProfile.named(name)!
        // Samples 30 ms apart (more than the window): each is measured from the one before,
        // reach 20 · 30 + 2 = 602 px, compared squared.
        let over = stepUp(from: (602.0).nextUp) { $0 * $0 > 602 * 602 }
        for (d, expected) in [((602.0).nextDown, SwipeRejection?.none), (602, nil), (over, .impossibleSpeed)] {
            expectOutcome(
                makeTrace([30, 60, 90], [0, d, d], [0, 0, 0], .phone), p, expected, "x jump \(d) px in 30 ms")
            expectOutcome(
                makeTrace([30, 60, 90], [0, -d, -d], [0, 0, 0], .phone), p, expected, "x jump \(-d) px in 30 ms")
            expectOutcome(
                makeTrace([30, 60, 90], [0, 0, 0], [0, d, d], .phone), p, expected, "y jump \(d) px in 30 ms")
            // The first sample is measured from the pointerdown point (0, 0) at t = 0.
            expectOutcome(
                makeTrace([30, 60, 90], [d, d, d], [0, 0, 0], .phone), p, expected, "first sample \(d) px at 30 ms")
        }
        // A span shorter than the window counts as 24 ms: reach 20 · 24 + 2 = 482 px, at t = 0 too.
        let overWindow = stepUp(from: (482.0).nextUp) { $0 * $0 > 482 * 482 }
        expectOutcome(makeTrace([0, 10, 20], [482, 482, 482], [0, 0, 0], .phone), p, nil, "482 px at t = 0")
        expectOutcome(
            makeTrace([0, 10, 20], [overWindow, overWindow, overWindow], [0, 0, 0], .phone), p, .impossibleSpeed,
            "over 482 px at t = 0")
        // Diagonals over 30 ms (reach 602 px): a 3-4-5 triangle of 600 px passes, 605 px does not.
        expectOutcome(
            makeTrace([30, 60, 90], [0, 360, 360], [0, 480, 480], .phone), p, nil, "600 px diagonal in 30 ms")
        expectOutcome(
            makeTrace([30, 60, 90], [0, 363, 363], [0, 484, 484], .phone), p, .impossibleSpeed,
            "605 px diagonal in 30 ms")
    }

    @Test("speed: a sample's anchor is the latest sample at least 24 ms before it", arguments: names)
    func speedWindow(name: String) {
        let p = SwipeProfile.named(name)!
        // A browser burst: 30 px in 0.3 ms (100 px/ms between the pair) after a steady 2 px/ms.
        expectOutcome(
            makeTrace([16, 32, 48, 48.3, 64], [32, 64, 96, 126, 128], [0, 0, 0, 0, 0], .phone), p, nil,
            "burst of 30 px in 0.3 ms")
        // Sample 3 (t = 50) is measured from sample 1 (t = 26, exactly 24 ms before): reach 482 px.
        let over = stepUp(from: (482.0).nextUp) { $0 * $0 > 482 * 482 }
        expectOutcome(
            makeTrace([10, 26, 40, 50], [0, 0, 0, 482], [0, 0, 0, 0], .phone), p, nil,
            "482 px from the sample 24 ms before")
        expectOutcome(
            makeTrace([10, 26, 40, 50], [0, 0, 0, over], [0, 0, 0, 0], .phone), p, .impossibleSpeed,
            "over 482 px from the sample 24 ms before")
        // One ulp earlier, sample 1 is less than 24 ms back: the anchor is sample 0 (40 ms back, reach 802 px).
        expectOutcome(
            makeTrace([10, 26, 40, (50.0).nextDown], [0, 0, 0, 682], [0, 0, 0, 0], .phone), p, nil,
            "from sample 0: reach 802 px")
        // Teleporting there and back inside a window is judged by where the pointer ends up.
        expectOutcome(
            makeTrace([16, 20, 21, 40], [0, 400, 0, 10], [0, 0, 0, 0], .phone), p, nil,
            "400 px out and back within 24 ms")
        expectOutcome(
            makeTrace([16, 20, 21, 40], [0, 500, 0, 10], [0, 0, 0, 0], .phone), p, .impossibleSpeed,
            "500 px out within 24 ms")
    }

    @Test("card size: 16…4096 px per side", arguments: names)
    func cardSize(name: String) {
        let p = SwipeProfile.named(name)!
        for (side, expected) in [
            ((16.0).nextDown, SwipeRejection.sizeOutOfRange), (16, nil), ((16.0).nextUp, nil),
            ((4096.0).nextDown, nil), (4096, nil), ((4096.0).nextUp, .sizeOutOfRange),
        ] as [(Double, SwipeRejection?)] {
            var tr = Self.base
            tr.w = side
            tr.gx = 0
            expectOutcome(tr, p, expected, "w = \(side)")
            tr = Self.base
            tr.h = side
            tr.gy = 0
            expectOutcome(tr, p, expected, "h = \(side)")
        }
        var negative = Self.base
        negative.w = -320
        expectOutcome(negative, p, .sizeOutOfRange, "negative width")
    }

    @Test("viewport: 100…16384 px per side", arguments: names)
    func viewport(name: String) {
        let p = SwipeProfile.named(name)!
        for (side, expected) in [
            ((100.0).nextDown, SwipeRejection.sizeOutOfRange), (100, nil), ((100.0).nextUp, nil),
            ((16384.0).nextDown, nil), (16384, nil), ((16384.0).nextUp, .sizeOutOfRange),
        ] as [(Double, SwipeRejection?)] {
            var tr = Self.base
            tr.vw = side
            expectOutcome(tr, p, expected, "vw = \(side)")
            tr = Self.base
            tr.vh = side
            expectOutcome(tr, p, expected, "vh = \(side)")
        }
    }

    @Test("grab point: inside the card, edges included", arguments: names)
    func grabPoint(name: String) {
        let p = SwipeProfile.named(name)!
        let w = Self.base.w
        let h = Self.base.h
        for (gx, expected) in [
            ((0.0).nextDown, SwipeRejection.sizeOutOfRange), (0, nil), (w, nil), (w.nextUp, .sizeOutOfRange),
        ] as [(Double, SwipeRejection?)] {
            var tr = Self.base
            tr.gx = gx
            expectOutcome(tr, p, expected, "gx = \(gx)")
        }
        for (gy, expected) in [
            ((0.0).nextDown, SwipeRejection.sizeOutOfRange), (0, nil), (h, nil), (h.nextUp, .sizeOutOfRange),
        ] as [(Double, SwipeRejection?)] {
            var tr = Self.base
            tr.gy = gy
            expectOutcome(tr, p, expected, "gy = \(gy)")
        }
    }

    @Test("malformed: NaN or infinity anywhere, or arrays of different lengths", arguments: names)
    func malformed(name: String) {
        let p = SwipeProfile.named(name)!
        expectOutcome(Self.base, p, nil, "the base trace")
        var tr = Self.base
        tr.x.removeLast()
        expectOutcome(tr, p, .malformed, "x shorter")
        tr = Self.base
        tr.y.append(0)
        expectOutcome(tr, p, .malformed, "y longer")
        tr = Self.base
        tr.t.append(tr.t.last! + 16)
        expectOutcome(tr, p, .malformed, "t longer")
        for bad in [Double.nan, .infinity, -.infinity, .signalingNaN] {
            for i in [0, 5, Self.base.count - 1] {
                for field in [\Trace.t, \Trace.x, \Trace.y] as [WritableKeyPath<Trace, [Double]>] {
                    tr = Self.base
                    tr[keyPath: field][i] = bad
                    expectOutcome(tr, p, .malformed, "\(bad) in sample \(i) of \(field)")
                }
            }
            for field in [\Trace.w, \Trace.h, \Trace.vw, \Trace.vh, \Trace.gx, \Trace.gy]
                as [WritableKeyPath<Trace, Double>]
            {
                tr = Self.base
                tr[keyPath: field] = bad
                expectOutcome(tr, p, .malformed, "\(bad) in \(field)")
            }
            tr = Self.base
            tr.ox = bad
            expectOutcome(tr, p, .malformed, "\(bad) in ox")
            tr = Self.base
            tr.oy = bad
            expectOutcome(tr, p, .malformed, "\(bad) in oy")
        }
    }

    @Test("precedence: the checks run in a fixed order and the first broken rule wins")
    func precedence() {
        let p = SwipeProfile.standard
        // Malformed beats everything, including a size out of range and too few samples.
        var tr = makeTrace([Double.nan], [0], [0], .phone)
        tr.w = 1
        expectOutcome(tr, p, .malformed, "NaN + tiny card + 1 sample")
        // Size beats sample count.
        tr = makeTrace([10], [0], [0], .phone)
        tr.vw = 10
        expectOutcome(tr, p, .sizeOutOfRange, "tiny viewport + 1 sample")
        // Too few samples beats broken time and too short.
        expectOutcome(makeTrace([5, 4], [0, 500], [0, 0], .phone), p, .tooFewSamples, "2 samples, backwards")
        // Too many samples beats broken time.
        let t = (1...1201).map { Double($0 % 7) }
        expectOutcome(makeTrace(t, t, t, .phone), p, .tooLong, "1201 samples, time going backwards")
        // Broken time beats too short, too long (duration) and impossible speed.
        expectOutcome(
            makeTrace([5, 4, 6], [0, 900, 900], [0, 0, 0], .phone), p, .nonMonotonicTime, "backwards + teleport")
        expectOutcome(
            makeTrace([0, 40000, 39000], [0, 0, 0], [0, 0, 0], .phone), p, .nonMonotonicTime, "backwards + 40 s")
        // Too short beats impossible speed; too long (duration) beats impossible speed.
        expectOutcome(makeTrace([1, 2, 3], [0, 900, 900], [0, 0, 0], .phone), p, .tooShort, "2 ms + teleport")
        expectOutcome(makeTrace([0, 5000, 11000], [0, 1e9, 1e9], [0, 0, 0], .phone), p, .tooLong, "11 s + teleport")
    }

    @Test("claims: a wrong claim is a mismatch, a claim on a spring-back is not a throw")
    func claims() throws {
        let thrown = rampTrace(dx: 200, dy: 0)
        let back = rampTrace(dx: 20, dy: 0)
        #expect(try validate(thrown, claimed: .right, profile: .standard).decision == .right)
        #expect(try validate(back, claimed: Decision.none, profile: .standard).decision == Decision.none)
        #expect(throws: SwipeRejection.decisionMismatch) { try validate(thrown, claimed: .left, profile: .standard) }
        #expect(throws: SwipeRejection.decisionMismatch) {
            try validate(thrown, claimed: Decision.none, profile: .standard)
        }
        #expect(throws: SwipeRejection.decisionMismatch) { try validate(thrown, claimed: .up, profile: .standard) }
        #expect(throws: SwipeRejection.notAThrow) { try validate(back, claimed: .left, profile: .standard) }
        // Classification keeps the model's own decision next to the rejection.
        let c = Classification.of(thrown, claimed: .left, profile: .standard)
        #expect(c.decision == .right && c.rejection == .decisionMismatch)
        let d = Classification.of(back, claimed: .right, profile: .standard)
        #expect(d.decision == Decision.none && d.rejection == .notAThrow)
        // A shape rejection wins over any claim.
        #expect(throws: SwipeRejection.tooFewSamples) {
            try validate(makeTrace([1], [0], [0]), claimed: .left, profile: .standard)
        }
    }
}
