import Foundation
import Testing

@testable import SwipedeckServer

/// The QR code encoder: symbol structure checked module by module, round trips through a real
/// decoder (`zbarimg`, Debian zbar-tools) from a PBM raster and from the SVG rasterised by
/// `rsvg-convert` (librsvg2-bin), the too-long error, the mask choice and version information.
/// Both tools are required: `make test` installs them.
// Serialized: its cases encode codes in every version and mask and decode each with zbarimg, seconds
// of CPU in a debug build; one at a time they hold at most one of the concurrency pool's threads.
@Suite("QRCode", .serialized)
struct QRCodeTests {
    static let shareURL = "http://192.168.1.20:8080/d/weekend-getaways"
    static let unicodeURL = "https://example.org/d/café-ß-日本"
    /// 304 bytes: version 13 at level M.
    static let longURL =
        "http://192.168.1.20:8080/d/weekend-getaways?ref=share&utm_source=qr&note="
        + String(repeating: "abcdefghij", count: 23)
    static let texts = ["Hi", shareURL, longURL, unicodeURL]

    // MARK: Structure

    @Test(
        "Size is 17 + 4·version; finders, separators, timing and the dark module are in place",
        arguments: [1, 2, 6, 7, 14, 27, 32, 40])
    func structure(version: Int) throws {
        let code = try QRCode(encoding: Self.text(filling: version, at: .low), correction: .low)
        #expect(code.version == version)
        #expect(code.size == 17 + 4 * version)
        let n = code.size
        var wrong: [String] = []
        for (left, top) in [(0, 0), (n - 7, 0), (0, n - 7)] {
            for y in top - 1...top + 7 {
                for x in left - 1...left + 7 where (0..<n).contains(x) && (0..<n).contains(y) {
                    // Rings from the centre: 3×3 dark core, light ring, dark edge, light separator.
                    let ring = max(abs(x - left - 3), abs(y - top - 3))
                    if code[x, y] != (ring != 2 && ring != 4) { wrong.append("finder (\(x), \(y))") }
                }
            }
        }
        for index in 8..<n - 8 {
            if code[index, 6] != index.isMultiple(of: 2) { wrong.append("timing row (\(index), 6)") }
            if code[6, index] != index.isMultiple(of: 2) { wrong.append("timing column (6, \(index))") }
        }
        if !code[8, n - 8] { wrong.append("dark module (8, \(n - 8))") }
        #expect(wrong.isEmpty, "modules wrong: \(wrong.prefix(10))")
        #expect(!code[-1, 0] && !code[0, n] && !code[n, n - 1], "outside the symbol reads light")
    }

    @Test(
        "Alignment patterns sit at the standard's centres",
        arguments: [
            (2, [6, 18]), (7, [6, 22, 38]), (15, [6, 26, 48, 70]), (16, [6, 26, 50, 74]),
            (32, [6, 34, 60, 86, 112, 138]), (36, [6, 24, 50, 76, 102, 128, 154]),
            (40, [6, 30, 58, 86, 114, 142, 170]),
        ])
    func alignment(version: Int, centres: [Int]) throws {
        #expect(QRVersion(number: version).alignmentCentres == centres)
        let code = try QRCode(encoding: Self.text(filling: version, at: .medium), correction: .medium)
        let last = centres.last!
        var wrong: [String] = []
        for cx in centres {
            for cy in centres where ![(6, 6), (6, last), (last, 6)].contains(where: { $0 == (cx, cy) }) {
                for dy in -2...2 {
                    for dx in -2...2 where code[cx + dx, cy + dy] != (max(abs(dx), abs(dy)) != 1) {
                        wrong.append("(\(cx + dx), \(cy + dy))")
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "alignment modules wrong: \(wrong.prefix(10))")
    }

    @Test("The smallest version holding the text is chosen; versions 1 and 40 hold the standard's capacities")
    func capacities() throws {
        let table: [(QRCode.Correction, Int, Int)] = [
            (.low, 17, 2953), (.medium, 14, 2331), (.quartile, 11, 1663), (.high, 7, 1273),
        ]
        for (correction, first, last) in table {
            #expect(try QRCode(encoding: String(repeating: "a", count: first), correction: correction).version == 1)
            #expect(try QRCode(encoding: String(repeating: "a", count: first + 1), correction: correction).version == 2)
            #expect(try QRCode(encoding: String(repeating: "a", count: last), correction: correction).version == 40)
        }
        #expect(try QRCode(encoding: "").version == 1)
        #expect(try QRCode(encoding: Self.shareURL).version == 4)
        #expect(try QRCode(encoding: Self.longURL).version == 13)
    }

    @Test(
        "Format information: both copies are the same valid BCH word naming the level and mask",
        arguments: QRCode.Correction.allCases)
    func formatInformation(correction: QRCode.Correction) throws {
        let code = try QRCode(encoding: Self.shareURL, correction: correction)
        let n = code.size
        // Bit i of each copy, bit 0 first (ISO/IEC 18004 figure 25).
        let first = (0...5).map { (8, $0) } + [(8, 7), (8, 8), (7, 8)] + (9...14).map { (14 - $0, 8) }
        let second = (0...7).map { (n - 1 - $0, 8) } + (8...14).map { (8, n - 15 + $0) }
        let word = Self.read(code, first)
        #expect(word == Self.read(code, second))
        let unmasked = word ^ 0x5412
        #expect(unmasked >> 10 == correction.formatBits << 3 | code.mask)
        #expect(Self.polynomialRemainder(unmasked, divisor: 0x537) == 0)
        // A known word from the standard's list of all 32: level L, mask 4.
        #expect(QRMatrix.bchCode(0b01_100, dataWidth: 5, generator: 0x537, degree: 10) ^ 0x5412 == 0b1100110_00101111)
    }

    // MARK: Decoding with zbarimg

    @Test(
        "Texts decode exactly from a PBM raster and from the rasterised SVG",
        arguments: QRCodeTests.texts, QRCode.Correction.allCases)
    func roundTrip(text: String, correction: QRCode.Correction) async throws {
        let code = try QRCode(encoding: text, correction: correction)
        #expect(try await Self.decodePBM(code) == text, "PBM, version \(code.version)")
        #expect(try await Self.decodeSVG(code) == text, "SVG, version \(code.version)")
    }

    @Test("Every version 1–40 at every level decodes when filled to capacity", arguments: 1...40)
    func everyVersion(version: Int) async throws {
        for (index, correction) in QRCode.Correction.allCases.enumerated() {
            let text = Self.text(filling: version, at: correction)
            // A forced mask (all eight across the sweep) skips scoring eight candidates per symbol.
            let code = try QRCode(encoding: text, correction: correction, mask: (version + index) % 8)
            #expect(code.version == version)
            #expect(try await Self.decodePBM(code) == text, "version \(version), level \(correction.letter)")
        }
    }

    @Test("Versions 7 and up carry version information, and decode", arguments: [(120, 7), (990, 25)])
    func versionInformation(byteCount: Int, expectedVersion: Int) async throws {
        let text =
            "https://example.org/d/"
            + String(repeating: "weekend-getaways-", count: byteCount / 17 + 1)
            .prefix(byteCount - 22)
        #expect(text.utf8.count == byteCount)
        let code = try QRCode(encoding: text)
        #expect(code.version == expectedVersion)
        let n = code.size
        let topRight = (0..<18).map { (n - 11 + $0 % 3, $0 / 3) }
        let bottomLeft = (0..<18).map { ($0 / 3, n - 11 + $0 % 3) }
        let word = Self.read(code, topRight)
        #expect(word == Self.read(code, bottomLeft))
        #expect(word >> 12 == expectedVersion)
        #expect(Self.polynomialRemainder(word, divisor: 0x1F25) == 0)
        #expect(try await Self.decodePBM(code) == text)
        // Known words from the standard's table.
        #expect(QRMatrix.bchCode(7, dataWidth: 6, generator: 0x1F25, degree: 12) == 0x07C94)
        #expect(QRMatrix.bchCode(40, dataWidth: 6, generator: 0x1F25, degree: 12) == 0x28C69)
    }

    // MARK: Errors

    @Test("Text too long for version 40 throws the typed error with a sentence")
    func tooLong() throws {
        let text = String(repeating: "é", count: 1166)  // 2,332 bytes of UTF-8
        let expected = QRCode.EncodingError.textTooLong(byteCount: 2332, maximumByteCount: 2331, correction: .medium)
        #expect(throws: expected) { try QRCode(encoding: text) }
        do {
            _ = try QRCode(encoding: text)
        } catch {
            let typed: QRCode.EncodingError = error  // typed throws: no cast needed
            #expect(
                typed.description
                    == "The text is 2332 bytes of UTF-8, but a QR code at error-correction level M holds at most 2331 bytes."
            )
        }
        #expect(throws: QRCode.EncodingError.textTooLong(byteCount: 1274, maximumByteCount: 1273, correction: .high)) {
            try QRCode(encoding: String(repeating: "a", count: 1274), correction: .high)
        }
    }

    // MARK: Masks

    @Test("The chosen mask has the lowest penalty of the eight, and every mask decodes", arguments: QRCodeTests.texts)
    func maskChoice(text: String) async throws {
        for correction in QRCode.Correction.allCases {
            let chosen = try QRCode(encoding: text, correction: correction)
            let candidates = try (0...7).map { try QRCode(encoding: text, correction: correction, mask: $0) }
            let penalties = candidates.map(\.matrix.penalty)
            let lowest = penalties.min()!
            #expect(chosen.mask == penalties.firstIndex(of: lowest)!, "penalties \(penalties)")
            #expect(chosen.matrix.modules == candidates[chosen.mask].matrix.modules)
            #expect(Set(penalties).count > 1, "the masks should score differently: \(penalties)")
        }
        for mask in 0...7 {
            let forced = try QRCode(encoding: text, correction: .medium, mask: mask)
            #expect(forced.mask == mask)
            #expect(try await Self.decodePBM(forced) == text, "mask \(mask)")
        }
    }

    @Test("Penalty rules score hand-made patterns as the standard says")
    func penaltyRules() {
        let allDark = QRMatrix(rows: Array(repeating: Array(repeating: true, count: 5), count: 5))
        #expect(allDark.runPenalty == 30)  // 10 lines, each one run of 5
        #expect(allDark.blockPenalty == 48)  // 16 overlapping 2×2 squares
        #expect(allDark.finderLikePenalty == 0)
        #expect(allDark.balancePenalty == 100)  // 50 points from 50%
        #expect(allDark.penalty == 178)

        let checkerboard = (0..<6).map { y in (0..<6).map { x in (x + y).isMultiple(of: 2) } }
        #expect(QRMatrix(rows: checkerboard).penalty == 0)
        var oneDarkRow = checkerboard
        oneDarkRow[2] = Array(repeating: true, count: 6)
        #expect(QRMatrix(rows: oneDarkRow).runPenalty == 4)  // a run of 6: 3 + 1
        #expect(QRMatrix(rows: oneDarkRow).blockPenalty == 0)

        #expect(Self.firstRow("10111010000").finderLikePenalty == 40)
        #expect(Self.firstRow("00001011101").finderLikePenalty == 40)
        #expect(Self.firstRow("000010111010000").finderLikePenalty == 80)
        #expect(Self.firstRow("10111010001").finderLikePenalty == 0)

        func darkShare(_ darkCount: Int) -> QRMatrix {
            QRMatrix(rows: (0..<10).map { y in (0..<10).map { x in y * 10 + x < darkCount } })
        }
        #expect(darkShare(50).balancePenalty == 0)
        #expect(darkShare(46).balancePenalty == 0)
        #expect(darkShare(45).balancePenalty == 10)
        #expect(darkShare(30).balancePenalty == 40)
    }

    // MARK: SVG

    @Test("SVG: viewBox with quiet zone, one path covering exactly the dark modules, escaped title, no style")
    func svgMarkup() throws {
        let code = try QRCode(encoding: Self.shareURL)
        let svg = code.svg(title: "QR code for <a href=\"x\">&</a>")
        let side = code.size + 8
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\""))
        #expect(svg.contains("width=\"\(side * 8)\" height=\"\(side * 8)\""))
        #expect(svg.contains("shape-rendering=\"crispEdges\""))
        #expect(svg.contains("role=\"img\""))
        #expect(svg.contains("<title>QR code for &lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;</title>"))
        #expect(svg.contains("<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"))
        #expect(svg.components(separatedBy: "<path").count == 2, "one path")
        #expect(!svg.contains("style") && !svg.contains("<script"))
        #expect(svg.hasSuffix("</svg>"))
        // Redraw the path's runs and compare with the symbol module by module.
        var drawn = Set<[Int]>()
        for run in svg.matches(of: #/M(\d+) (\d+)h(\d+)v1h-(\d+)z/#) {
            let x = Int(run.1)!
            let y = Int(run.2)!
            let length = Int(run.3)!
            #expect(run.4 == run.3, "each run closes where it started")
            for dx in 0..<length { drawn.insert([x + dx - 4, y - 4]) }
        }
        let dark = Set((0..<code.size).flatMap { y in (0..<code.size).filter { x in code[x, y] }.map { [$0, y] } })
        #expect(drawn == dark)

        let bare = code.svg(moduleSize: 2, quietZone: 0, title: "t")
        #expect(bare.contains("viewBox=\"0 0 \(code.size) \(code.size)\" width=\"\(code.size * 2)\""))
    }

    // MARK: Helpers

    /// A text of exactly the byte capacity of `version` at `correction`, in URL-like characters.
    static func text(filling version: Int, at correction: QRCode.Correction) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-./:?=&")
        var state = UInt32(version * 31 + 7)
        return String(
            (0..<QRVersion(number: version).byteCapacity(correction)).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223  // a fixed pseudo-random sequence
                return alphabet[Int(state >> 16) % alphabet.count]
            })
    }

    /// The bits at `positions`, the first position being bit 0.
    static func read(_ code: QRCode, _ positions: [(Int, Int)]) -> Int {
        positions.enumerated().reduce(0) { word, entry in
            word | (code[entry.element.0, entry.element.1] ? 1 << entry.offset : 0)
        }
    }

    /// `value` modulo `divisor`, both polynomials over GF(2) written as bit sets.
    static func polynomialRemainder(_ value: Int, divisor: Int) -> Int {
        var remainder = value
        let degree = Int.bitWidth - divisor.leadingZeroBitCount - 1
        while remainder != 0, Int.bitWidth - remainder.leadingZeroBitCount - 1 >= degree {
            remainder ^= divisor << (Int.bitWidth - remainder.leadingZeroBitCount - 1 - degree)
        }
        return remainder
    }

    /// A square matrix whose first row is `pattern` ("1" dark) and whose other rows are light.
    static func firstRow(_ pattern: String) -> QRMatrix {
        let width = pattern.count
        return QRMatrix(
            rows: [pattern.map { $0 == "1" }]
                + Array(repeating: Array(repeating: false, count: width), count: width - 1))
    }
}
