extension ImageSniffer {
    /// Width and height from the frame header, after checking the file reaches a scan and ends,
    /// as displayed: exchanged when the first Exif segment before the scan turns the image a
    /// quarter (`ImageOrientation`, as browsers apply it).
    ///
    /// After `SOI` (FFD8) come marker segments: `FF`, optional `FF` fill bytes, the marker, then
    /// (except for standalone markers TEM, RSTn and SOI) a 16-bit big-endian length that counts
    /// itself. A start-of-frame `SOFn` (C0–CF but C4 DHT, C8 JPG, CC DAC) holds precision, height,
    /// width. The first start-of-scan `SOS` (DA) must follow it, and an end-of-image `FFD9` must
    /// come after that (entropy-coded data never contains FFD9). Every step advances.
    static func jpegSize(_ reader: ByteReader) throws(ImageRefusal) -> (Int, Int) {
        var offset = 2
        var size: (Int, Int)?
        var orientation: ImageOrientation?
        var exifRead = false
        while true {
            guard let byte = reader.u8(offset) else {
                throw .unreadable(.jpeg, reason: "it is cut off before its image data")
            }
            guard byte == 0xFF else {
                throw .unreadable(.jpeg, reason: "it has no marker where one belongs, at byte \(offset)")
            }
            while reader.u8(offset) == 0xFF { offset += 1 }
            guard let marker = reader.u8(offset) else {
                throw .unreadable(.jpeg, reason: "it is cut off before its image data")
            }
            offset += 1
            if marker == 0x01 || marker == 0xD8 || (0xD0...0xD7).contains(marker) { continue }
            if marker == 0xD9 || marker == 0x00 { throw .unreadable(.jpeg, reason: "it ends before its image data") }
            guard let length = reader.u16be(offset), length >= 2, reader.has(offset, length) else {
                throw .unreadable(.jpeg, reason: "it is cut off inside a segment at byte \(offset)")
            }
            if marker == 0xE1, !exifRead, reader.matches(offset + 2, ascii: "Exif\0\0") {
                exifRead = true
                orientation = ImageOrientation.exif(reader, from: offset + 2, to: offset + length)
            }
            if isStartOfFrame(marker) {
                guard length >= 8, let height = reader.u16be(offset + 3), let width = reader.u16be(offset + 5) else {
                    throw .unreadable(.jpeg, reason: "its frame header is too short")
                }
                if height == 0 {
                    throw .unreadable(
                        .jpeg, reason: "its height is left to a later marker (DNL), which is not supported")
                }
                size = (width, height)
            }
            if marker == 0xDA {
                guard let size else { throw .unreadable(.jpeg, reason: "its image data comes before its frame header") }
                guard containsEndOfImage(reader.bytes, after: offset + length) else {
                    throw .unreadable(.jpeg, reason: "it is cut off inside its image data (no end-of-image marker)")
                }
                return orientation?.swapsWidthAndHeight == true ? (size.1, size.0) : size
            }
            offset += length
        }
    }

    /// SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    static func isStartOfFrame(_ marker: Int) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Whether the bytes FF D9 occur at or after `start`.
    static func containsEndOfImage(_ bytes: [UInt8], after start: Int) -> Bool {
        guard start >= 0, start < bytes.count - 1 else { return false }
        var index = start
        while index < bytes.count - 1 {
            if bytes[index] == 0xFF && bytes[index + 1] == 0xD9 { return true }
            index += 1
        }
        return false
    }
}
