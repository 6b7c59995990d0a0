/// A QR code symbol (ISO/IEC 18004, model 2) encoding a text as UTF-8 in one byte-mode segment,
/// in the smallest version (1…40) that holds it at the requested error-correction level, with the
/// mask (0…7) that scores the lowest penalty. No ECI header is written; readers detect UTF-8.
///
/// Read the modules with `self[x, y]`; draw them with a 4-module light quiet zone around, e.g. `svg`.
public struct QRCode: Sendable {
    /// Symbol version, 1…40.
    public let version: Int
    /// Error-correction level the symbol was built with.
    public let correction: Correction
    /// The mask pattern applied to the data, 0…7 (as written in the format information).
    public let mask: Int
    /// Modules per side, 17 + 4 × version (21…177), not counting the quiet zone.
    public let size: Int
    /// The finished symbol (kept whole so tests can score its penalty).
    let matrix: QRMatrix

    /// Encodes `text` (its UTF-8 bytes; the empty text gives a version 1 symbol).
    /// - Throws: `EncodingError.textTooLong` when the UTF-8 is longer than version 40 holds at
    ///   `correction` (2,953 bytes at L, 2,331 at M, 1,663 at Q, 1,273 at H).
    public init(encoding text: String, correction: Correction = .medium) throws(EncodingError) {
        try self.init(encoding: text, correction: correction, mask: nil)
    }

    /// As the public initialiser, but with the mask forced to `mask` (0…7) when it is not nil.
    init(encoding text: String, correction: Correction, mask forcedMask: Int?) throws(EncodingError) {
        let bytes = Array(text.utf8)
        guard let version = QRVersion.smallest(holding: bytes.count, at: correction) else {
            let maximum = QRVersion.all.last!.byteCapacity(correction)
            throw .textTooLong(byteCount: bytes.count, maximumByteCount: maximum, correction: correction)
        }
        var unmasked = QRMatrix(version: version)
        unmasked.place(Self.codewords(for: bytes, version: version, correction: correction))

        let candidates = (forcedMask.map { [$0] } ?? Array(0...7)).map { mask in
            var matrix = unmasked
            matrix.applyMask(mask)
            matrix.drawFormat(correction: correction, mask: mask)
            return (mask: mask, matrix: matrix)
        }
        // The lowest penalty wins, the lower mask number on a tie; a forced mask needs no scoring.
        let chosen =
            candidates.count == 1
            ? candidates[0]
            : zip(candidates, candidates.map(\.matrix.penalty)).min { $0.1 < $1.1 }!.0
        self.version = version.number
        self.correction = correction
        self.mask = chosen.mask
        self.size = version.size
        self.matrix = chosen.matrix
    }

    /// Whether the module in column `x`, row `y` is dark; (0, 0) is the top-left corner.
    /// Coordinates outside 0..<size are light, as the quiet zone around the symbol is.
    public subscript(x: Int, y: Int) -> Bool {
        guard (0..<size).contains(x), (0..<size).contains(y) else { return false }
        return matrix[x, y]
    }
}
