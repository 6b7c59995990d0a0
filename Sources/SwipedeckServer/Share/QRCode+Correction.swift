extension QRCode {
    /// Error-correction level: the share of the symbol spent on Reed–Solomon codewords, and so roughly
    /// how much of a damaged or obscured code can still be read. Higher levels need larger versions.
    public enum Correction: Sendable, Hashable, CaseIterable {
        /// Level L: about 7% of codewords can be restored.
        case low
        /// Level M: about 15% of codewords can be restored.
        case medium
        /// Level Q: about 25% of codewords can be restored.
        case quartile
        /// Level H: about 30% of codewords can be restored.
        case high

        /// The standard's one-letter name: "L", "M", "Q" or "H".
        public var letter: String {
            switch self {
            case .low: "L"
            case .medium: "M"
            case .quartile: "Q"
            case .high: "H"
            }
        }

        /// The two bits that name the level in the format information (not in L-M-Q-H order).
        var formatBits: Int {
            switch self {
            case .low: 0b01
            case .medium: 0b00
            case .quartile: 0b11
            case .high: 0b10
            }
        }

        /// Error-correction codewords per block for `version` (1…40), from the standard's table.
        func codewordsPerBlock(version: Int) -> Int {
            Self.codewordsPerBlock[tableRow][version - 1]
        }

        /// Number of Reed–Solomon blocks the codewords of `version` (1…40) are split into.
        func blockCount(version: Int) -> Int {
            Self.blockCounts[tableRow][version - 1]
        }

        private var tableRow: Int {
            switch self {
            case .low: 0
            case .medium: 1
            case .quartile: 2
            case .high: 3
            }
        }

        // ISO/IEC 18004 table 9, one row per level (L, M, Q, H), one column per version 1…40.
        private static let codewordsPerBlock: [[Int]] = [
            [
                7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
                28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            ],
            [
                10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
                26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
            ],
            [
                13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
                28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            ],
            [
                17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
                30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
            ],
        ]

        private static let blockCounts: [[Int]] = [
            [
                1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
                8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25,
            ],
            [
                1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
                17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
            ],
            [
                1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
                23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68,
            ],
            [
                1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
                25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81,
            ],
        ]
    }
}
