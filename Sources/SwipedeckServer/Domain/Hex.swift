/// Lower-case hexadecimal text of bytes, without `String(format:)` (which goes through
/// Foundation's formatter: it was 6% of the server's CPU on the swipe path, hexing a MAC).
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// Two lower-case hex digits per byte, in order.
    static func string<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `value` as exactly `width` lower-case hex digits (the low `4 × width` bits).
    static func string(_ value: UInt64, width: Int) -> String {
        var text = [UInt8](repeating: 0, count: width)
        var rest = value
        for position in stride(from: width - 1, through: 0, by: -1) {
            text[position] = digits[Int(rest & 0x0F)]
            rest >>= 4
        }
        return String(decoding: text, as: UTF8.self)
    }
}
