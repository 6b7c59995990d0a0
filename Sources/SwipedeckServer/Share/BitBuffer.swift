/// A sequence of bits packed most significant first into bytes, as the QR data stream is laid out.
struct BitBuffer: Sendable {
    /// The bits so far; the last byte's unused low bits are 0.
    private(set) var bytes: [UInt8] = []
    /// Number of bits appended.
    private(set) var count = 0

    /// Appends the low `width` bits of `value`, most significant first.
    mutating func append(_ value: Int, width: Int) {
        for shift in stride(from: width - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 {
                bytes[bytes.count - 1] |= 0x80 >> UInt8(count % 8)
            }
            count += 1
        }
    }
}
