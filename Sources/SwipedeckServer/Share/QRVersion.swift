/// One of the 40 QR code symbol sizes, with the layout facts the encoder derives from it.
struct QRVersion: Sendable, Hashable {
    /// 1…40.
    let number: Int

    /// Every version, smallest first.
    static let all = (1...40).map(QRVersion.init(number:))

    /// Modules per side: 21 for version 1, growing by 4 per version to 177 for version 40.
    var size: Int { 17 + 4 * number }

    /// Row (and column) coordinates of the alignment pattern centres; the patterns sit at every
    /// pairing of them except the three that would overlap finder patterns. Empty for version 1.
    var alignmentCentres: [Int] {
        if number == 1 { return [] }
        let count = number / 7 + 2
        // Evenly spaced back from the last centre (size − 7) towards 6, the spacing rounded up to
        // an even number (every centre in the standard's table is even); version 32 is the one
        // version whose spacing the table sets otherwise.
        let span = size - 13
        let roundedUp = (span + count - 2) / (count - 1)
        let step = number == 32 ? 26 : roundedUp + roundedUp % 2
        return [6] + (1..<count).reversed().map { size - 7 - ($0 - 1) * step }
    }

    /// Modules left for codewords (and up to 7 remainder bits) once all function patterns are drawn.
    var dataModuleCount: Int {
        let alignmentsPerSide = alignmentCentres.count
        let alignmentPatterns = alignmentsPerSide == 0 ? 0 : alignmentsPerSide * alignmentsPerSide - 3
        // Alignment patterns on row or column 6 cover 5 timing modules each, counted only once.
        let alignmentOnTiming = alignmentsPerSide == 0 ? 0 : 2 * (alignmentsPerSide - 2) * 5
        let finders = 3 * 8 * 8  // with their separators
        let formatInformation = 2 * 15 + 1  // two copies and the dark module
        let timing = 2 * (size - 16)
        let versionInformation = number >= 7 ? 2 * 18 : 0
        return size * size - finders - formatInformation - timing - versionInformation
            - alignmentPatterns * 25 + alignmentOnTiming
    }

    /// Data plus error-correction codewords in the symbol.
    var codewordCount: Int { dataModuleCount / 8 }

    /// Width of the byte-mode character count field: 8 bits up to version 9, 16 from version 10.
    var characterCountBits: Int { number < 10 ? 8 : 16 }

    /// Data codewords (before error correction) at `correction`.
    func dataCodewordCount(_ correction: QRCode.Correction) -> Int {
        codewordCount - correction.blockCount(version: number) * correction.codewordsPerBlock(version: number)
    }

    /// Most bytes one byte-mode segment holds at `correction`, after its 4-bit mode indicator and count.
    func byteCapacity(_ correction: QRCode.Correction) -> Int {
        (dataCodewordCount(correction) * 8 - 4 - characterCountBits) / 8
    }

    /// The smallest version holding `byteCount` bytes at `correction`, or nil if even version 40 cannot.
    static func smallest(holding byteCount: Int, at correction: QRCode.Correction) -> QRVersion? {
        all.first { $0.byteCapacity(correction) >= byteCount }
    }
}
