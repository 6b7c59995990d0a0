import Foundation
import TestSupport
import Testing

@testable import SwipePhysics

/// Swift ↔ JavaScript parity: generated traces go through `Classification.of` here and through
/// `Classification.ofLine` of `Public/js/physics.js` under node (`Tests/js/parity-runner.mjs`), and every result
/// is compared.
///
/// Comparison rules:
/// - decisions, candidates and rejection codes: identical strings;
/// - velocity, progress, rotation, overlay opacity, throw-out, stack slots, reveal and spring-list
///   values, entrance: identical bits (`Double.bitPattern`), NaN equal to NaN. The sign of zero is
///   compared too: the runner writes -0 as the string "-0" because `JSON.stringify(-0)` prints `0`;
/// - spring positions, velocities and settle times (exp/sin/cos may differ in the last ulp between
///   libm and V8): within 1e-9 × max(1, |Swift value|).
@Suite("Swift ↔ physics.js parity")
struct ParityTests {
    /// Number of generated lines (spread evenly over `SwipeProfile.all`).
    static let lineCount = 102_000

    @Test("generated traces: Swift and physics.js agree on every classification, motion, stack and spring value")
    func generatedTraces() async throws {
        let node = try #require(
            parityFindNode(),
            "`node` was not found on PATH: the Swift ↔ physics.js parity tests need Node.js (>= 18), e.g. `apt-get install nodejs`."
        )
        let clock = ContinuousClock()
        let started = clock.now
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("swipedeck-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        // SWIPEDECK_PARITY_KEEP=1 keeps the generated files for a look (their path is printed).
        let keep = ProcessInfo.processInfo.environment["SWIPEDECK_PARITY_KEEP"] != nil
        defer {
            if keep { print("parity files kept in \(dir.path)") } else { try? FileManager.default.removeItem(at: dir) }
        }

        // 1. Generate the input lines: seconds of CPU, on a thread of their own (not the pool's).
        let lineCount = Self.lineCount
        let (corpus, input, profiles) = try await OffPool.run {
            let corpus = ParityCorpus(count: lineCount)
            let (input, profiles) = try corpus.write(to: dir)
            return (corpus, input, profiles)
        }
        let output = dir.appendingPathComponent("out.jsonl")
        let generated = clock.now
        let generatedCPU = cpuSeconds(children: false)

        // 2. Run physics.js over them.
        let runner = parityRepoRoot.appendingPathComponent("Tests/js/parity-runner.mjs")
        let ran = try await ChildProcess.run(
            node, [runner.path, input.path, output.path, profiles.path], in: parityRepoRoot)
        try #require(ran.status == 0, "parity-runner.mjs failed (exit \(ran.status)):\n\(ran.errorText)\(ran.text)")
        let nodeEnded = clock.now

        // 3. Compare, off the pool too.
        let tally = try await OffPool.run {
            corpus.compare(output: try Data(contentsOf: output), runner: "parity-runner.mjs")
        }
        if let failure = tally.failure {
            Issue.record(Comment(rawValue: failure))
            return
        }
        let diff = tally.diff
        let rejections = tally.rejections
        let decisions = tally.decisions
        let suspects = tally.suspects
        let compared = clock.now
        print(
            """
            parity: \(corpus.cases.count) lines in \(compared - started) (generate \(generated - started), node \(nodeEnded - generated), \
            compare \(compared - nodeEnded); CPU: Swift \(generatedCPU) + \(cpuSeconds(children: false)) s, node \(cpuSeconds(children: true)) s), \
            \(diff.count) mismatches; suspect \(suspects); rejections \(rejections.sorted { $0.key < $1.key })
            """)

        #expect(
            diff.count == 0,
            "\(diff.count) Swift ↔ physics.js mismatches; the first \(diff.first.count):\n\(diff.report)")

        // The generator must actually reach every rule: each rejection code and every outcome.
        for r in SwipeRejection.allCases {
            #expect(
                rejections[r.rawValue, default: 0] >= 50,
                "only \(rejections[r.rawValue, default: 0]) lines rejected as \(r.rawValue)")
        }
        #expect(rejections["null", default: 0] >= 10_000)
        #expect(suspects >= 100)
        for d in Decision.allCases {
            #expect(decisions["eightway/\(d.rawValue)", default: 0] >= 20, "eightway never decided \(d.rawValue)")
        }
        for name in ["standard", "classic", "zone", "reveal"] {
            for d in [Decision.none, .left, .right] {
                #expect(decisions["\(name)/\(d.rawValue)", default: 0] >= 20, "\(name) rarely decided \(d.rawValue)")
            }
        }
    }

    /// What the runner computes for one line besides `Classification.ofLine`, in its order: the strings ("s"),
    /// then the numbers ("n") with their names and whether they are compared within 1e-9 (springs).
    static func extras(_ c: Classification, aux a: ParityAux, profile p: SwipeProfile) -> (
        strings: [String], numbers: [(name: String, value: Double, close: Bool)]
    ) {
        let shapeRules: Set<SwipeRejection> = [
            .malformed, .sizeOutOfRange, .tooFewSamples, .tooLong, .nonMonotonicTime, .tooShort, .impossibleSpeed,
        ]
        let valid = !(c.rejection.map(shapeRules.contains) ?? false)
        let progress = valid ? c.progress : a.pr
        let velocity = valid ? c.velocity : Velocity(x: a.vx, y: a.vy)
        let decision = c.decision != .none ? c.decision : a.d
        let ds = DragState.of(dx: a.dx, dy: a.dy, w: a.w, h: a.h, vw: a.vw, vh: a.vh, ox: a.ox, profile: p)
        let th = Motion.throwOut(dx: a.dx, dy: a.dy, velocity: velocity, decision: decision, vw: a.vw, profile: p)
        var n: [(String, Double, Bool)] = [
            ("DragState.of.progress", ds.progress, false),
            ("Motion.rotation", Motion.rotation(dx: a.dx, w: a.w, h: a.h, vw: a.vw, gy: a.gy, profile: p), false),
            ("Motion.overlayOpacity", Motion.overlayOpacity(progress: progress, profile: p), false),
            ("Motion.throwOut.x", th.x, false), ("Motion.throwOut.y", th.y, false),
            ("Motion.throwOut.durationMs", th.durationMs, false),
        ]
        for depth in 0...3 {
            let s = StackSlot.at(depth: depth, count: a.count, w: a.w, stack: p.stack)
            n += [
                ("StackSlot.at[\(depth)].depth", Double(s.depth), false),
                ("StackSlot.at[\(depth)].scaleX", s.scaleX, false),
                ("StackSlot.at[\(depth)].scaleY", s.scaleY, false),
                ("StackSlot.at[\(depth)].translateX", s.translateX, false),
                ("StackSlot.at[\(depth)].translateY", s.translateY, false),
                ("StackSlot.at[\(depth)].opacity", s.opacity, false),
                ("StackSlot.at[\(depth)].zIndex", Double(s.zIndex), false),
            ]
        }
        let spring = DampedSpring([p.returnSpring, p.springList.spring, a.spring][a.k])
        for t in a.ts {
            let s = spring.state(at: t, x0: a.x0, v0: a.v0)
            n += [
                ("spring[\(a.k)](t=\(t)).position", s.position, true),
                ("spring[\(a.k)](t=\(t)).velocity", s.velocity, true),
            ]
        }
        n.append(("spring[\(a.k)].settleTime", spring.settleTime(x0: a.x0, v0: a.v0), true))
        n.append(
            (
                "RevealRow.slideDuration",
                RevealRow.slideDuration(
                    offset: a.off, travel: a.travel, opening: a.opening, maxSlideMs: p.reveal.maxSlideMs), false
            ))
        n.append(
            (
                "SpringList.lag",
                SpringList.lag(scrollDelta: a.sd, touchY: a.ty, itemY: a.iy, resistance: p.springList.scrollResistance),
                false
            ))
        n.append(
            (
                "SpringList.edgeSpread",
                SpringList.edgeSpread(
                    index: a.idx, count: a.cnt, overscroll: a.os, atTop: a.top,
                    resistance: p.springList.boundaryResistance), false
            ))
        let en = Motion.entrance(a.r1, a.r2, a.r3)
        n += [
            ("Motion.entrance.x", en.x, false), ("Motion.entrance.y", en.y, false),
            ("Motion.entrance.rotation", en.rotation, false),
        ]
        let strings = [
            ds.candidate.rawValue,
            RevealRow.direction(of: a.xs, clampPx: p.reveal.moveClampPx, samples: p.reveal.moveSamples).rawValue,
        ]
        return (strings, n)
    }

    /// Compares one line's Swift results with the runner's.
    static func compare(
        _ c: Classification, _ js: ParityOutput, aux a: ParityAux, profile p: SwipeProfile, diff: ParityDiff
    ) {
        diff.same("decision", c.decision.rawValue, js.c.decision)
        diff.same("rejection", c.rejection?.rawValue ?? "null", js.c.rejection ?? "null")
        diff.same("suspect", "\(c.suspect)", "\(js.c.suspect)")
        diff.exact("velocity.x", c.velocity.x, js.c.velocity.x.value)
        diff.exact("velocity.y", c.velocity.y, js.c.velocity.y.value)
        diff.exact("progress", c.progress, js.c.progress.value)
        let (strings, numbers) = extras(c, aux: a, profile: p)
        diff.same("[DragState.of.candidate, RevealRow.direction]", "\(strings)", "\(js.s)")
        let jsNumbers = js.numbers
        guard numbers.count == jsNumbers.count else {
            diff.note("numbers", "\(numbers.count) values", "\(jsNumbers.count) values: \(js.n)")
            return
        }
        for i in numbers.indices {
            let e = numbers[i]
            if e.close { diff.close(e.name, e.value, jsNumbers[i]) } else { diff.exact(e.name, e.value, jsNumbers[i]) }
        }
    }
}

// MARK: - Running node

/// User + system CPU seconds of this process, or of its finished children (node).
func cpuSeconds(children: Bool) -> String {
    var u = rusage()
    #if canImport(Glibc)
        getrusage(children ? RUSAGE_CHILDREN.rawValue : RUSAGE_SELF.rawValue, &u)
    #else
        getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &u)
    #endif
    let s = Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
    return String(format: "%.1f", s)
}

/// The repository root, from this file's path (`Tests/SwipePhysicsTests/ParityTests.swift`).
let parityRepoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// `node` on PATH (or in the usual places), nil when there is none.
func parityFindNode() -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let dirs = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"]
    for dir in dirs where !dir.isEmpty {
        let url = URL(fileURLWithPath: dir).appendingPathComponent("node")
        if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
}

// MARK: - The runner's output

/// A number from the runner: a JSON number, or "-0", "NaN", "Infinity", "-Infinity".
struct ParityNumber: Decodable {
    var value: Double

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let d = try? c.decode(Double.self) {
            value = d
            return
        }
        switch try c.decode(String.self) {
        case "-0": value = -0.0
        case "NaN": value = .nan
        case "Infinity": value = .infinity
        case "-Infinity": value = -.infinity
        case let s: throw DecodingError.dataCorruptedError(in: c, debugDescription: "not a number: \(s)")
        }
    }
}

/// One output line of the runner (see `Tests/js/parity-runner.mjs`).
struct ParityOutput: Decodable {
    struct XY: Decodable { var x, y: ParityNumber }
    struct Classified: Decodable {
        var decision: String
        var velocity: XY
        var progress: ParityNumber
        var rejection: String?
        var suspect: Bool
    }

    /// `Classification.ofLine`'s result.
    var c: Classified
    /// `DragState.of`'s candidate and `RevealRow.direction`.
    var s: [String]
    /// The numbers of `ParityTests.extras`, space-separated (see `numbers`).
    var n: String

    /// `n` read with strtod, which takes JavaScript's spellings exactly: shortest round-trip digits,
    /// `-0`, `NaN`, `Infinity`, `-Infinity`.
    var numbers: [Double] {
        n.withCString { start in
            var out: [Double] = []
            var cur = start
            while true {
                var end: UnsafeMutablePointer<CChar>?
                let v = strtod(cur, &end)
                guard let end, end != UnsafeMutablePointer(mutating: cur) else { break }
                out.append(v)
                cur = UnsafePointer(end)
            }
            return out
        }
    }
}

/// The lines of a file (without their newlines), split with memchr: the generic `split` is slow in debug builds.
func parityLines(_ data: Data) -> [Data] {
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Data] in
        guard let base = raw.baseAddress else { return [] }
        var lines: [Data] = []
        var at = 0
        while at < raw.count {
            let found = memchr(base + at, Int32(UInt8(ascii: "\n")), raw.count - at)
            let end = found.map { base.distance(to: UnsafeRawPointer($0)) } ?? raw.count
            if end > at { lines.append(Data(bytes: base + at, count: end - at)) }
            at = end + 1
        }
        return lines
    }
}

// MARK: - Mismatches

/// Collects mismatches: a count, and the first 10 with their input line.
/// `@unchecked Sendable`: filled by one comparison on one thread, then handed over whole to the
/// test that reads it; never shared while it changes.
final class ParityDiff: @unchecked Sendable {
    struct Mismatch {
        var line: Int
        var field: String
        var swift: String
        var js: String
        var input: String
    }

    private(set) var count = 0
    private(set) var first: [Mismatch] = []
    private var line = 0
    private var input = ""

    func begin(line: Int, input: String) {
        self.line = line
        self.input = input
    }

    func note(_ field: String, _ swift: String, _ js: String) {
        count += 1
        if first.count < 10 { first.append(Mismatch(line: line, field: field, swift: swift, js: js, input: input)) }
    }

    func same(_ field: String, _ swift: String, _ js: String) {
        if swift != js { note(field, swift, js) }
    }

    /// Bit-identical (NaN matches any NaN).
    func exact(_ field: String, _ swift: Double, _ js: Double) {
        if swift.bitPattern != js.bitPattern && !(swift.isNaN && js.isNaN) {
            note(field, Self.show(swift), Self.show(js))
        }
    }

    /// Within 1e-9 × max(1, |swift|) (infinities and NaN must match exactly).
    func close(_ field: String, _ swift: Double, _ js: Double) {
        if swift == js || (swift.isNaN && js.isNaN) { return }
        if !(abs(swift - js) <= 1e-9 * max(1, abs(swift))) { note(field, Self.show(swift), Self.show(js)) }
    }

    static func show(_ d: Double) -> String { "\(d) [0x\(String(d.bitPattern, radix: 16))]" }

    var report: String {
        first.map { m in
            let input = m.input.count > 800 ? m.input.prefix(800) + "…" : Substring(m.input)
            return "line \(m.line) \(m.field): Swift \(m.swift) ≠ JS \(m.js)\n  input: \(input)"
        }.joined(separator: "\n")
    }
}
