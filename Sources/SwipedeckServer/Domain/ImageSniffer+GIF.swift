extension ImageSniffer {
    /// The logical screen's width and height and how far its frames reach (the largest
    /// left + width and top + height of its image descriptors), after walking every block.
    ///
    /// After the 6-byte signature and the 7-byte logical screen descriptor (width, height as
    /// 16-bit little-endian, then flags) come the optional global colour table, then blocks:
    /// `0x2C` image (10-byte descriptor, optional local colour table, LZW code size, data
    /// sub-blocks), `0x21` extension (label, sub-blocks), `0x3B` trailer. A file that ends at a
    /// block boundary without the trailer is accepted, as browsers show it. Every step advances.
    static func gifGeometry(_ reader: ByteReader) throws(ImageRefusal) -> (
        width: Int, height: Int, reach: (width: Int, height: Int)
    ) {
        guard let width = reader.u16le(6), let height = reader.u16le(8), let flags = reader.u8(10), reader.has(11, 2)
        else {
            throw .unreadable(.gif, reason: "it is cut off inside its header")
        }
        var offset = 13 + colourTableLength(flags)
        var images = 0
        var reach = (width: 0, height: 0)
        while offset < reader.count {
            guard let block = reader.u8(offset) else { break }
            switch block {
            case 0x3B:
                offset = reader.count
            case 0x21:
                guard reader.has(offset + 1, 1) else {
                    throw .unreadable(.gif, reason: "it is cut off inside an extension")
                }
                offset = try skipSubBlocks(reader, from: offset + 2)
            case 0x2C:
                guard let localFlags = reader.u8(offset + 9), reader.has(offset + 10 + colourTableLength(localFlags), 1)
                else {
                    throw .unreadable(.gif, reason: "it is cut off inside an image descriptor")
                }
                // Descriptor: left, top, width, height (16-bit little-endian each) after the 0x2C.
                if let left = reader.u16le(offset + 1), let top = reader.u16le(offset + 3),
                    let frameWidth = reader.u16le(offset + 5), let frameHeight = reader.u16le(offset + 7)
                {
                    reach = (max(reach.width, left + frameWidth), max(reach.height, top + frameHeight))
                }
                offset = try skipSubBlocks(reader, from: offset + 11 + colourTableLength(localFlags))
                images += 1
            default:
                throw .unreadable(.gif, reason: "it has an unknown block at byte \(offset)")
            }
        }
        guard images > 0 else { throw .unreadable(.gif, reason: "it holds no image") }
        return (width, height, reach)
    }

    /// Bytes of the colour table a GIF flags byte announces: 3 × 2^(size + 1) when its top bit is set.
    static func colourTableLength(_ flags: Int) -> Int {
        flags & 0x80 == 0 ? 0 : 3 << ((flags & 0x07) + 1)
    }

    /// The offset after a chain of data sub-blocks (each a length byte and that many bytes,
    /// ended by a 0 length byte) that starts at `offset`.
    static func skipSubBlocks(_ reader: ByteReader, from start: Int) throws(ImageRefusal) -> Int {
        var offset = start
        while true {
            guard let size = reader.u8(offset) else {
                throw .unreadable(.gif, reason: "it is cut off inside a block of data")
            }
            offset += 1
            if size == 0 { return offset }
            guard reader.has(offset, size) else {
                throw .unreadable(.gif, reason: "it is cut off inside a block of data")
            }
            offset += size
        }
    }
}
