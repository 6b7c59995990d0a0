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
/// A column is a scale byte `k` (0…15) followed by the signed deltas of the integers
/// `Mᵢ = vᵢ × 10ᵏ` (M₋₁ = 0), or the byte 0xFF followed by each value's 8 little-endian bytes.
/// A scalar is the same with one value. Scale `k` is used only when every value is exactly
/// `Double(M) / 10ᵏ` with `|M| < 2⁵³`: both operands are exact doubles and IEEE division rounds
/// correctly, so decoding computes the very double a JSON parser makes of the decimal `M·10⁻ᵏ`.
/// Values that have no such short decimal (`-0`, noisy timestamp differences) are stored raw.
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
        if flags & 1 != 0 { ox = scalars[next]; next += 1 }
        if flags & 2 != 0 { oy = scalars[next] }
        return Trace(t: t, x: x, y: y, w: scalars[0], h: scalars[1], vw: scalars[2], vh: scalars[3],
                     gx: scalars[4], gy: scalars[5], ox: ox, oy: oy)
    }

    /// The smallest scale at which every value is an exact short decimal, or nil.
    static func scale(of values: [Double]) -> Int? {
        scales: for k in 0...maxScale {
            let p = powers[k]
            for v in values {
                let m = (v * p).rounded()
                guard abs(m) < 9_007_199_254_740_992, (m / p).bitPattern == v.bitPattern else { continue scales }
            }
            return k
        }
        return nil
    }

    static func column(_ values: [Double], _ out: inout [UInt8]) {
        guard let k = scale(of: values) else {
            out.append(raw)
            for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { out.append(contentsOf: $0) } }
            return
        }
        out.append(UInt8(k))
        var previous: Int64 = 0
        for v in values {
            let m = Int64((v * powers[k]).rounded())
            putSigned(m &- previous, &out)
            previous = m
        }
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
                    guard position + 8 <= bytes.count else { return nil }
                    var bits: UInt64 = 0
                    for i in 0..<8 { bits |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
                    position += 8
                    values.append(Double(bitPattern: bits))
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
            return values
        }
    }
}
