import Foundation
import Testing

@testable import SwipePhysics

/// `Tests/Fixtures/real-input.jsonl`: flicks recorded through Chromium's own input pipeline by
/// `scripts/measure_traces.py` (touch at 390×844 and mouse at 1280×800; moves stamped by the device
/// plan or by the browser as they arrived, bursts included), each the page threw, one
/// `{"profile","input","claimed","trace"}` per line. `Tests/js/real-input.test.mjs` checks the
/// same lines with `physics.js`.
@Suite("Real input: recorded flicks pass every trace rule")
struct RealInputTests {
    struct Line: Decodable {
        var profile: String
        var input: String
        var claimed: Decision
        var trace: Trace
    }

    static let text =
        (try? String(
            contentsOf: parityRepoRoot.appendingPathComponent("Tests/Fixtures/real-input.jsonl"), encoding: .utf8))
        ?? ""
    static let lines: [Line] = text.split(separator: "\n").compactMap {
        try? JSONDecoder().decode(Line.self, from: Data($0.utf8))
    }

    /// Two consecutive samples under 1 ms and at least 8 px apart: a burst stamped as it arrived.
    static func hasBurst(_ tr: Trace) -> Bool {
        (1..<tr.count).contains { i in
            let dx = tr.x[i] - tr.x[i - 1]
            let dy = tr.y[i] - tr.y[i - 1]
            return tr.t[i] - tr.t[i - 1] < 1 && dx * dx + dy * dy >= 64
        }
    }

    @Test("the corpus holds touch and mouse flicks, with bursts a per-pair speed rule would refuse")
    func corpus() {
        #expect(
            Self.lines.count == Self.text.split(separator: "\n").count, "a line of real-input.jsonl does not decode")
        #expect(Self.lines.count >= 40)
        #expect(Set(Self.lines.map { $0.input.split(separator: " ")[0] }) == ["touch", "mouse"])
        #expect(Self.lines.filter { Self.hasBurst($0.trace) }.count >= 20)
        // Judged pair by pair (20 px/ms × the pair's interval + 2 px, from the pointerdown point first),
        // these are teleports: the rule before the window refused them.
        let teleports = Self.lines.filter { line in
            let tr = line.trace
            return (0..<tr.count).contains { i in
                let dx = tr.x[i] - (i > 0 ? tr.x[i - 1] : 0)
                let dy = tr.y[i] - (i > 0 ? tr.y[i - 1] : 0)
                let reach = 20 * (tr.t[i] - (i > 0 ? tr.t[i - 1] : 0)) + 2
                return dx * dx + dy * dy > reach * reach
            }
        }
        #expect(teleports.count >= 20)
        // The fastest flicks: the fewest samples and the shortest gesture the limits must let through.
        #expect(Self.lines.map(\.trace.count).min() == 3)
        #expect(Self.lines.map { $0.trace.t[$0.trace.count - 1] - $0.trace.t[0] }.min()! < 30)
    }

    @Test("every recorded flick validates with the page's claim", arguments: 0..<lines.count)
    func validates(index: Int) throws {
        let line = Self.lines[index]
        let profile = try #require(SwipeProfile.named(line.profile))
        let verdict = try validate(line.trace, claimed: line.claimed, profile: profile)
        #expect(verdict.decision == line.claimed && verdict.decision != .none)
    }
}
