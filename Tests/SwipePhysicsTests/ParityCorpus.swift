import Foundation
import Testing

@testable import SwipePhysics

/// The generated parity corpus and its comparison, shared by every runner of `physics.js`: node
/// (`ParityTests`) and the browser engines (`ParityEngineTests`, driven by
/// `Tests/Browser/test_engine_parity.py`). The corpus is a pure function of the seed and the line count,
/// so a runner's output file can be compared by generating the corpus again.
struct ParityCorpus: Sendable {
    static let seed: UInt64 = 0x5EED_CA4D_D00D_2024

    /// The cases, in line order.
    var cases: [ParityCase]
    /// The runner's input: one `ParityCase.line` per line.
    var text: String

    /// `count` lines from `seed`, spread evenly over `SwipeProfile.all`.
    init(count: Int, seed: UInt64 = ParityCorpus.seed) {
        var generator = ParityGenerator(seed: seed)
        cases = []
        cases.reserveCapacity(count)
        text = ""
        text.reserveCapacity(count * 700)
        for i in 0..<count {
            let c = generator.next(i)
            text += c.line
            text += "\n"
            cases.append(c)
        }
    }

    /// Writes the runner's inputs into `dir`: `in.jsonl` and `profiles.json` (`SwipeProfile.all`).
    func write(to dir: URL) throws -> (input: URL, profiles: URL) {
        let input = dir.appendingPathComponent("in.jsonl")
        let profiles = dir.appendingPathComponent("profiles.json")
        try Data(text.utf8).write(to: input)
        try JSONEncoder().encode(SwipeProfile.all).write(to: profiles)
        return (input, profiles)
    }

    /// What a comparison found: the mismatches, and how often each rule and outcome came up (Swift's side).
    struct Tally: Sendable {
        var diff = ParityDiff()
        var rejections: [String: Int] = [:]
        var decisions: [String: Int] = [:]
        var suspects = 0
        /// Set when the output could not be compared at all (wrong number of lines).
        var failure: String?
    }

    /// Compares a runner's output (`parity-line.mjs` format, one line per case) with Swift, by the rules of
    /// `ParityTests`.
    func compare(output: Data, runner: String) -> Tally {
        var tally = Tally()
        let lines = parityLines(output)
        guard lines.count == cases.count else {
            tally.failure = "\(runner) wrote \(lines.count) lines for \(cases.count) inputs"
            return tally
        }
        let decoder = JSONDecoder()
        let diff = tally.diff
        for i in cases.indices {
            let c = cases[i]
            let out = lines[i]
            diff.begin(line: i + 1, input: c.line)
            let p = SwipeProfile.all[c.profile]
            let swift: Classification
            if let d = c.decoded {
                swift = Classification.of(d.trace, claimed: d.claimed, profile: p)
                if i % 8 == 0 {
                    // The generator's JSON must decode to exactly the trace it was written from.
                    let viaJSON = Classification.of(line: Data(c.input.utf8), profile: p)
                    if viaJSON != swift || viaJSON.progress.bitPattern != swift.progress.bitPattern {
                        diff.note("Swift decode round trip", "\(swift)", "via JSON: \(viaJSON)")
                    }
                }
            } else {
                swift = Classification.of(line: Data(c.input.utf8), profile: p)
            }
            let js: ParityOutput
            do {
                js = try decoder.decode(ParityOutput.self, from: Data(out))
            } catch {
                diff.note("output", "-", "undecodable: \(error) in \(String(decoding: out, as: UTF8.self))")
                continue
            }
            ParityTests.compare(swift, js, aux: c.aux, profile: p, diff: diff)
            tally.rejections[swift.rejection?.rawValue ?? "null", default: 0] += 1
            tally.decisions["\(p.name)/\(swift.decision.rawValue)", default: 0] += 1
            if swift.suspect { tally.suspects += 1 }
        }
        return tally
    }
}
