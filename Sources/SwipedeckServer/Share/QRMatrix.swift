/// The square grid of a QR symbol while it is built: which modules are dark, and which belong to
/// function patterns (finders, separators, timing, alignment, format and version information),
/// which carry no data and are never masked. Coordinates: x is the column, y the row, (0, 0) top left.
struct QRMatrix: Sendable {
    /// Modules per side.
    let size: Int
    private var dark: [Bool]
    private var reserved: [Bool]

    /// A matrix for `version` with every function pattern drawn; the format information areas are
    /// reserved but light (bar the always-dark module) until `drawFormat(correction:mask:)`.
    init(version: QRVersion) {
        size = version.size
        dark = Array(repeating: false, count: size * size)
        reserved = dark
        for index in 8..<size - 8 {
            setFunction(x: index, y: 6, dark: index % 2 == 0)
            setFunction(x: 6, y: index, dark: index % 2 == 0)
        }
        drawFinder(centreX: 3, centreY: 3)
        drawFinder(centreX: size - 4, centreY: 3)
        drawFinder(centreX: 3, centreY: size - 4)
        let centres = version.alignmentCentres
        for x in centres {
            for y in centres where !overlapsFinder(x: x, y: y, last: centres.last!) {
                drawAlignment(centreX: x, centreY: y)
            }
        }
        drawFormat(bits: 0)
        if version.number >= 7 { drawVersion(version.number) }
    }

    /// A matrix of the given modules (`rows[y][x]`, true is dark) with no function patterns, for
    /// scoring arbitrary patterns. `rows` must be square.
    init(rows: [[Bool]]) {
        precondition(rows.allSatisfy { $0.count == rows.count }, "rows must form a square")
        size = rows.count
        dark = rows.flatMap { $0 }
        reserved = Array(repeating: false, count: dark.count)
    }

    /// Whether the module at (x, y) is dark; both coordinates must be in 0..<size.
    subscript(x: Int, y: Int) -> Bool {
        dark[y * size + x]
    }

    /// Whether the module at (x, y) belongs to a function pattern.
    func isFunction(x: Int, y: Int) -> Bool {
        reserved[y * size + x]
    }

    /// The modules row by row, top to bottom (`size * size` of them).
    var modules: [Bool] { dark }

    // MARK: - Data

    /// Writes `codewords` most significant bit first into the non-function modules in the standard
    /// zigzag: two-column strips from the right edge, alternately upwards and downwards, skipping the
    /// vertical timing column. Modules beyond the last codeword (remainder bits) stay light.
    mutating func place(_ codewords: [UInt8]) {
        let bitCount = codewords.count * 8
        var bitIndex = 0
        var upward = true
        var right = size - 1
        while right > 0 {
            if right == 6 { right = 5 }
            for step in 0..<size {
                let y = upward ? size - 1 - step : step
                for x in [right, right - 1] where !isFunction(x: x, y: y) {
                    if bitIndex < bitCount {
                        dark[y * size + x] = (codewords[bitIndex / 8] >> (7 - bitIndex % 8)) & 1 == 1
                    }
                    bitIndex += 1
                }
            }
            upward.toggle()
            right -= 2
        }
    }

    /// Inverts every non-function module where mask pattern `mask` (0…7) is true; applying the same
    /// mask twice restores the matrix.
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !reserved[y * size + x] && Self.maskInverts(mask, x: x, y: y) {
                dark[y * size + x].toggle()
            }
        }
    }

    /// Whether mask pattern `mask` (0…7) inverts the module in column x, row y.
    static func maskInverts(_ mask: Int, x: Int, y: Int) -> Bool {
        switch mask {
        case 0: (x + y) % 2 == 0
        case 1: y % 2 == 0
        case 2: x % 3 == 0
        case 3: (x + y) % 3 == 0
        case 4: (y / 2 + x / 3) % 2 == 0
        case 5: (x * y) % 2 + (x * y) % 3 == 0
        case 6: ((x * y) % 2 + (x * y) % 3) % 2 == 0
        case 7: ((x + y) % 2 + (x * y) % 3) % 2 == 0
        default: preconditionFailure("mask must be 0…7, not \(mask)")
        }
    }

    // MARK: - Format and version information

    /// Draws both copies of the 15-bit format information for `correction` and `mask` (0…7).
    mutating func drawFormat(correction: QRCode.Correction, mask: Int) {
        let data = correction.formatBits << 3 | mask
        // The fixed XOR keeps the format bits from ever being all light.
        drawFormat(
            bits: Self.bchCode(data, dataWidth: 5, generator: 0b101_0011_0111, degree: 10) ^ 0b101_0100_0001_0010)
    }

    /// Bit 0 is the least significant; bit 14 lands next to the top-left finder's left edge
    /// and at the very bottom of the copy beside the bottom-left finder.
    private mutating func drawFormat(bits: Int) {
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(x: 8, y: index, dark: bit(index)) }
        setFunction(x: 8, y: 7, dark: bit(6))
        setFunction(x: 8, y: 8, dark: bit(7))
        setFunction(x: 7, y: 8, dark: bit(8))
        for index in 9...14 { setFunction(x: 14 - index, y: 8, dark: bit(index)) }

        for index in 0...7 { setFunction(x: size - 1 - index, y: 8, dark: bit(index)) }
        for index in 8...14 { setFunction(x: 8, y: size - 15 + index, dark: bit(index)) }
        setFunction(x: 8, y: size - 8, dark: true)  // the "dark module", always dark
    }

    /// Draws both 6×3 blocks of the 18-bit version information (versions 7 and up).
    private mutating func drawVersion(_ number: Int) {
        let bits = Self.bchCode(number, dataWidth: 6, generator: 0b1_1111_0010_0101, degree: 12)
        for index in 0..<18 {
            let isDark = (bits >> index) & 1 == 1
            let across = index / 3
            let along = size - 11 + index % 3
            setFunction(x: along, y: across, dark: isDark)  // above the top-right finder
            setFunction(x: across, y: along, dark: isDark)  // left of the bottom-left finder
        }
    }

    /// `data` (`dataWidth` bits) followed by the `degree` check bits of the BCH code with `generator`:
    /// the remainder of data·x^degree divided by the generator, polynomials over GF(2) as bit sets.
    static func bchCode(_ data: Int, dataWidth: Int, generator: Int, degree: Int) -> Int {
        var remainder = data << degree
        for bit in stride(from: dataWidth + degree - 1, through: degree, by: -1) where (remainder >> bit) & 1 == 1 {
            remainder ^= generator << (bit - degree)
        }
        return data << degree | remainder
    }

    // MARK: - Function patterns

    /// A 7×7 finder with its light one-module separator, clipped to the symbol.
    private mutating func drawFinder(centreX: Int, centreY: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let x = centreX + dx
                let y = centreY + dy
                guard (0..<size).contains(x), (0..<size).contains(y) else { continue }
                let ring = max(abs(dx), abs(dy))  // 0 centre … 3 outer edge, 4 separator
                setFunction(x: x, y: y, dark: ring != 2 && ring != 4)
            }
        }
    }

    /// A 5×5 alignment pattern: dark edge, light ring, dark centre.
    private mutating func drawAlignment(centreX: Int, centreY: Int) {
        for dy in -2...2 {
            for dx in -2...2 {
                setFunction(x: centreX + dx, y: centreY + dy, dark: max(abs(dx), abs(dy)) != 1)
            }
        }
    }

    /// Whether an alignment pattern centred at (x, y) would fall on a finder: the three corner pairings.
    private func overlapsFinder(x: Int, y: Int, last: Int) -> Bool {
        (x == 6 && y == 6) || (x == 6 && y == last) || (x == last && y == 6)
    }

    private mutating func setFunction(x: Int, y: Int, dark isDark: Bool) {
        dark[y * size + x] = isDark
        reserved[y * size + x] = true
    }
}
