/// Bounds-checked reads of fixed-width integers from untrusted bytes: every read returns nil
/// instead of trapping when any byte it needs is outside the buffer (negative offsets too).
struct ByteReader {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    /// True when `length` bytes starting at `offset` are all inside the buffer.
    func has(_ offset: Int, _ length: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    func u8(_ offset: Int) -> Int? {
        has(offset, 1) ? Int(bytes[offset]) : nil
    }

    func u16be(_ offset: Int) -> Int? {
        has(offset, 2) ? Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) : nil
    }

    func u16le(_ offset: Int) -> Int? {
        has(offset, 2) ? Int(bytes[offset + 1]) << 8 | Int(bytes[offset]) : nil
    }

    func u24le(_ offset: Int) -> Int? {
        has(offset, 3) ? Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset]) : nil
    }

    func u32be(_ offset: Int) -> Int? {
        guard has(offset, 4) else { return nil }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
    }

    func u32le(_ offset: Int) -> Int? {
        guard has(offset, 4) else { return nil }
        return Int(bytes[offset + 3]) << 24 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 1]) << 8
            | Int(bytes[offset])
    }

    /// True when the bytes at `offset` are exactly `pattern`.
    func matches(_ offset: Int, _ pattern: [UInt8]) -> Bool {
        has(offset, pattern.count) && bytes[offset..<offset + pattern.count].elementsEqual(pattern)
    }

    /// True when the bytes at `offset` are the ASCII text `text`.
    func matches(_ offset: Int, ascii text: String) -> Bool {
        matches(offset, Array(text.utf8))
    }

    /// Four bytes as text (a chunk name such as `IHDR` or `VP8X`), "?" for any that is not
    /// printable ASCII; nil past the end.
    func fourCC(_ offset: Int) -> String? {
        guard has(offset, 4) else { return nil }
        return String(decoding: bytes[offset..<offset + 4].map { $0 >= 32 && $0 < 127 ? $0 : 63 }, as: UTF8.self)
    }
}
