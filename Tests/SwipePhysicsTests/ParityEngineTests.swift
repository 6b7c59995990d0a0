import Foundation
import TestSupport
import Testing

@testable import SwipePhysics

/// The parity corpus for runners other than node: `Tests/Browser/test_engine_parity.py` runs
/// `parity-line.mjs` over it in a page of each browser engine (Chromium, WebKit, Firefox) with the
/// `physics.js` the server ships, and asks these tests for the corpus and for the verdict. Both are
/// off unless their environment variable is set (a plain `swift test` skips them):
///
/// - `SWIPEDECK_PARITY_EXPORT=<dir>`: writes `<dir>/in.jsonl` and `<dir>/profiles.json`;
/// - `SWIPEDECK_PARITY_OUTPUT=<file>`: compares that output with Swift, line by line, by the rules of
///   `ParityTests` (strings equal, numbers bit for bit, springs within 1e-9), and fails on any mismatch.
///
/// `SWIPEDECK_PARITY_LINES` sets the corpus size for both (default `ParityTests.lineCount`); it must be
/// the same for the export and the comparison. `SWIPEDECK_PARITY_RUNNER` names the runner in messages.
@Suite("Parity corpus for the browser engines")
struct ParityEngineTests {
    static let environment = ProcessInfo.processInfo.environment
    static var lineCount: Int { environment["SWIPEDECK_PARITY_LINES"].flatMap { Int($0) } ?? ParityTests.lineCount }

    @Test(
        "writes the parity corpus into $SWIPEDECK_PARITY_EXPORT",
        .enabled(if: environment["SWIPEDECK_PARITY_EXPORT"] != nil))
    func export() async throws {
        let dir = URL(fileURLWithPath: try #require(Self.environment["SWIPEDECK_PARITY_EXPORT"]))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let lineCount = Self.lineCount
        // Seconds of CPU: on a thread of its own, not the concurrency pool's.
        let (count, input) = try await OffPool.run {
            let corpus = ParityCorpus(count: lineCount)
            return (corpus.cases.count, try corpus.write(to: dir).input)
        }
        print("parity corpus: \(count) lines in \(input.path)")
    }

    @Test(
        "the output in $SWIPEDECK_PARITY_OUTPUT equals Swift on every line",
        .enabled(if: environment["SWIPEDECK_PARITY_OUTPUT"] != nil))
    func compareOutput() async throws {
        let path = try #require(Self.environment["SWIPEDECK_PARITY_OUTPUT"])
        let runner = Self.environment["SWIPEDECK_PARITY_RUNNER"] ?? path
        let clock = ContinuousClock()
        let started = clock.now
        let lineCount = Self.lineCount
        let corpus = try await OffPool.run { ParityCorpus(count: lineCount) }
        let generated = clock.now
        let tally = try await OffPool.run {
            corpus.compare(output: try Data(contentsOf: URL(fileURLWithPath: path)), runner: runner)
        }
        try #require(tally.failure == nil, "\(tally.failure ?? "")")
        let diff = tally.diff
        print(
            """
            parity[\(runner)]: \(corpus.cases.count) lines compared (generate \(generated - started), \
            compare \(clock.now - generated)), \(diff.count) mismatches; suspect \(tally.suspects); \
            rejections \(tally.rejections.sorted { $0.key < $1.key })
            """)
        #expect(
            diff.count == 0,
            "\(diff.count) Swift ↔ \(runner) mismatches; the first \(diff.first.count):\n\(diff.report)")
        #expect(
            tally.rejections.count == SwipeRejection.allCases.count + 1 || corpus.cases.count < 10_000,
            "the corpus reached only \(tally.rejections.keys.sorted())")
    }
}
