import SwipePhysics

/// The stored form of a validated trace: a compact binary encoding that gives back exactly the
/// same `Double`s (bit for bit), so a stored swipe stays re-checkable by `swipedeck classify`
/// with the same decision. About 4–6 times smaller than the JSON text for typical traces.
///
/// Layout (all integers are LEB128 varints; signed ones zigzag-encoded first):
/// ```
/// 0x01                      version
/// count                     samples (t, x and y have this many values)
/// flags                     bit 0: `ox` present, bit 1: `oy` present
/// column t, column x, column y
/// scalar w, h, vw, vh, gx, gy, then ox and oy when present
/// ```
/// A column is a scale byte `k` (0…15), the signed deltas of the integers `Mᵢ = vᵢ × 10ᵏ`
/// (M₋₁ = 0), then the exceptions: their count, and for each its index and the value's 8
/// little-endian bytes (its delta is 0). Or the byte 0xFF followed by every value's 8 bytes.
/// A scalar is a column of one value. A value is scaled only when it is exactly
/// `Double(M) / 10ᵏ` with `|M| < 2⁵³`: both operands are exact doubles and IEEE division rounds
/// correctly, so decoding computes the very double a JSON parser makes of the decimal `M·10⁻ᵏ`.
/// Values without such a short decimal (`-0`, noisy timestamp differences) are exceptions; the
/// smallest `k` with at most a quarter of the values as exceptions is used, else the column is raw.
public enum TraceCodec {
    static let version: UInt8 = 1
    static let raw: UInt8 = 0xFF
    static let maxScale = 15
    static let powers: [Double] = (0...15).map { k in (0..<k).reduce(1.0) { p, _ in p * 10 } }

    /// The trace's stored bytes.
    public static func encode(_ trace: Trace) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 + 3 * 2 * trace.t.count)
        out.append(version)
        putUnsigned(UInt64(trace.t.count), &out)
        out.append((trace.ox != nil ? 1 : 0) | (trace.oy != nil ? 2 : 0))
        column(trace.t, &out)
        column(trace.x, &out)
        column(trace.y, &out)
        for v in [trace.w, trace.h, trace.vw, trace.vh, trace.gx, trace.gy] { column([v], &out) }
        if let ox = trace.ox { column([ox], &out) }
        if let oy = trace.oy { column([oy], &out) }
        return out
    }

    /// The trace back, or nil for bytes this codec did not write (truncated, unknown version).
    public static func decode(_ bytes: [UInt8]) -> Trace? {
        var reader = Reader(bytes: bytes)
        guard reader.byte() == version, let count = reader.unsigned(), count < 1 << 20, let flags = reader.byte(),
            let t = reader.column(Int(count)), let x = reader.column(Int(count)), let y = reader.column(Int(count))
        else { return nil }
        var scalars: [Double] = []
        for _ in 0..<(6 + (flags & 1) + (flags >> 1 & 1)) {
            guard let v = reader.column(1)?.first else { return nil }
            scalars.append(v)
        }
        guard reader.position == bytes.count else { return nil }
        var ox: Double?
        var oy: Double?
        var next = 6
        if flags & 1 != 0 {
            ox = scalars[next]
            next += 1
        }
        if flags & 2 != 0 { oy = scalars[next] }
        return Trace(
            t: t, x: x, y: y, w: scalars[0], h: scalars[1], vw: scalars[2], vh: scalars[3],
            gx: scalars[4], gy: scalars[5], ox: ox, oy: oy)
    }

    /// Whether `v` is exactly `Double(M) / 10ᵏ` for an integer `|M| < 2⁵³` (then M, else nil).
    @inline(__always)
    static func scaled(_ v: Double, _ k: Int) -> Int64? {
        let m = (v * powers[k]).rounded()
        guard abs(m) < 9_007_199_254_740_992 else { return nil }
        let integer = Int64(m)
        // Through Int64, so -0 (which no integer gives back) is an exception.
        return (Double(integer) / powers[k]).bitPattern == v.bitPattern ? integer : nil
    }

    /// The smallest scale at which at most a quarter of the values are exceptions, or nil.
    static func scale(of values: [Double]) -> Int? {
        let allowed = values.count / 4
        scales: for k in 0...maxScale {
            var exceptions = 0
            for v in values where scaled(v, k) == nil {
                exceptions += 1
                if exceptions > allowed { continue scales }
            }
            return k
        }
        return nil
    }

    static func column(_ values: [Double], _ out: inout [UInt8]) {
        guard let k = scale(of: values) else {
            out.append(raw)
            for v in values { putRaw(v, &out) }
            return
        }
        out.append(UInt8(k))
        var previous: Int64 = 0
        var exceptions: [Int] = []
        for (i, v) in values.enumerated() {
            guard let m = scaled(v, k) else {
                exceptions.append(i)
                out.append(0)
                continue
            }
            putSigned(m &- previous, &out)
            previous = m
        }
        putUnsigned(UInt64(exceptions.count), &out)
        for i in exceptions {
            putUnsigned(UInt64(i), &out)
            putRaw(values[i], &out)
        }
    }

    static func putRaw(_ v: Double, _ out: inout [UInt8]) {
        withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }

    static func putSigned(_ v: Int64, _ out: inout [UInt8]) {
        putUnsigned(UInt64(bitPattern: (v << 1) ^ (v >> 63)), &out)
    }

    static func putUnsigned(_ v: UInt64, _ out: inout [UInt8]) {
        var v = v
        while v >= 0x80 {
            out.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func byte() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func unsigned() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while shift < 64, let b = byte() {
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
            return nil
        }

        mutating func column(_ count: Int) -> [Double]? {
            guard let k = byte() else { return nil }
            var values: [Double] = []
            values.reserveCapacity(count)
            if k == TraceCodec.raw {
                for _ in 0..<count {
                    guard let v = rawDouble() else { return nil }
                    values.append(v)
                }
                return values
            }
            guard Int(k) <= TraceCodec.maxScale else { return nil }
            let p = TraceCodec.powers[Int(k)]
            var m: Int64 = 0
            for _ in 0..<count {
                guard let z = unsigned() else { return nil }
                m = m &+ (Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1))
                values.append(Double(m) / p)
            }
            guard let exceptions = unsigned(), exceptions <= UInt64(count) else { return nil }
            for _ in 0..<exceptions {
                guard let i = unsigned(), i < UInt64(count), let v = rawDouble() else { return nil }
                values[Int(i)] = v
            }
            return values
        }

        mutating func rawDouble() -> Double? {
            guard position + 8 <= bytes.count else { return nil }
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
            position += 8
            return Double(bitPattern: bits)
        }
    }
}
