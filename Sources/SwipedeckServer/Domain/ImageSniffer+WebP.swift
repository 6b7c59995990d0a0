extension ImageSniffer {
    /// Width and height from the first chunk, after checking every announced byte arrived.
    ///
    /// `RIFF`, a 32-bit little-endian size (bytes after these 8), `WEBP`, then chunks: a fourCC,
    /// a 32-bit little-endian size, the data, one pad byte when the size is odd. The first chunk
    /// sets the size: `VP8 ` (lossy: 3-byte frame tag of a key frame, start code 9D 01 2A, then
    /// 14-bit width and height), `VP8L` (lossless: signature 2F, then 14-bit width − 1 and
    /// height − 1, version 0) or `VP8X` (extended: flags, 3 reserved bytes, 24-bit canvas
    /// width − 1 and height − 1; image data must follow in a `VP8 `, `VP8L` or `ANMF` chunk).
    static func webpSize(_ reader: ByteReader) throws(ImageRefusal) -> (Int, Int) {
        guard let riffSize = reader.u32le(4), riffSize >= 4 else {
            throw .unreadable(.webp, reason: "its RIFF header is damaged")
        }
        let end = 8 + riffSize
        guard end <= reader.count else {
            throw .unreadable(
                .webp, reason: "it is cut off: its header announces \(end) bytes, \(reader.count) arrived")
        }
        var chunks: [String] = []
        var offset = 12
        while offset < end {
            guard let type = reader.fourCC(offset), let length = reader.u32le(offset + 4), offset + 8 + length <= end
            else {
                throw .unreadable(.webp, reason: "it is cut off inside a chunk at byte \(offset)")
            }
            chunks.append(type)
            offset += 8 + length + (length & 1)
        }
        guard let first = chunks.first else { throw .unreadable(.webp, reason: "it holds no image") }
        let data = 20
        switch first {
        case "VP8 ":
            guard reader.u32le(16).map({ $0 >= 10 }) == true, let tag = reader.u8(data), tag & 1 == 0,
                reader.matches(data + 3, [0x9D, 0x01, 0x2A]), let width = reader.u16le(data + 6),
                let height = reader.u16le(data + 8)
            else { throw .unreadable(.webp, reason: "its VP8 frame header is damaged") }
            return (width & 0x3FFF, height & 0x3FFF)
        case "VP8L":
            guard reader.u32le(16).map({ $0 >= 5 }) == true, reader.u8(data) == 0x2F, let bits = reader.u32le(data + 1),
                bits >> 29 == 0
            else {
                throw .unreadable(.webp, reason: "its VP8L header is damaged")
            }
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            guard reader.u32le(16).map({ $0 >= 10 }) == true, let width = reader.u24le(data + 4),
                let height = reader.u24le(data + 7)
            else {
                throw .unreadable(.webp, reason: "its VP8X header is damaged")
            }
            guard chunks.contains(where: { ["VP8 ", "VP8L", "ANMF"].contains($0) }) else {
                throw .unreadable(.webp, reason: "it holds no image data")
            }
            return (width + 1, height + 1)
        default:
            throw .unreadable(.webp, reason: "its first chunk \(first) is not VP8, VP8L or VP8X")
        }
    }
}
