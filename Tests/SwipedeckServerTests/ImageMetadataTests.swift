import Foundation
import HTTPTypes
import Testing

@testable import SwipedeckServer

/// `ImageMetadata`: Exif, XMP, IPTC, comments and text chunks leave uploads; pixel data, colour
/// profiles and structure stay byte for byte. Each test adds metadata to a clean fixture and
/// expects the fixture back (or the fixture with what must be kept).
@Suite struct ImageMetadataTests {
    /// A JPEG segment: FF, marker, 16-bit length counting itself, payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// An APP1 Exif block holding a GPS latitude tag's worth of bytes.
    static let exifGPS = segment(0xE1, Array("Exif\0\0MM\0*\0\0\0\u{8}GPSLatitude 51.5007N 0.1246W".utf8))
    static let xmp = segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>author</x:xmpmeta>".utf8))
    static let iptc = segment(0xED, Array("Photoshop 3.0\0".utf8) + [0x38, 0x42, 0x49, 0x4D, 0x04, 0x04])
    static let comment = segment(0xFE, Array("shot at home".utf8))
    static let icc = segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1, 0, 0, 0, 0])
    static let adobe = segment(0xEE, Array("Adobe".utf8) + [0, 100, 0, 0, 0, 0, 1])

    /// The fixture JPEG with `segments` inserted after its APP0 (JFIF) segment.
    static func jpeg(inserting segments: [UInt8]) -> [UInt8] {
        let bytes = ImageFixtures.jpeg.bytes
        let app0End = 4 + (Int(bytes[4]) << 8 | Int(bytes[5]))
        return Array(bytes[..<app0End]) + segments + Array(bytes[app0End...])
    }

    /// The bytes from the first SOS marker on (the scan data and EOI).
    static func scanData(_ bytes: [UInt8]) -> [UInt8] {
        var i = 2
        while i + 1 < bytes.count {
            if bytes[i] == 0xFF && bytes[i + 1] == 0xDA { return Array(bytes[i...]) }
            i += 1
        }
        return []
    }

    @Test func jpegLosesExifXmpIptcAndCommentsKeepsJfifIccAdobeAndTheScan() throws {
        let dirty = Self.jpeg(inserting: Self.exifGPS + Self.icc + Self.xmp + Self.iptc + Self.comment + Self.adobe)
        #expect(try ImageSniffer.inspect(dirty).format == .jpeg)
        let clean = ImageMetadata.stripped(dirty, format: .jpeg)
        #expect(clean == Self.jpeg(inserting: Self.icc + Self.adobe))
        #expect(Self.scanData(clean) == Self.scanData(ImageFixtures.jpeg.bytes))
        #expect(!String(decoding: clean, as: UTF8.self).contains("GPS"))
        // Bytes after the end-of-image marker go too.
        let trailing = dirty + Array("appended GPS 51.5N".utf8)
        #expect(ImageMetadata.stripped(trailing, format: .jpeg) == clean)
        #expect(ImageMetadata.stripped(ImageFixtures.jpeg.bytes, format: .jpeg) == ImageFixtures.jpeg.bytes)
    }

    @Test func jpegLosesCommentsBetweenScansAndKeepsEveryScan() throws {
        // A second scan after the first (as a progressive JPEG has), with a comment and an APP1
        // before it; stuffed FF 00 and a restart marker inside its data.
        let bytes = ImageFixtures.jpeg.bytes
        let beforeEnd = Array(bytes[..<(bytes.count - 2)])
        let sos = Self.segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        let secondScan: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]
        let dirty = beforeEnd + Self.comment + Self.exifGPS + sos + secondScan + [0xFF, 0xD9]
        #expect(try ImageSniffer.inspect(dirty).format == .jpeg)
        #expect(ImageMetadata.stripped(dirty, format: .jpeg) == beforeEnd + sos + secondScan + [0xFF, 0xD9])
    }

    /// A PNG chunk (CRC left 0: not checked).
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let n = data.count
        return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8)
            + data + [0, 0, 0, 0]
    }

    @Test func pngLosesTextExifAndTimeChunks() throws {
        let bytes = ImageFixtures.png.bytes
        let afterHeader = 8 + 25  // signature, IHDR
        let metadata =
            Self.chunk("tEXt", Array("Author\0Ada".utf8)) + Self.chunk("zTXt", Array("C\0\0x".utf8))
            + Self.chunk("iTXt", Array("GPS\0\0\0\0\0here".utf8)) + Self.chunk("eXIf", Array("MM\0*GPS".utf8))
            + Self.chunk("tIME", [7, 233, 1, 2, 3, 4, 5])
        let kept = Self.chunk("gAMA", [0, 0, 177, 143])
        let dirty =
            Array(bytes[..<afterHeader]) + metadata + kept + Array(bytes[afterHeader...]) + Array("trailer".utf8)
        #expect(try ImageSniffer.inspect(dirty).format == .png)
        #expect(
            ImageMetadata.stripped(dirty, format: .png) == Array(bytes[..<afterHeader]) + kept
                + Array(bytes[afterHeader...]))
        #expect(ImageMetadata.stripped(bytes, format: .png) == bytes)
    }

    /// A RIFF chunk with its pad byte.
    static func riffChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let n = data.count
        return Array(type.utf8) + [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24 & 0xFF)]
            + data
            + (n % 2 == 1 ? [0] : [])
    }

    @Test func webpLosesExifAndXmpChunksAndTheirFlagsAndKeepsItsSizeRight() throws {
        let bytes = ImageFixtures.webpExtended.bytes
        var dirty =
            bytes + Self.riffChunk("EXIF", Array("MM\0*GPS 51.5N".utf8))
            + Self.riffChunk("XMP ", Array("<x:xmpmeta/>".utf8))
        dirty[20] |= 0x08 | 0x04
        let size = dirty.count - 8
        dirty[4] = UInt8(size & 0xFF)
        dirty[5] = UInt8(size >> 8 & 0xFF)
        #expect(try ImageSniffer.inspect(dirty).format == .webp)
        let clean = ImageMetadata.stripped(dirty, format: .webp)
        #expect(clean == bytes)
        #expect(clean[20] & 0x0C == 0)
        for fixture in [ImageFixtures.webpLossy, ImageFixtures.webpLossless, ImageFixtures.webpExtended] {
            #expect(ImageMetadata.stripped(fixture.bytes, format: .webp) == fixture.bytes, "\(fixture)")
        }
    }

    /// Metadata hides in any application segment or private chunk: only the listed ones stay.
    @Test func otherApplicationSegmentsAndPrivateChunksGoToo() throws {
        let mark = Array("GPSLatitude 48.8584N SECRETMARK".utf8)
        let flashPix = Self.segment(0xE2, Array("FPXR\0".utf8) + mark)
        let hidden =
            flashPix + Self.segment(0xE4, Array("Exif\0\0".utf8) + mark) + Self.segment(0xEB, Array("JP".utf8) + mark)
            + Self.segment(0xEC, Array("Ducky".utf8) + mark)
        let dirtyJPEG = Self.jpeg(inserting: Self.icc + hidden + Self.adobe)
        #expect(try ImageSniffer.inspect(dirtyJPEG).format == .jpeg)
        #expect(ImageMetadata.stripped(dirtyJPEG, format: .jpeg) == Self.jpeg(inserting: Self.icc + Self.adobe))

        let png = ImageFixtures.png.bytes
        let afterHeader = 8 + 25
        let kept = Self.chunk("sRGB", [0])
        let dirtyPNG =
            Array(png[..<afterHeader]) + Self.chunk("gpSx", mark) + kept + Self.chunk("caBX", mark)
            + Array(png[afterHeader...])
        #expect(try ImageSniffer.inspect(dirtyPNG).format == .png)
        #expect(
            ImageMetadata.stripped(dirtyPNG, format: .png) == Array(png[..<afterHeader]) + kept
                + Array(png[afterHeader...]))

        let webp = ImageFixtures.webpExtended.bytes
        var dirtyWebP = webp + Self.riffChunk("GPS ", mark)
        let size = dirtyWebP.count - 8
        dirtyWebP[4] = UInt8(size & 0xFF)
        dirtyWebP[5] = UInt8(size >> 8 & 0xFF)
        #expect(ImageMetadata.stripped(dirtyWebP, format: .webp) == webp)
    }

    @Test func gifLosesCommentAndXmpExtensions() throws {
        let bytes = ImageFixtures.gif.bytes
        let headerEnd = 13 + ImageSniffer.colourTableLength(Int(bytes[10]))
        let comment: [UInt8] = [0x21, 0xFE, 5] + Array("Hello".utf8) + [0]
        let xmp: [UInt8] = [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + [4] + Array("<x/>".utf8) + [0]
        let loop: [UInt8] = [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0]
        let dirty = Array(bytes[..<headerEnd]) + comment + loop + xmp + Array(bytes[headerEnd...])
        #expect(try ImageSniffer.inspect(dirty).format == .gif)
        #expect(
            ImageMetadata.stripped(dirty, format: .gif) == Array(bytes[..<headerEnd]) + loop
                + Array(bytes[headerEnd...]))
        #expect(ImageMetadata.stripped(bytes, format: .gif) == bytes)
    }

    @Test func strippingIsTotalOnCutAndDamagedBytes() {
        for fixture in ImageFixtures.all {
            for cut in stride(from: 0, to: fixture.bytes.count, by: 3) {
                _ = ImageMetadata.stripped(Array(fixture.bytes[..<cut]), format: fixture.format)
            }
            _ = ImageMetadata.stripped(fixture.bytes.map { $0 ^ 0x5A }, format: fixture.format)
        }
    }

    @Test func anUploadedJpegWithGpsIsStoredWithoutItAndNamedByWhatIsStored() async throws {
        let dirty = Self.jpeg(inserting: Self.exifGPS + Self.iptc + Self.comment)
        try await withImageApp { client, env, folder in
            let r = try await client.upload(dirty, type: "image/jpeg", headers: try await ownerSession(env))
            #expect(r.status == .created, "\(r.text)")
            let clean = ImageFixtures.jpeg.bytes
            let name = ImageName(hash: Secret.sha256(bytes: clean), format: .jpeg)
            #expect(try r.json()["url"].string == name.url)
            #expect(try r.json()["bytes"].int == clean.count)
            let stored = try #require(FileManager.default.contents(atPath: folder + "/" + name.fileName))
            #expect([UInt8](stored) == clean)
            #expect(stored.range(of: Data("Exif".utf8)) == nil && stored.range(of: Data("GPS".utf8)) == nil)
            #expect(Self.scanData([UInt8](stored)) == Self.scanData(dirty))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
        }
    }

    /// An APP1 Exif segment as a phone writes it: IFD0 holds Orientation `orientation` and a
    /// pointer to a GPS IFD with a latitude reference, in big-endian (`MM`) or little-endian (`II`)
    /// byte order, followed by GPS text.
    static func exif(orientation: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
        }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let header = Array((bigEndian ? "MM" : "II").utf8) + u16(42) + u32(8)
        // IFD0 at 8: a count, two 12-byte entries and the next-IFD offset; the GPS IFD at 38.
        let ifd0 =
            u16(2) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u16(0x8825) + u16(4) + u32(1)
            + u32(38) + u32(0)
        let gps = u16(1) + u16(0x0001) + u16(2) + u32(2) + Array("N\0\0\0".utf8) + u32(0)
        return segment(0xE1, Array("Exif\0\0".utf8) + header + ifd0 + gps + Array("GPSLatitude 51.5007N".utf8))
    }

    /// The APP1 Exif segment the stripper writes for `orientation`: big-endian TIFF, IFD0 with the
    /// Orientation tag alone (SHORT, count 1), no next IFD.
    static func orientationOnly(_ orientation: UInt8) -> [UInt8] {
        segment(
            0xE1,
            Array("Exif\0\0MM\0*".utf8) + [
                0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0,
            ])
    }

    @Test(arguments: [true, false])
    func jpegKeepsTheExifOrientationAloneAndReportsTheDisplayedSize(bigEndian: Bool) throws {
        for orientation in 2...8 {
            let dirty = Self.jpeg(inserting: Self.exif(orientation: orientation, bigEndian: bigEndian) + Self.xmp)
            let clean = ImageMetadata.stripped(dirty, format: .jpeg)
            #expect(clean == Self.jpeg(inserting: Self.orientationOnly(UInt8(orientation))), "\(orientation)")
            #expect(!String(decoding: clean, as: UTF8.self).contains("GPS"))
            // 5–8 turn the 17 × 9 fixture a quarter: it shows 9 wide, 17 high.
            let (width, height) = orientation >= 5 ? (9, 17) : (17, 9)
            #expect(try ImageSniffer.inspect(dirty) == InspectedImage(format: .jpeg, width: width, height: height))
            #expect(try ImageSniffer.inspect(clean) == InspectedImage(format: .jpeg, width: width, height: height))
            #expect(ImageMetadata.stripped(clean, format: .jpeg) == clean)
        }
        // Orientation 1 (as stored), an unknown value, or an Exif that cannot be read: nothing stays.
        for orientation in [0, 1, 9] {
            let dirty = Self.jpeg(inserting: Self.exif(orientation: orientation, bigEndian: bigEndian))
            #expect(ImageMetadata.stripped(dirty, format: .jpeg) == ImageFixtures.jpeg.bytes, "\(orientation)")
            #expect(try ImageSniffer.inspect(dirty) == InspectedImage(format: .jpeg, width: 17, height: 9))
        }
        // Only the first Exif segment counts, as in browsers.
        let twice = Self.jpeg(
            inserting: Self.exifGPS + Self.exif(orientation: 6, bigEndian: bigEndian)
                + Self.exif(orientation: 3, bigEndian: bigEndian))
        #expect(ImageMetadata.stripped(twice, format: .jpeg) == ImageFixtures.jpeg.bytes)
        let first = Self.jpeg(
            inserting: Self.exif(orientation: 6, bigEndian: bigEndian) + Self.exif(orientation: 3, bigEndian: bigEndian)
        )
        #expect(ImageMetadata.stripped(first, format: .jpeg) == Self.jpeg(inserting: Self.orientationOnly(6)))
    }

    @Test func anUploadedPortraitPhotoKeepsItsOrientationLosesItsGpsAndReportsItsDisplayedSize() async throws {
        let photo = Self.jpeg(inserting: Self.exif(orientation: 6, bigEndian: false))
        try await withImageApp { client, env, folder in
            let r = try await client.upload(photo, type: "image/jpeg", headers: try await ownerSession(env))
            #expect(r.status == .created, "\(r.text)")
            let clean = Self.jpeg(inserting: Self.orientationOnly(6))
            let name = ImageName(hash: Secret.sha256(bytes: clean), format: .jpeg)
            let j = try r.json()
            #expect(j["url"].string == name.url)
            #expect(j["width"].int == 9 && j["height"].int == 17)
            let stored = try #require(FileManager.default.contents(atPath: folder + "/" + name.fileName))
            #expect([UInt8](stored) == clean)
            #expect(stored.range(of: Data("GPS".utf8)) == nil)
            let row = try await env.row("SELECT * FROM images WHERE hash = ?", [name.hash])
            #expect(row?["width"] == 9 && row?["height"] == 17)
        }
    }
}
