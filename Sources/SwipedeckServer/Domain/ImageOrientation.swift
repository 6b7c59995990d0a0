/// How a JPEG's stored pixels are turned for display: the Exif Orientation tag (0x0112) of its
/// first Exif segment, which browsers apply (CSS `image-orientation: from-image`, the default). A
/// phone stores a portrait photo as its sensor saw it, landscape, with orientation 6.
///
/// `ImageMetadata` keeps it (rewritten alone) when it strips a JPEG, and `ImageSniffer` reports a
/// JPEG's size as displayed.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// 1: shown as stored.
    case normal = 1
    /// 2: mirrored left to right.
    case mirrored = 2
    /// 3: turned half a turn.
    case rotated180 = 3
    /// 4: mirrored top to bottom.
    case flipped = 4
    /// 5: mirrored along the top-left to bottom-right diagonal.
    case transposed = 5
    /// 6: turned a quarter clockwise (a phone held upright).
    case rotated90 = 6
    /// 7: mirrored along the other diagonal.
    case transversed = 7
    /// 8: turned a quarter anticlockwise.
    case rotated270 = 8

    /// Whether the image shows with its width and height exchanged (5–8: a quarter turn).
    public var swapsWidthAndHeight: Bool { rawValue >= 5 }

    /// The orientation an APP1 payload holds, read from `start` up to `end` (exclusive): `Exif\0\0`,
    /// a TIFF header (`II` little- or `MM` big-endian, 42, the offset of IFD0), and in IFD0 an
    /// Orientation entry of type SHORT, count 1, value 1–8. Nil for anything else (another APP1,
    /// a damaged or cut Exif, another value). Bounds-checked and linear: at most IFD0's entries.
    static func exif(_ reader: ByteReader, from start: Int, to end: Int) -> ImageOrientation? {
        guard reader.matches(start, ascii: "Exif\0\0") else { return nil }
        let tiff = start + 6
        let little: Bool
        if reader.matches(tiff, ascii: "II") {
            little = true
        } else if reader.matches(tiff, ascii: "MM") {
            little = false
        } else {
            return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at + 2 <= end else { return nil }
            return little ? reader.u16le(at) : reader.u16be(at)
        }
        func u32(_ at: Int) -> Int? {
            guard at + 4 <= end else { return nil }
            return little ? reader.u32le(at) : reader.u32be(at)
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4).map({ tiff + $0 }), let count = u16(ifd) else { return nil }
        for index in 0..<count {
            let entry = ifd + 2 + 12 * index
            guard let tag = u16(entry) else { return nil }
            guard tag == 0x0112 else { continue }
            guard u16(entry + 2) == 3, u32(entry + 4) == 1, let value = u16(entry + 8) else { return nil }
            return ImageOrientation(rawValue: value)
        }
        return nil
    }

    /// An APP1 segment holding this orientation and nothing else: `Exif\0\0`, a big-endian TIFF
    /// header, IFD0 with the one Orientation entry (SHORT, count 1), no next IFD. 36 bytes.
    var exifSegment: [UInt8] {
        let payload: [UInt8] =
            Array("Exif\0\0MM\0*".utf8) + [0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(rawValue), 0, 0]
            + [0, 0, 0, 0]
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
