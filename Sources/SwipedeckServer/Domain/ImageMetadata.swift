/// Removes the metadata people do not mean to publish (camera, GPS position, editing history,
/// comments, timestamps) from an image `ImageSniffer` accepted, leaving every byte of its pixel
/// data, colour profile and structure as it was. Uploads are stripped before they are hashed and
/// stored, so an image's name is the hash of what is served.
///
/// Pure and total: any bytes give bytes back, never a trap; every loop advances. It is meant for
/// bytes `ImageSniffer.inspect` accepted; should a walk meet something it cannot read, it keeps
/// the rest of the file as it is (never cuts an image it cannot understand).
///
/// What stays is listed, not what goes (metadata hides in any application segment or private
/// chunk: FlashPix in APP2, C2PA manifests in APP11 or `caBX`, makers' own chunks):
/// - JPEG: every segment but the application segments and comments, of which only `APP0`
///   (JFIF), `APP2` holding an ICC profile and `APP14` (Adobe colour transform) stay — before the
///   first scan and between scans; anything after the end-of-image marker goes. The Exif
///   orientation stays, alone: when the first Exif segment before the first scan holds an
///   Orientation other than 1 (`ImageOrientation`), a minimal Exif segment with that one tag
///   takes its place, so a phone's portrait photo still shows upright.
/// - PNG: the critical chunks and the ancillary ones that change how pixels look (`pngKept`);
///   every other chunk and anything after `IEND` goes.
/// - WebP: the image, alpha, animation and ICC chunks (`webpKept`); the `VP8X` flags lose their
///   Exif and XMP bits and the RIFF size is set to what remains; anything after it is dropped.
/// - GIF: comment extensions (`21 FE`) and XMP application extensions (`XMP DataXMP`), and
///   anything after the trailer.
public enum ImageMetadata {
    /// Whether a JPEG segment with `marker` and contents starting at `at` stays: any but the
    /// application segments (APP0–APP15) and comments (COM), of which APP0 (JFIF), APP2 with an
    /// ICC profile and APP14 (Adobe) stay.
    static func keepsJPEGSegment(_ marker: Int, _ reader: ByteReader, at: Int) -> Bool {
        switch marker {
        case 0xE0, 0xEE: return true
        case 0xE2: return reader.matches(at, ascii: "ICC_PROFILE")
        case 0xE1...0xEF, 0xFE: return false
        default: return true
        }
    }
    /// PNG chunk types kept: the critical ones, transparency, colour space and profile, gamma,
    /// significant bits, background, pixel size, APNG animation, HDR signalling.
    static let pngKept: Set<String> = [
        "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "cHRM", "gAMA", "iCCP", "sBIT", "sRGB", "cICP", "mDCv", "cLLi", "bKGD",
        "pHYs",
        "acTL", "fcTL", "fdAT",
    ]
    /// WebP chunk types kept: the image (lossy, lossless, extended), alpha, animation, ICC profile.
    static let webpKept: Set<String> = ["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP"]
    /// The VP8X flag bits of the Exif (0x08) and XMP (0x04) chunks.
    static let webpMetadataFlags: UInt8 = 0x08 | 0x04

    /// `bytes` without their metadata, for an image of `format`.
    public static func stripped(_ bytes: [UInt8], format: ImageFormat) -> [UInt8] {
        switch format {
        case .jpeg: return jpeg(bytes)
        case .png: return png(bytes)
        case .webp: return webp(bytes)
        case .gif: return gif(bytes)
        }
    }

    // MARK: JPEG

    /// Walks marker segments (as `ImageSniffer.jpegSize` does) and entropy-coded scans: after
    /// `SOS` the scan runs until an `FF` followed by a byte that is not 00 (stuffing), D0–D7
    /// (restarts) or FF (fill); that marker starts the next segment. `EOI` ends the file.
    static func jpeg(_ bytes: [UInt8]) -> [UInt8] {
        let reader = ByteReader(bytes: bytes)
        guard reader.matches(0, [0xFF, 0xD8]) else { return bytes }
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        var offset = 2
        // Browsers read the orientation of the first Exif segment before the image data only.
        var exifRead = false
        var scanned = false
        while offset < bytes.count {
            // A marker: FF, fill FFs, the marker byte.
            guard bytes[offset] == 0xFF else {
                out += bytes[offset...]
                return out
            }
            var markerAt = offset
            while markerAt + 1 < bytes.count, bytes[markerAt + 1] == 0xFF { markerAt += 1 }
            guard let marker = reader.u8(markerAt + 1) else {
                out += bytes[offset...]
                return out
            }
            let segmentStart = markerAt + 2
            if marker == 0xD9 {
                out += [0xFF, 0xD9]
                return out
            }
            if marker == 0x01 || marker == 0xD8 || (0xD0...0xD7).contains(marker) {
                out += [0xFF, UInt8(marker)]
                offset = segmentStart
                continue
            }
            guard let length = reader.u16be(segmentStart), length >= 2, reader.has(segmentStart, length) else {
                out += bytes[offset...]
                return out
            }
            let end = segmentStart + length
            if keepsJPEGSegment(marker, reader, at: segmentStart + 2) {
                out += [0xFF, UInt8(marker)]
                out += bytes[segmentStart..<end]
            } else if marker == 0xE1, !exifRead, !scanned, reader.matches(segmentStart + 2, ascii: "Exif\0\0") {
                exifRead = true
                if let orientation = ImageOrientation.exif(reader, from: segmentStart + 2, to: end),
                    orientation != .normal
                {
                    out += orientation.exifSegment
                }
            }
            offset = end
            if marker == 0xDA {
                scanned = true
                // The entropy-coded data, up to the next real marker.
                var scanEnd = offset
                while scanEnd < bytes.count {
                    if bytes[scanEnd] == 0xFF, scanEnd + 1 < bytes.count {
                        let next = bytes[scanEnd + 1]
                        if next != 0x00 && next != 0xFF && !(0xD0...0xD7).contains(next) { break }
                    }
                    scanEnd += 1
                }
                out += bytes[offset..<scanEnd]
                offset = scanEnd
            }
        }
        return out
    }

    // MARK: PNG

    /// Copies the signature and every chunk but the dropped ones, up to and including `IEND`.
    static func png(_ bytes: [UInt8]) -> [UInt8] {
        let reader = ByteReader(bytes: bytes)
        guard reader.matches(0, ImageSniffer.pngSignature) else { return bytes }
        var out = Array(bytes[0..<8])
        out.reserveCapacity(bytes.count)
        var offset = 8
        while offset < bytes.count {
            guard let length = reader.u32be(offset), let type = reader.fourCC(offset + 4), length <= Int(Int32.max),
                reader.has(offset + 8, length + 4)
            else {
                out += bytes[offset...]
                return out
            }
            let end = offset + 12 + length
            if pngKept.contains(type) { out += bytes[offset..<end] }
            if type == "IEND" { return out }
            offset = end
        }
        return out
    }

    // MARK: WebP

    /// Copies the header and the kept chunks (each with its pad byte), clears the `VP8X` Exif and
    /// XMP flags, and writes the new RIFF size.
    static func webp(_ bytes: [UInt8]) -> [UInt8] {
        let reader = ByteReader(bytes: bytes)
        guard reader.matches(0, ascii: "RIFF"), reader.matches(8, ascii: "WEBP"), let riffSize = reader.u32le(4),
            8 + riffSize <= bytes.count
        else { return bytes }
        let end = 8 + riffSize
        var out = Array(bytes[0..<12])
        out.reserveCapacity(bytes.count)
        var offset = 12
        while offset < end {
            guard let type = reader.fourCC(offset), let length = reader.u32le(offset + 4), offset + 8 + length <= end
            else {
                out += bytes[offset..<end]
                break
            }
            let chunkEnd = min(end, offset + 8 + length + (length & 1))
            if webpKept.contains(type) {
                let start = out.count
                out += bytes[offset..<chunkEnd]
                if type == "VP8X", length >= 1 { out[start + 8] &= ~webpMetadataFlags }
            }
            offset = chunkEnd
        }
        let size = UInt32(out.count - 8)
        out[4] = UInt8(size & 0xFF)
        out[5] = UInt8(size >> 8 & 0xFF)
        out[6] = UInt8(size >> 16 & 0xFF)
        out[7] = UInt8(size >> 24 & 0xFF)
        return out
    }

    // MARK: GIF

    /// Copies the header, colour table and every block but comment and XMP extensions, up to and
    /// including the trailer.
    static func gif(_ bytes: [UInt8]) -> [UInt8] {
        let reader = ByteReader(bytes: bytes)
        guard let flags = reader.u8(10), reader.has(0, 13) else { return bytes }
        let headerEnd = min(bytes.count, 13 + ImageSniffer.colourTableLength(flags))
        var out = Array(bytes[0..<headerEnd])
        out.reserveCapacity(bytes.count)
        var offset = headerEnd
        while offset < bytes.count {
            let block = bytes[offset]
            let blockEnd: Int
            var keep = true
            do {
                switch block {
                case 0x3B:
                    out.append(0x3B)
                    return out
                case 0x21:
                    guard let label = reader.u8(offset + 1) else { throw ImageRefusal.empty }
                    blockEnd = try ImageSniffer.skipSubBlocks(reader, from: offset + 2)
                    // An application extension's first sub-block is 11 bytes: identifier and code.
                    let isXMP =
                        label == 0xFF && reader.u8(offset + 2) == 11 && reader.matches(offset + 3, ascii: "XMP DataXMP")
                    keep = label != 0xFE && !isXMP
                case 0x2C:
                    guard let localFlags = reader.u8(offset + 9) else { throw ImageRefusal.empty }
                    blockEnd = try ImageSniffer.skipSubBlocks(
                        reader, from: offset + 11 + ImageSniffer.colourTableLength(localFlags))
                default:
                    throw ImageRefusal.empty
                }
            } catch {
                // Not a block this walk can read (the sniffer would have refused it): kept as is.
                out += bytes[offset...]
                return out
            }
            if keep { out += bytes[offset..<blockEnd] }
            offset = blockEnd
        }
        return out
    }
}
