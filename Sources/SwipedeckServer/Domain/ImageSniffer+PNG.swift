extension ImageSniffer {
    /// Width and height from `IHDR`, after walking every chunk up to `IEND`.
    ///
    /// A chunk is a 4-byte big-endian data length (at most 2^31 − 1), a 4-letter type, the
    /// data and a 4-byte CRC (not verified: browsers show images with bad CRCs, and a wrong CRC
    /// is no danger). Each step advances by at least 12 bytes, so the walk ends.
    static func pngSize(_ reader: ByteReader) throws(ImageRefusal) -> (Int, Int) {
        guard reader.matches(12, ascii: "IHDR") else {
            throw .unreadable(
                .png, reason: reader.has(12, 4) ? "its first chunk is not IHDR" : "it is cut off inside its header")
        }
        guard reader.u32be(8) == 13 else { throw .unreadable(.png, reason: "its IHDR chunk is not 13 bytes long") }
        guard let width = reader.u32be(16), let height = reader.u32be(20) else {
            throw .unreadable(.png, reason: "it is cut off inside its header")
        }
        guard width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .unreadable(.png, reason: "its width or height is over 2^31 − 1")
        }
        var offset = 8
        var sawImageData = false
        while true {
            guard let length = reader.u32be(offset), let type = reader.fourCC(offset + 4) else {
                throw .unreadable(.png, reason: "it is cut off after \(offset) bytes, before its IEND chunk")
            }
            guard length <= Int(Int32.max) else {
                throw .unreadable(.png, reason: "its \(type) chunk announces an impossible length")
            }
            guard type.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw .unreadable(.png, reason: "it has a damaged chunk at byte \(offset)")
            }
            guard reader.has(offset + 8, length + 4) else {
                throw .unreadable(.png, reason: "it is cut off inside its \(type) chunk")
            }
            if type == "IDAT" { sawImageData = true }
            if type == "IEND" { break }
            offset += 12 + length
        }
        guard sawImageData else { throw .unreadable(.png, reason: "it has no image data (IDAT)") }
        return (width, height)
    }
}
