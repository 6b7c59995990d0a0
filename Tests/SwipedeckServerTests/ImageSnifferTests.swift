import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// `ImageSniffer` on real files, on each way a file can be cut or damaged, and on thousands of
/// random and mutated inputs: it never traps or hangs, and never reports a size that is not in
/// the bytes it was given.
@Suite struct ImageSnifferTests {
    @Test(arguments: ImageFixtures.all)
    func readsFormatAndSizeOfRealFiles(_ fixture: ImageFixture) throws {
        let image = try ImageSniffer.inspect(fixture.bytes)
        #expect(image == InspectedImage(format: fixture.format, width: fixture.width, height: fixture.height))
    }

    @Test(arguments: ImageFixtures.all)
    func refusesEveryCutShortCopy(_ fixture: ImageFixture) {
        // A GIF without its 1-byte trailer is shown by browsers and accepted; any shorter copy of
        // any fixture is missing a part a browser needs.
        let shortest = fixture.format == .gif ? fixture.bytes.count - 1 : fixture.bytes.count
        for length in 0..<shortest {
            let cut = Array(fixture.bytes.prefix(length))
            #expect(throws: ImageRefusal.self, "\(fixture) cut to \(length) bytes") { try ImageSniffer.inspect(cut) }
        }
        if fixture.format == .gif {
            #expect((try? ImageSniffer.inspect(Array(fixture.bytes.dropLast())))?.width == fixture.width)
        }
    }

    /// The smallest well-formed files of another tool (schemathesis 4.32, which sends them to
    /// `POST /api/v1/images` while fuzzing): made elsewhere, so they check the fixtures' maker too.
    @Test func readsOtherToolsSmallestFiles() throws {
        let samples: [(String, ImageFormat)] = [
            ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==", .png),
            ("R0lGODdhAQABAIEAAAAAAAAAAAAAAAAAACwAAAAAAQABAAAIBAABBAQAOw==", .gif),
            ("UklGRhoAAABXRUJQVlA4TA4AAAAvAAAAAAcQEf0PRET/Aw==", .webp),
            (
                "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAFA3PEY8MlBGQUZaVVBfeMiCeG5uePWvuZHI////////////////////////////////////////"
                    + "////////////wAALCAABAAEBAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQR"
                    + "BRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4"
                    + "eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEB"
                    + "AAA/AKVf/9k=", .jpeg
            ),
        ]
        for (base64, format) in samples {
            let image = try ImageSniffer.inspect(ImageFixtures.decode(base64))
            #expect(image == InspectedImage(format: format, width: 1, height: 1))
        }
    }

    @Test func namesWhatARefusedFileLooksLike() {
        let cases: [(String, String?, String)] = [
            (
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>", "image/svg+xml",
                "an SVG image"
            ),
            ("\u{FEFF}  <?xml version=\"1.0\"?>\n<svg width=\"10\"/>", nil, "an SVG image"),
            ("<!DOCTYPE html><html><body>hi</body></html>", "image/png", "an HTML page"),
            ("<script>alert(document.cookie)</script>", "image/gif", "an HTML page"),
            ("%PDF-1.7\n%âãÏÓ", "application/pdf", "a PDF document"),
            ("{\"title\":\"not an image\"}", "image/png", "JSON or other text"),
            ("hello", nil, "text"),
        ]
        for (text, declared, looksLike) in cases {
            do {
                _ = try ImageSniffer.inspect(Array(text.utf8), declaredType: declared)
                Issue.record("accepted \(text)")
            } catch {
                guard case .unsupportedType(let described, let sentAs) = error else {
                    Issue.record("\(text): \(error)")
                    continue
                }
                #expect(described.hasPrefix(looksLike), "\(text) described as \(described)")
                #expect(sentAs == declared)
                #expect(error.code == "unsupported_image_type")
                #expect(
                    error.message.hasPrefix("Upload a PNG, JPEG, WebP or GIF image; this file is \(looksLike)"),
                    "\(error.message)")
            }
        }
        #expect(throws: ImageRefusal.empty) { try ImageSniffer.inspect([]) }
        #expect(throws: ImageRefusal.unsupportedType(looksLike: "of an unknown type", declared: nil)) {
            try ImageSniffer.inspect([0x00, 0x9F, 0x12, 0xFE])
        }
        let form = Array("--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n".utf8)
        do {
            _ = try ImageSniffer.inspect(form, declaredType: "multipart/form-data; boundary=x")
            Issue.record("accepted a multipart form")
        } catch {
            #expect(error.message.contains("multipart form"), "\(error.message)")
        }
    }

    @Test func refusesImagesWithMorePixelsThanTheLimit() throws {
        var bytes = ImageFixtures.png.bytes
        // IHDR width and height (big-endian at 16 and 20) set to 100,000 × 100,000.
        for offset in [16, 20] { bytes.replaceSubrange(offset..<offset + 4, with: [0x00, 0x01, 0x86, 0xA0]) }
        #expect(
            throws: ImageRefusal.tooManyPixels(width: 100_000, height: 100_000, limit: ImageSniffer.defaultMaxPixels)
        ) {
            try ImageSniffer.inspect(bytes)
        }
        #expect(throws: ImageRefusal.tooManyPixels(width: 260, height: 3, limit: 779)) {
            try ImageSniffer.inspect(ImageFixtures.png.bytes, maxPixels: 779)
        }
        #expect(try ImageSniffer.inspect(ImageFixtures.png.bytes, maxPixels: 780).width == 260)
    }

    /// A PNG of the fixture's bytes whose IHDR says `width` × `height`.
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes = ImageFixtures.png.bytes
        for (offset, value) in [(16, width), (20, height)] {
            bytes.replaceSubrange(
                offset..<offset + 4, with: (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) })
        }
        return bytes
    }

    /// A whole GIF of one frame: logical screen `screen`, the frame at `origin` of size `frame`.
    static func gif(screen: (Int, Int), origin: (Int, Int) = (0, 0), frame: (Int, Int)) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        return Array("GIF89a".utf8) + u16(screen.0) + u16(screen.1) + [0, 0, 0]
            + [0x2C] + u16(origin.0) + u16(origin.1) + u16(frame.0) + u16(frame.1) + [0]
            + [2, 2, 0x4C, 0x01, 0] + [0x3B]
    }

    @Test("the pixel cap bounds the decoded size: 40 MP by default, a GIF's frames' reach included")
    func pixelCapProtectsPhones() throws {
        #expect(ImageSniffer.defaultMaxPixels <= 40_000_000)
        // The field test's: a 47 KB PNG and a 29-byte GIF announcing 7,000 × 7,000 (49 MP, about
        // 196 MB decoded in every swiper's browser) were accepted under the former 50 MP cap.
        #expect(throws: ImageRefusal.tooManyPixels(width: 7_000, height: 7_000, limit: ImageSniffer.defaultMaxPixels)) {
            try ImageSniffer.inspect(Self.png(width: 7_000, height: 7_000))
        }
        let tiny = Self.gif(screen: (7_000, 7_000), frame: (1, 1))
        #expect(tiny.count == 29)
        #expect(throws: ImageRefusal.tooManyPixels(width: 7_000, height: 7_000, limit: ImageSniffer.defaultMaxPixels)) {
            try ImageSniffer.inspect(tiny)
        }
        // A small screen whose frame reaches far beyond it: browsers grow the canvas to the frame.
        #expect(throws: ImageRefusal.tooManyPixels(width: 7_000, height: 6_010, limit: ImageSniffer.defaultMaxPixels)) {
            try ImageSniffer.inspect(Self.gif(screen: (10, 10), origin: (0, 10), frame: (7_000, 6_000)))
        }
        // Within the cap: a 24 MP photo's size, a screen holding its frame.
        #expect(try ImageSniffer.inspect(Self.png(width: 6_000, height: 4_000)).width == 6_000)
        let fits = try ImageSniffer.inspect(Self.gif(screen: (6_000, 6_000), origin: (10, 10), frame: (100, 100)))
        #expect(fits.width == 6_000 && fits.height == 6_000)
        // The limit is exact, and a configured one holds.
        #expect(try ImageSniffer.inspect(Self.png(width: 8_000, height: 5_000)).height == 5_000)
        #expect(throws: ImageRefusal.tooManyPixels(width: 8_000, height: 5_001, limit: ImageSniffer.defaultMaxPixels)) {
            try ImageSniffer.inspect(Self.png(width: 8_000, height: 5_001))
        }
        #expect(throws: ImageRefusal.tooManyPixels(width: 6_000, height: 4_000, limit: 12_000_000)) {
            try ImageSniffer.inspect(Self.png(width: 6_000, height: 4_000), maxPixels: 12_000_000)
        }
    }

    @Test func refusesZeroSizesAndHostileLengthsQuickly() async {
        var zeroWide = ImageFixtures.gif.bytes
        zeroWide[6] = 0
        zeroWide[7] = 0
        #expect(throws: ImageRefusal.unreadable(.gif, reason: "its width or height is 0")) {
            try ImageSniffer.inspect(zeroWide)
        }

        // A PNG whose second chunk announces 2^31 − 1 bytes.
        var hugeChunk = Array(ImageFixtures.png.bytes.prefix(33))
        hugeChunk += [0x7F, 0xFF, 0xFF, 0xFF] + Array("IDAT".utf8) + [UInt8](repeating: 0, count: 100)
        #expect(throws: ImageRefusal.unreadable(.png, reason: "it is cut off inside its IDAT chunk")) {
            try ImageSniffer.inspect(hugeChunk)
        }

        // Each input below is a megabyte parsed in one call: seconds of CPU in a debug build, so the
        // test lets the concurrency pool run other tasks between them.
        await Task.yield()
        // A JPEG of a million fill bytes, and one of a million empty restart markers.
        let fill = [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0xFF, count: 1_000_000)
        #expect(throws: ImageRefusal.self) { try ImageSniffer.inspect(fill) }
        await Task.yield()
        let restarts = [0xFF, 0xD8] + Array([[UInt8]](repeating: [0xFF, 0xD0], count: 500_000).joined())
        #expect(throws: ImageRefusal.self) { try ImageSniffer.inspect(restarts) }

        await Task.yield()
        // A GIF of 100,000 empty extensions and no image.
        var extensions = Array(ImageFixtures.gif.bytes.prefix(13))
        extensions[10] = 0  // no global colour table
        for _ in 0..<100_000 { extensions += [0x21, 0xF9, 0x00] }
        #expect(throws: ImageRefusal.unreadable(.gif, reason: "it holds no image")) {
            try ImageSniffer.inspect(extensions)
        }

        // A WebP whose RIFF size announces 4 GiB.
        var riff = ImageFixtures.webpLossy.bytes
        riff.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ImageRefusal.self) { try ImageSniffer.inspect(riff) }
    }

    @Test func trustsTheBytesNotTheDeclaredType() throws {
        let image = try ImageSniffer.inspect(ImageFixtures.png.bytes, declaredType: "image/jpeg")
        #expect(image.format == .png)
    }

    @Test(.timeLimit(.minutes(2)))
    func randomAndMutatedInputsNeverTrapAndNeverInventASize() async {
        var random = SplitMix64(seed: 0x5EED)
        var accepted = 0
        var refused = 0
        for round in 0..<6_000 {
            // Seconds of CPU in all: other tasks get the pool's thread between batches.
            if round % 250 == 0 { await Task.yield() }
            let input =
                round < 1_000
                ? Self.randomBytes(&random)
                : Self.mutated(ImageFixtures.all[round % ImageFixtures.all.count].bytes, &random)
            do {
                let image = try ImageSniffer.inspect(input)
                accepted += 1
                #expect(
                    image.width >= 1 && image.height >= 1 && image.width * image.height <= ImageSniffer.defaultMaxPixels
                )
                #expect(ImageSniffer.format(of: ByteReader(bytes: input)) == image.format)
                #expect(Self.sizeIsWritten(in: input, image), "round \(round): \(image) not in \(input.prefix(40))")
            } catch {
                refused += 1
                #expect(!error.code.isEmpty && !error.message.isEmpty)
            }
        }
        // Both outcomes happen, so the loop tests something on each side.
        #expect(accepted > 100, "accepted \(accepted)")
        #expect(refused > 1_000, "refused \(refused)")
    }

    /// Whether the reported size is where the format stores it, read independently of the sniffer.
    static func sizeIsWritten(in bytes: [UInt8], _ image: InspectedImage) -> Bool {
        let r = ByteReader(bytes: bytes)
        switch image.format {
        case .png:
            return r.u32be(16) == image.width && r.u32be(20) == image.height
        case .gif:
            return r.u16le(6) == image.width && r.u16le(8) == image.height
        case .webp:
            switch r.fourCC(12) {
            case "VP8 ":
                return r.u16le(26).map { $0 & 0x3FFF } == image.width && r.u16le(28).map { $0 & 0x3FFF } == image.height
            case "VP8L":
                return r.u32le(21).map { ($0 & 0x3FFF) + 1 == image.width && (($0 >> 14) & 0x3FFF) + 1 == image.height }
                    == true
            case "VP8X": return r.u24le(24).map { $0 + 1 } == image.width && r.u24le(27).map { $0 + 1 } == image.height
            default: return false
            }
        case .jpeg:
            // Some FF Cn marker (a start of frame) followed by length, precision, height, width.
            return bytes.indices.contains { i in
                r.u8(i) == 0xFF && ImageSniffer.isStartOfFrame(r.u8(i + 1) ?? 0)
                    && r.u16be(i + 5) == image.height && r.u16be(i + 7) == image.width
            }
        }
    }

    static func randomBytes(_ random: inout SplitMix64) -> [UInt8] {
        let magic: [[UInt8]] = [
            [], ImageSniffer.pngSignature, [0xFF, 0xD8, 0xFF], Array("GIF89a".utf8),
            Array("RIFF\u{20}\u{0}\u{0}\u{0}WEBP".utf8),
        ]
        let prefix = magic[Int(random.next() % UInt64(magic.count))]
        return prefix + (0..<Int(random.next() % 80)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    /// A copy of `bytes` with one to four random edits: a byte set, a bit flipped, a cut, an
    /// insertion, or a range repeated.
    static func mutated(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var out = bytes
        for _ in 0...(random.next() % 4) {
            let at = out.isEmpty ? 0 : Int(random.next() % UInt64(out.count))
            switch random.next() % 5 {
            case 0 where !out.isEmpty: out[at] = UInt8(truncatingIfNeeded: random.next())
            case 1 where !out.isEmpty: out[at] ^= 1 << (random.next() % 8)
            case 2: out = Array(out.prefix(at))
            case 3:
                out.insert(
                    contentsOf: (0..<Int(random.next() % 8)).map { _ in UInt8(truncatingIfNeeded: random.next()) },
                    at: at)
            default: out.insert(contentsOf: out[at..<min(out.count, at + Int(random.next() % 32))], at: at)
            }
        }
        return out
    }

    @Test func namesAreExactlyAHashAndAKnownExtension() {
        let hash = String(repeating: "0123456789abcdef", count: 4)
        #expect(ImageName(fileName: hash + ".png") == ImageName(hash: hash, format: .png))
        #expect(ImageName(fileName: hash + ".jpg")?.url == "/images/\(hash).jpg")
        #expect(ImageName(hash: hash, format: .jpeg).fileName == hash + ".jpg")
        for bad in [
            hash + ".jpeg", hash + ".svg", hash + ".PNG", hash.uppercased() + ".png", String(hash.dropLast()) + ".png",
            hash + "0.png",
            hash, hash + ".", hash + ".png.png", "../" + hash + ".png", hash + ".png/", hash + "%2epng", "", ".png",
        ] {
            #expect(ImageName(fileName: bad) == nil, "\(bad)")
        }
    }

    @Test func cardsAcceptAnUploadedImageURL() throws {
        let url = ImageName(hash: String(repeating: "ab", count: 32), format: .webp).url
        #expect(DeckInput.isImage(url))
        let card = try DeckInput.CardInput(title: "Pic", image: url).validated(position: 0, label: "card")
        #expect(card.image == url)
    }
}
