extension QRMatrix {
    /// The standard's mask evaluation score (lower is better): the sum of the four rules below,
    /// over the whole symbol including function patterns, without the quiet zone.
    var penalty: Int {
        runPenalty + blockPenalty + finderLikePenalty + balancePenalty
    }

    /// Rule N1: 3 + (length − 5) for each run of 5 or more same-coloured modules in a row or column.
    var runPenalty: Int {
        var total = 0
        for line in 0..<2 * size {
            var runLength = 0
            var previous = false
            for position in 0..<size {
                let module = self.module(line: line, position: position)
                runLength = position > 0 && module == previous ? runLength + 1 : 1
                previous = module
                if runLength == 5 { total += 3 } else if runLength > 5 { total += 1 }
            }
        }
        return total
    }

    /// Rule N2: 3 for each 2×2 square of one colour (overlapping squares each count).
    var blockPenalty: Int {
        var total = 0
        for y in 0..<size - 1 {
            for x in 0..<size - 1 {
                let colour = self[x, y]
                if self[x + 1, y] == colour, self[x, y + 1] == colour, self[x + 1, y + 1] == colour {
                    total += 3
                }
            }
        }
        return total
    }

    /// Rule N3: 40 for each dark-light-dark-dark-dark-light-dark (1:1:3:1:1) pattern in a row or
    /// column with four light modules before or after it inside the symbol (a pattern with light on
    /// both sides counts twice); such patterns look like finders to a reader.
    var finderLikePenalty: Int {
        let lightThenPattern = 0b0000_1011101
        let patternThenLight = 0b1011101_0000
        var total = 0
        for line in 0..<2 * size {
            // The last 11 modules as bits, the most recent in bit 0; 1 is dark.
            var window = 0
            for position in 0..<size {
                window = (window << 1 | (module(line: line, position: position) ? 1 : 0)) & 0x7FF
                if position >= 10 && (window == lightThenPattern || window == patternThenLight) { total += 40 }
            }
        }
        return total
    }

    /// Rule N4: 10 for each whole 5 percentage points the dark share of modules is away from 50%.
    var balancePenalty: Int {
        var darkCount = 0
        for module in modules where module { darkCount += 1 }
        let total = size * size
        return 10 * (abs(darkCount * 20 - total * 10) / total)
    }

    /// Module `position` of row `line` (for line < size) or of column `line − size`.
    private func module(line: Int, position: Int) -> Bool {
        line < size ? self[position, line] : self[line - size, position]
    }
}
