import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

@Suite("Trace codec")
struct TraceCodecTests {
    /// Bit-for-bit equality (== would call -0 and 0 equal).
    static func same(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    static func same(_ a: Trace, _ b: Trace) -> Bool {
        same(a.t, b.t) && same(a.x, b.x) && same(a.y, b.y)
            && same([a.w, a.h, a.vw, a.vh, a.gx, a.gy], [b.w, b.h, b.vw, b.vh, b.gx, b.gy])
            && a.ox?.bitPattern == b.ox?.bitPattern && a.oy?.bitPattern == b.oy?.bitPattern
    }

    @Test("every double comes back bit for bit: short decimals, -0, noisy timestamps, extremes")
    func roundTrip() async throws {
        var rng = SplitMix64(seed: 42)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let specials: [Double] = [
            0, -0.0, 1e-5, 16.6, 134.29999999999995, 1e300, -1e-300, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude, 0.1 + 0.2, -3.5,
            // Around the integer limit of `scaled` (|M| < 2⁵³): the last integer it keeps, the
            // first it leaves to the exceptions, and the next double after that.
            9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_992,
        ]
        for round in 0..<2_000 {
            // Seconds of CPU in all: other tasks get the pool's thread between batches.
            if round % 200 == 0 { await Task.yield() }
            let n = 2 + Int(rng.next() % 60)
            func value(_ i: Int) -> Double {
                switch (round + i) % 5 {
                case 0: return (unit() * 1000).rounded() / 100
                case 1: return unit() * 500 - 250
                case 2: return specials[Int(rng.next() % UInt64(specials.count))]
                case 3: return Double(Int(rng.next() % 2000)) - 1000
                default: return Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
                }
            }
            let mode = round % 3  // 0: all short decimals, 1: mixed, 2: noisy
            let column = { (i: Int) -> Double in mode == 0 ? (Double(i) * 16.6 * 100).rounded() / 100 : value(i) }
            let trace = Trace(
                t: (0..<n).map(column), x: (0..<n).map(value), y: (0..<n).map { _ in mode == 2 ? unit() : -0.0 },
                w: 320, h: value(1), vw: 390.5, vh: -0.0, gx: value(2), gy: 1e-7,
                ox: round % 2 == 0 ? value(3) : nil, oy: round % 4 == 0 ? 12.25 : nil)
            let bytes = TraceCodec.encode(trace)
            let back = try #require(TraceCodec.decode(bytes))
            #expect(Self.same(trace, back), "round \(round)")
        }
    }

    @Test("scaled keeps integers below 2⁵³ and leaves 2⁵³ and beyond to the exceptions")
    func integerLimit() {
        #expect(TraceCodec.scaled(9_007_199_254_740_991, 0) == 9_007_199_254_740_991)
        #expect(TraceCodec.scaled(-9_007_199_254_740_991, 0) == -9_007_199_254_740_991)
        #expect(TraceCodec.scaled(9_007_199_254_740_992, 0) == nil)
        #expect(TraceCodec.scaled(9_007_199_254_740_994, 0) == nil)
        // The literals are the distinct doubles they claim to be (2⁵³ + 1 would round to 2⁵³).
        #expect(Double(9_007_199_254_740_994) - Double(9_007_199_254_740_992) == 2)
        #expect(Double(9_007_199_254_740_992) - Double(9_007_199_254_740_991) == 1)
    }

    @Test("a bench-like drag takes under a third of its JSON text, and the same decision comes back")
    func compactAndRecheckable() throws {
        var rng = SplitMix64(seed: 9)
        for i in 0..<200 {
            let trace = SwipeSeeder.trace(right: i % 2 == 0, rng: &rng)
            let json = try #require(String(data: JSONEncoder().encode(trace), encoding: .utf8))
            let bytes = TraceCodec.encode(trace)
            #expect(bytes.count * 3 < json.utf8.count, "\(bytes.count) bytes vs \(json.utf8.count) of JSON")
            // What `swipedeck classify` gets from a stored swipe: the decoded trace, as JSON.
            let decoded = try #require(TraceCodec.decode(bytes))
            let stored = String(decoding: try JSONEncoder().encode(decoded), as: UTF8.self)
            let reparsed = try JSONDecoder().decode(Trace.self, from: Data(stored.utf8))
            #expect(Self.same(reparsed, trace))
            let claimed: Decision = i % 2 == 0 ? .right : .left
            let a = Classification.of(
                line: Data("{\"trace\":\(json),\"claimed\":\"\(claimed.rawValue)\"}".utf8), profile: .standard)
            let b = Classification.of(
                line: Data("{\"trace\":\(stored),\"claimed\":\"\(claimed.rawValue)\"}".utf8), profile: .standard)
            #expect(a.jsonLine == b.jsonLine)
            #expect(Self.same(decoded, trace))
        }
    }

    /// The most bytes a trace within the default limits can store (README "Storage"): a column is at
    /// most a scale byte, 8 bytes per value (a varint delta of integers under 2⁵³) and, for the at most
    /// n / 4 exceptions, 3 bytes more each (their 0 delta, an index of 2 bytes, 8 raw bytes, and a
    /// count of 2 bytes), so 3 + 8.75 n; the 8 scalars at most 10 bytes each; the header 4 bytes.
    static let maxStoredBytes: Int = {
        let n = ValidationLimits().maxSamples
        return 4 + 3 * (3 + 8 * n + 3 * (n / 4)) + 8 * 10
    }()

    @Test("the largest trace the limits let through stores in at most 31,593 bytes")
    func largestTrace() throws {
        #expect(Self.maxStoredBytes == 31_593)
        var rng = SplitMix64(seed: 7)
        let limits = ValidationLimits()
        let n = limits.maxSamples
        // Numbers without a short decimal (every bit of the mantissa used), so the columns are stored
        // raw; x and y swing ±165 px each sample, within 20 px/ms over the 24 ms window.
        var t: [Double] = []
        var x: [Double] = []
        var y: [Double] = []
        for i in 0..<n {
            let sign: Double = i % 2 == 0 ? 1 : -1
            t.append(7.4 * Double(i + 1) + Double.random(in: 0..<1, using: &rng))
            x.append(sign * (165 - Double.random(in: 0..<1, using: &rng)))
            y.append(-sign * (164 - Double.random(in: 0..<1, using: &rng)))
        }
        let scalar = { (v: Double) in v - Double.random(in: 0..<1, using: &rng) }
        let trace = Trace(
            t: t, x: x, y: y, w: scalar(4096), h: scalar(4096), vw: scalar(16384), vh: scalar(16384),
            gx: scalar(2048), gy: scalar(2048), ox: scalar(8192), oy: scalar(8192))
        try checkTrace(trace, limits: limits)
        let bytes = TraceCodec.encode(trace)
        // 8 raw bytes per value (24 per sample), 3 column bytes, the 4-byte header and 77 of scalars:
        // the size README "Storage" gives for a maximal trace.
        #expect(bytes.count == 28_884)
        #expect(bytes.count <= Self.maxStoredBytes)
        let decoded = try #require(TraceCodec.decode(bytes))
        #expect(Self.same(decoded, trace))
        // One sample more is refused before anything is stored.
        var over = trace
        over.t.append(t[n - 1] + 8)
        over.x.append(x[n - 1])
        over.y.append(y[n - 1])
        #expect(throws: SwipeRejection.tooLong) { try checkTrace(over, limits: limits) }
    }

    @Test("truncated, extended or foreign bytes decode to nil, never crash")
    func refusesGarbage() {
        var rng = SplitMix64(seed: 3)
        let bytes = TraceCodec.encode(SwipeSeeder.trace(right: true, rng: &rng))
        for cut in 0..<bytes.count { #expect(TraceCodec.decode(Array(bytes.prefix(cut))) == nil) }
        #expect(TraceCodec.decode(bytes + [0]) == nil)
        #expect(TraceCodec.decode([2] + bytes.dropFirst()) == nil)
        for _ in 0..<2_000 {
            let junk = (0..<Int(rng.next() % 40)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            _ = TraceCodec.decode([1] + junk)
        }
    }
}
