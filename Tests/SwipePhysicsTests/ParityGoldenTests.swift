import Foundation
import Testing

@testable import SwipePhysics

/// Fixtures shared with the node tests (`node --test Tests/js/`):
/// - `Tests/Fixtures/profiles.json`: `SwipeProfile.all` as Swift encodes it (sorted keys, pretty);
/// - `Tests/Fixtures/golden.jsonl`: hand-picked `swipedeck classify` lines with the classification
///   Swift gave when the file was generated, one `{"profile","note","input","expected"}` per line,
///   covering every profile and every rejection code.
///
/// Both are generated from this file. After a deliberate change to the model or to the inputs below,
/// regenerate with `SWIPEDECK_REGENERATE_FIXTURES=1 swift test --filter ParityGolden`, review the
/// diff, and commit it.
@Suite("Parity fixtures: golden vectors and profiles.json")
struct ParityGoldenTests {
    static let fixtures = parityRepoRoot.appendingPathComponent("Tests/Fixtures")
    static let regenerate = ProcessInfo.processInfo.environment["SWIPEDECK_REGENERATE_FIXTURES"] == "1"
    static let howToRegenerate =
        "regenerate with `SWIPEDECK_REGENERATE_FIXTURES=1 swift test --filter ParityGolden`, review the diff and commit it"

    // MARK: profiles.json

    static func profilesJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(SwipeProfile.all) + Data("\n".utf8)
    }

    @Test("Tests/Fixtures/profiles.json is the current encoding of SwipeProfile.all")
    func profilesFixtureIsCurrent() throws {
        let url = Self.fixtures.appendingPathComponent("profiles.json")
        let current = try Self.profilesJSON()
        if Self.regenerate { try current.write(to: url) }
        let committed = try Data(contentsOf: url)
        #expect(
            committed == current,
            "Tests/Fixtures/profiles.json is stale (SwipeProfile changed): \(Self.howToRegenerate)")
    }

    // MARK: golden.jsonl

    /// One golden input: the profile, a note for people, and the `swipedeck classify` line.
    struct Input {
        var profile: String
        var note: String
        var line: String
    }

    /// Builds a trace: `n` samples `dt` ms apart from `t0`, easing out from the pointerdown point to
    /// (`x`, `y`) (positions rounded to 0.5 px), on a 320×440 card in a 390×844 viewport by default.
    static func drag(
        _ n: Int, dt: Double = 16, to x: Double, _ y: Double, t0: Double = 0,
        w: Double = 320, h: Double = 440, vw: Double = 390, vh: Double = 844, gx: Double = 160, gy: Double = 220,
        ox: Double? = nil, hold: Double = 0
    ) -> Trace {
        var t: [Double] = []
        var xs: [Double] = []
        var ys: [Double] = []
        if hold > 0 {
            var now = t0
            while now < t0 + hold {
                t.append(now)
                xs.append(0)
                ys.append(0)
                now += dt
            }
        }
        let start = t.last.map { $0 + dt } ?? t0
        for i in 0..<n {
            let s = n == 1 ? 1 : Double(i) / Double(n - 1)
            let f = s * (2 - s)
            t.append(start + Double(i) * dt)
            xs.append((f * x * 2).rounded() / 2)
            ys.append((f * y * 2).rounded() / 2)
        }
        return Trace(t: t, x: xs, y: ys, w: w, h: h, vw: vw, vh: vh, gx: gx, gy: gy, ox: ox)
    }

    static func input(
        _ profile: String, _ note: String, _ tr: Trace, claimed: String? = nil,
        edit: (inout ParityRawTrace) -> Void = { _ in }
    ) -> Input {
        var raw = ParityRawTrace(tr)
        edit(&raw)
        return Input(
            profile: profile, note: note,
            line: "{\"trace\":\(raw.json)" + (claimed.map { ",\"claimed\":\($0)" } ?? "") + "}")
    }

    /// The hand-picked inputs (about 40): every profile, every rejection code, the seeds' quirks.
    static var goldenInputs: [Input] {
        let right = drag(12, to: 150, 10)
        let back = drag(10, dt: 20, to: 60, 5)
        let machine = Trace(
            t: [0, 16, 32, 48, 64, 80], x: [0, 8, 16, 24, 32, 40], y: [0, 2, 4, 6, 8, 10], w: 320, h: 440, vw: 390,
            vh: 844, gx: 160, gy: 220)
        return [
            input("standard", "thrown right by distance", right, claimed: "\"right\""),
            input("standard", "thrown right, no claim", right),
            input("standard", "short fast fling left", drag(4, to: -40, 3), claimed: "\"left\""),
            input("standard", "springs back, claim none", back, claimed: "\"none\""),
            input("standard", "springs back, claim right: not_a_throw", back, claimed: "\"right\""),
            input("standard", "thrown right, claim left: decision_mismatch", right, claimed: "\"left\""),
            input(
                "standard", "straight up with left/right only springs back; claim up: not_a_throw",
                drag(10, to: 4, -300), claimed: "\"up\""),
            input("standard", "grabbed low, thrown left", drag(14, to: -200, 40, gy: 400), claimed: "\"left\""),
            input("standard", "NaN in x: malformed", right, claimed: "\"right\"") {
                $0.set("x", "[0,1,\"NaN\",3,4,5,6,7,8,9,10,11]")
            },
            input("standard", "\"Infinity\" card width: malformed", right) { $0.set("w", "\"Infinity\"") },
            input("standard", "missing w: malformed", right) { $0.set("w", nil) },
            input("standard", "t is not an array: malformed", right) { $0.set("t", "\"0,16\"") },
            input("standard", "unknown claim: malformed", right, claimed: "\"sideways\""),
            input("standard", "arrays of different lengths: malformed", right) { $0.set("y", "[0,1]") },
            input("standard", "ox null counts as absent", right, claimed: "\"right\"") { $0.set("ox", "null") },
            input("standard", "card narrower than 16 px: size_out_of_range", drag(6, to: 5, 0, w: 15, gx: 7)),
            input("standard", "grab point outside the card: size_out_of_range", drag(6, to: 100, 0, gx: 321)),
            input("standard", "viewport of 99 px: size_out_of_range", drag(6, to: 100, 0, vw: 99)),
            input("standard", "one sample: too_few_samples", drag(1, to: 10, 0)),
            input(
                "standard", "two samples, 200 px in 40 ms: too_few_samples", drag(2, dt: 40, to: 200, 0),
                claimed: "\"right\""),
            input("standard", "last sample after 10 s: too_long", drag(5, dt: 20, to: 150, 0, t0: 9_950)),
            input("standard", "time repeats: non_monotonic_time", right) {
                $0.set("t", "[0,16,32,48,48,80,96,112,128,144,160,176]")
            },
            input("standard", "negative first time: non_monotonic_time", drag(5, to: 150, 0, t0: -1)),
            input("standard", "10 ms gesture: too_short", drag(3, dt: 5, to: 3, 0)),
            input("standard", "teleport: impossible_speed", right) {
                $0.set("x", "[0,30,55,76,94,108,119,900,140,146,149,150]")
            },
            input(
                "standard", "recorded touch flick, a burst 0.2 ms and 15 px apart: thrown (real-input.jsonl)",
                Trace(
                    t: [0, 33.39999999990687, 33.60000000009313], x: [0, 56.933929443359375, 72.2080078125],
                    y: [0, -10.884613037109375, -14.198699951171875], w: 359, h: 560, vw: 390, vh: 844,
                    gx: 136.2263946533203, gy: 277.3879089355469, ox: 151.8357696533203), claimed: "\"right\""),
            input("standard", "machine-like straight constant-speed trace: suspect", machine),
            input("standard", "16 px card", drag(6, to: 8, 1, w: 16, h: 16, gx: 8, gy: 8), claimed: "\"right\""),
            input(
                "standard", "4096 px card",
                drag(20, to: -2000, 30, w: 4096, h: 4096, vw: 8000, vh: 8000, gx: 2048, gy: 2048), claimed: "\"left\""),
            input(
                "classic", "x/width past 0.4 with |y|/height past 0.02: right", drag(16, to: 180, 30),
                claimed: "\"right\""),
            input(
                "classic", "dead-level drag throws (the seed's y condition dropped, issue 26)", drag(16, to: 180, 0),
                claimed: "\"right\""),
            input("classic", "left", drag(16, to: -200, -40), claimed: "\"left\""),
            input(
                "zone", "long press, then released past the left inner edge", drag(10, to: -140, 10, ox: 195, hold: 64),
                claimed: "\"left\""),
            input(
                "zone", "moved at once (no long press): springs back", drag(10, to: -140, 10, ox: 195),
                claimed: "\"left\""),
            input(
                "zone", "long press, released past the right inner edge", drag(10, to: 130, 0, ox: 200, hold: 64),
                claimed: "\"right\""),
            input("eightway", "up-left diagonal", drag(10, to: -120, -160), claimed: "\"up_left\""),
            input("eightway", "down", drag(10, to: 5, 200), claimed: "\"down\""),
            input("eightway", "right but short of 60%: springs back", drag(10, to: 80, 0), claimed: "\"none\""),
            input("eightway", "up-right, claim up: decision_mismatch", drag(10, to: 120, -160), claimed: "\"up\""),
            input("reveal", "swipe left opens the row", drag(8, to: -90, 2)),
            input("reveal", "swipe right closes the row", drag(8, to: 90, 0), claimed: "\"right\""),
            input("reveal", "5 px is a tap, not a swipe", drag(4, to: -5, 0), claimed: "\"left\""),
            input("springList", "nothing is ever thrown", right, claimed: "\"right\""),
            input("springList", "claim none", back, claimed: "\"none\""),
        ]
    }

    /// `golden.jsonl` as Swift computes it now.
    static func goldenJSONL() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try goldenInputs.map { g in
            let profile = try #require(SwipeProfile.named(g.profile))
            let expected = Classification.of(line: Data(g.line.utf8), profile: profile)
            let note = String(decoding: try encoder.encode(g.note), as: UTF8.self)
            let exp = String(decoding: try encoder.encode(expected), as: UTF8.self)
            return "{\"profile\":\"\(g.profile)\",\"note\":\(note),\"input\":\(g.line),\"expected\":\(exp)}\n"
        }.joined()
    }

    /// A golden line as read back: `input` through the same decoding as `Classification.of(line:)`
    /// (anything it refuses is `malformed`).
    struct GoldenLine: Decodable {
        struct Input: Decodable {
            var line: Classification.Line?
            init(from decoder: any Decoder) throws { line = try? Classification.Line(from: decoder) }
        }
        var profile: String
        var note: String
        var input: Input
        var expected: Classification
    }

    @Test("every golden vector classifies as committed, and the file is current")
    func goldenVectors() throws {
        let url = Self.fixtures.appendingPathComponent("golden.jsonl")
        let current = try Self.goldenJSONL()
        if Self.regenerate { try Data(current.utf8).write(to: url) }
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count >= 40)
        var rejections = Set<String>()
        var profiles = Set<String>()
        var suspect = false
        for (i, line) in lines.enumerated() {
            let g = try JSONDecoder().decode(GoldenLine.self, from: Data(line.utf8))
            let profile = try #require(SwipeProfile.named(g.profile), "line \(i + 1): unknown profile \(g.profile)")
            let got =
                g.input.line.map { Classification.of($0.trace, claimed: $0.claimed, profile: profile) } ?? .malformed
            let e = g.expected
            let same =
                got == e && got.velocity.x.bitPattern == e.velocity.x.bitPattern
                && got.velocity.y.bitPattern == e.velocity.y.bitPattern
                && got.progress.bitPattern == e.progress.bitPattern
            #expect(
                same,
                "golden line \(i + 1) (\(g.profile): \(g.note)): expected \(e), Swift now gives \(got); \(Self.howToRegenerate) if the change is intended"
            )
            rejections.insert(e.rejection?.rawValue ?? "null")
            profiles.insert(g.profile)
            suspect = suspect || e.suspect
        }
        #expect(
            rejections.isSuperset(of: SwipeRejection.allCases.map(\.rawValue) + ["null"]),
            "golden.jsonl lacks rejections: \(rejections)")
        #expect(profiles == Set(SwipeProfile.all.map(\.name)), "golden.jsonl lacks profiles: \(profiles)")
        #expect(suspect, "golden.jsonl has no suspect trace")
        #expect(
            text == current,
            "Tests/Fixtures/golden.jsonl differs from its inputs in ParityGoldenTests.goldenInputs: \(Self.howToRegenerate)"
        )
    }
}
