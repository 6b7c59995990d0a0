import NIOCore
import SwipePhysics

/// A fast path for the body of `POST /api/v1/decks/{deck}/swipes`: a single-pass parser for the
/// plain shape every real client sends (the fields of `SwipeRequest` and `Trace`, numbers,
/// ASCII strings without escapes, `null` for optional fields).
///
/// Decoding the trace arrays with `JSONDecoder` was the largest cost of the swipe route. This
/// parser returns nil for anything outside that shape (an unknown or repeated key, an escape or
/// non-ASCII byte in a string, a number that is not finite, an integer card id that needs more
/// than 64 bits, NaN written as a string, a missing required field, trailing bytes…), and the
/// caller then decodes with `JSONDecoder` exactly as before, so errors and edge cases keep their
/// answers. For bodies it accepts, it builds the same `SwipeRequest` `JSONDecoder` would.
enum SwipeBodyParser {
    /// The request, or nil outside the plain shape (the caller then uses `JSONDecoder`).
    static func parse(_ buffer: ByteBuffer) -> SwipeRequest? {
        buffer.withUnsafeReadableBytes { raw in
            var p = Parser(bytes: raw)
            guard let r = p.swipeRequest() else { return nil }
            p.skipSpace()
            guard p.i == raw.count else { return nil }
            return r
        }
    }

    struct Parser {
        let bytes: UnsafeRawBufferPointer
        var i = 0

        init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x20, 0x0A, 0x0D, 0x09: i += 1
                default: return
                }
            }
        }

        mutating func eat(_ c: UInt8) -> Bool {
            skipSpace()
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }

        /// `null` (consumed) or not (nothing consumed).
        mutating func null() -> Bool {
            skipSpace()
            guard i + 4 <= bytes.count, bytes[i] == 0x6E, bytes[i + 1] == 0x75, bytes[i + 2] == 0x6C,
                bytes[i + 3] == 0x6C
            else { return false }
            i += 4
            return true
        }

        /// A string of printable ASCII without escapes.
        mutating func string() -> String? {
            guard eat(0x22) else { return nil }
            let start = i
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 {
                    let s = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                    i += 1
                    return s
                }
                if b == 0x5C || b < 0x20 || b >= 0x80 { return nil }
                i += 1
            }
            return nil
        }

        mutating func optionalString() -> String?? {
            if null() { return .some(nil) }
            guard let s = string() else { return nil }
            return .some(s)
        }

        static let powersOfTen: [Double] = [
            1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        ]

        /// A JSON number (strict grammar) as a finite double.
        mutating func number() -> Double? {
            skipSpace()
            let start = i
            let n = bytes.count
            var negative = false
            if i < n && bytes[i] == 0x2D {
                negative = true
                i += 1
            }
            guard i < n else { return nil }
            var mantissa: UInt64 = 0
            var digits = 0
            var fractionDigits = 0
            var simple = true
            var nonzero = false
            func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
            if bytes[i] == 0x30 {
                i += 1
                digits = 1
            } else if isDigit(bytes[i]) {
                nonzero = true
                while i < n && isDigit(bytes[i]) {
                    if digits < 18 { mantissa = mantissa * 10 + UInt64(bytes[i] - 0x30) }
                    digits += 1
                    i += 1
                }
            } else {
                return nil
            }
            if i < n && bytes[i] == 0x2E {
                i += 1
                guard i < n && isDigit(bytes[i]) else { return nil }
                while i < n && isDigit(bytes[i]) {
                    if bytes[i] != 0x30 { nonzero = true }
                    if digits < 18 { mantissa = mantissa * 10 + UInt64(bytes[i] - 0x30) }
                    digits += 1
                    fractionDigits += 1
                    i += 1
                }
            }
            if i < n && (bytes[i] == 0x65 || bytes[i] == 0x45) {
                simple = false
                i += 1
                if i < n && (bytes[i] == 0x2B || bytes[i] == 0x2D) { i += 1 }
                guard i < n && isDigit(bytes[i]) else { return nil }
                while i < n && isDigit(bytes[i]) { i += 1 }
            }
            // Exact fast path (Clinger): an integer mantissa below 2^53 divided by an exact power
            // of ten is correctly rounded, the same double strtod gives.
            if simple && digits <= 15 && fractionDigits < Self.powersOfTen.count {
                let v = Double(mantissa) / Self.powersOfTen[fractionDigits]
                return negative ? -v : v
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            // JSONDecoder refuses numbers a double cannot hold (overflow, and underflow to zero or
            // a subnormal): leave those to it.
            guard let v = Double(text), v.isNormal || (v == 0 && !nonzero) else { return nil }
            return v
        }

        mutating func optionalNumber() -> Double?? {
            if null() { return .some(nil) }
            guard let v = number() else { return nil }
            return .some(v)
        }

        /// A JSON integer without fraction or exponent that fits in Int64.
        mutating func int64() -> Int64? {
            skipSpace()
            let start = i
            if i < bytes.count && bytes[i] == 0x2D { i += 1 }
            while i < bytes.count && bytes[i] >= 0x30 && bytes[i] <= 0x39 { i += 1 }
            guard i > start, i < bytes.count, bytes[i] != 0x2E, bytes[i] != 0x65, bytes[i] != 0x45 else { return nil }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
            if text.hasPrefix("0") && text.count > 1 || text.hasPrefix("-0") { return nil }
            return Int64(text)
        }

        mutating func numbers() -> [Double]? {
            guard eat(0x5B) else { return nil }
            var out: [Double] = []
            out.reserveCapacity(64)
            if eat(0x5D) { return out }
            repeat {
                guard let v = number() else { return nil }
                out.append(v)
            } while eat(0x2C)
            return eat(0x5D) ? out : nil
        }

        /// Iterates the members of an object, handing each key to `member`, which must consume
        /// the value (and return false to give up). Repeated keys give up too.
        mutating func object(_ keys: [String], _ member: (inout Parser, Int) -> Bool) -> Bool {
            guard eat(0x7B) else { return false }
            var seen = 0
            if eat(0x7D) { return true }
            repeat {
                guard let key = string(), let k = keys.firstIndex(of: key), seen & (1 << k) == 0, eat(0x3A) else {
                    return false
                }
                seen |= 1 << k
                guard member(&self, k) else { return false }
            } while eat(0x2C)
            return eat(0x7D)
        }

        static let traceKeys = ["t", "x", "y", "w", "h", "vw", "vh", "gx", "gy", "ox", "oy"]

        mutating func trace() -> Trace? {
            var arrays: [[Double]?] = [nil, nil, nil]
            var scalars: [Double?] = [nil, nil, nil, nil, nil, nil, nil, nil]
            let ok = object(Self.traceKeys) { p, k in
                if k < 3 {
                    arrays[k] = p.numbers()
                    return arrays[k] != nil
                }
                if k >= 9 {  // ox, oy: optional
                    guard let v = p.optionalNumber() else { return false }
                    scalars[k - 3] = v
                    return true
                }
                scalars[k - 3] = p.number()
                return scalars[k - 3] != nil
            }
            guard ok, let t = arrays[0], let x = arrays[1], let y = arrays[2], let w = scalars[0], let h = scalars[1],
                let vw = scalars[2], let vh = scalars[3], let gx = scalars[4], let gy = scalars[5]
            else { return nil }
            return Trace(t: t, x: x, y: y, w: w, h: h, vw: vw, vh: vh, gx: gx, gy: gy, ox: scalars[6], oy: scalars[7])
        }

        static let requestKeys = [
            "card", "direction", "input", "trace", "participant", "decisionMs", "idempotencyKey", "room",
        ]

        mutating func swipeRequest() -> SwipeRequest? {
            var card: Int64?
            var direction: String?
            var input: String?
            var participant: String?
            var key: String?
            var decisionMs: Double?
            var trace: Trace?
            var room: String?
            let ok = object(Self.requestKeys) { p, k in
                switch k {
                case 0:
                    card = p.int64()
                    return card != nil
                case 1:
                    direction = p.string()
                    return direction != nil
                case 2, 4, 6, 7:
                    guard let s = p.optionalString() else { return false }
                    if k == 2 {
                        input = s
                    } else if k == 4 {
                        participant = s
                    } else if k == 6 {
                        key = s
                    } else {
                        room = s
                    }
                    return true
                case 3:
                    if p.null() { return true }
                    trace = p.trace()
                    return trace != nil
                default:
                    guard let v = p.optionalNumber() else { return false }
                    decisionMs = v
                    return true
                }
            }
            guard ok, let card, let direction else { return nil }
            return SwipeRequest(
                card: card, direction: direction, input: input, trace: trace, participant: participant,
                decisionMs: decisionMs, idempotencyKey: key, room: room)
        }
    }
}
