extension QRCode {
    /// The symbol's full codeword sequence for `bytes` in one byte-mode segment: data codewords
    /// (mode, count, bytes, terminator, padding) split into Reed–Solomon blocks, then the blocks'
    /// data and error-correction codewords interleaved in the order they are placed.
    /// - Precondition: `bytes.count <= version.byteCapacity(correction)`.
    static func codewords(for bytes: [UInt8], version: QRVersion, correction: Correction) -> [UInt8] {
        let data = dataCodewords(for: bytes, version: version, correction: correction)
        let blockCount = correction.blockCount(version: version.number)
        let encoder = ReedSolomon(degree: correction.codewordsPerBlock(version: version.number))

        // The first blocks are one data codeword shorter when the count does not divide evenly.
        let shortLength = data.count / blockCount
        let longBlockCount = data.count % blockCount
        var blocks: [[UInt8]] = []
        var start = 0
        for index in 0..<blockCount {
            let length = shortLength + (index >= blockCount - longBlockCount ? 1 : 0)
            blocks.append(Array(data[start..<start + length]))
            start += length
        }

        var result: [UInt8] = []
        result.reserveCapacity(version.codewordCount)
        for position in 0..<shortLength + 1 {
            for block in blocks where position < block.count { result.append(block[position]) }
        }
        let corrections = blocks.map(encoder.errorCorrection(for:))
        for position in 0..<encoder.degree {
            for block in corrections { result.append(block[position]) }
        }
        return result
    }

    /// The data codewords: mode indicator 0100 (byte), the count, the bytes, up to four 0 bits of
    /// terminator, 0 bits to the byte boundary, then the pad bytes 0xEC and 0x11 alternately.
    static func dataCodewords(for bytes: [UInt8], version: QRVersion, correction: Correction) -> [UInt8] {
        let capacityBits = version.dataCodewordCount(correction) * 8
        var buffer = BitBuffer()
        buffer.append(0b0100, width: 4)
        buffer.append(bytes.count, width: version.characterCountBits)
        for byte in bytes { buffer.append(Int(byte), width: 8) }
        buffer.append(0, width: min(4, capacityBits - buffer.count))
        buffer.append(0, width: (8 - buffer.count % 8) % 8)
        var codewords = buffer.bytes
        var padding: [UInt8] = [0xEC, 0x11]
        while codewords.count * 8 < capacityBits {
            codewords.append(padding[0])
            padding.reverse()
        }
        return codewords
    }
}
