/// Removes the metadata people do not mean to publish (camera, GPS position, editing history,
/// comments, timestamps) from an image `ImageSniffer` accepted, leaving every byte of its pixel
/// data, colour profile and structure as it was. Uploads are stripped before they are hashed and
/// stored, so an image's name is the hash of what is served.
///
/// Pure and total: any bytes give bytes back, never a trap; every loop advances. It is meant for
/// bytes `ImageSniffer.inspect` accepted; should a walk meet something it cannot read, it keeps
/// the rest of the file as it is (never cuts an image it cannot understand).
///
/// What goes, per format:
/// - JPEG: `APP1` segments (Exif, XMP), `APP13` (IPTC, Photoshop), `COM` comments, before the
///   first scan and between scans, and anything after the end-of-image marker. `APP0` (JFIF),
///   `APP2` (ICC profile), `APP14` (Adobe colour transform) and every other segment stay. The
///   Exif orientation goes too: a photo relying on it shows as the sensor recorded it.
/// - PNG: `tEXt`, `zTXt`, `iTXt`, `eXIf` and `tIME` chunks, and anything after `IEND`.
/// - WebP: `EXIF` and `XMP ` chunks; the `VP8X` flags lose their Exif and XMP bits and the RIFF
///   size is set to what remains; anything after the RIFF size is dropped.
/// - GIF: comment extensions (`21 FE`) and XMP application extensions (`XMP DataXMP`), and
///   anything after the trailer.
public enum ImageMetadata {
    /// JPEG markers removed: APP1 (Exif, XMP), APP13 (IPTC, Photoshop), COM.
    static let jpegDropped: Set<UInt8> = [0xE1, 0xED, 0xFE]
    /// PNG chunk types removed.
    static let pngDropped: Set<String> = ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]
    /// WebP chunk types removed.
    static let webpDropped: Set<String> = ["EXIF", "XMP "]
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
        while offset < bytes.count {
            // A marker: FF, fill FFs, the marker byte.
            guard bytes[offset] == 0xFF else { out += bytes[offset...]; return out }
            var markerAt = offset
            while markerAt + 1 < bytes.count, bytes[markerAt + 1] == 0xFF { markerAt += 1 }
            guard let marker = reader.u8(markerAt + 1) else { out += bytes[offset...]; return out }
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
            if !jpegDropped.contains(UInt8(marker)) {
                out += [0xFF, UInt8(marker)]
                out += bytes[segmentStart..<end]
            }
            offset = end
            if marker == 0xDA {
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
            if !pngDropped.contains(type) { out += bytes[offset..<end] }
            if type == "IEND" { return out }
            offset = end
        }
        return out
    }

    // MARK: WebP

    /// Copies the header and every chunk but `EXIF` and `XMP ` (with its pad byte), clears their
    /// `VP8X` flags, and writes the new RIFF size.
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
            guard let type = reader.fourCC(offset), let length = reader.u32le(offset + 4), offset + 8 + length <= end else {
                out += bytes[offset..<end]
                break
            }
            let chunkEnd = min(end, offset + 8 + length + (length & 1))
            if !webpDropped.contains(type) {
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
                    let isXMP = label == 0xFF && reader.u8(offset + 2) == 11 && reader.matches(offset + 3, ascii: "XMP DataXMP")
                    keep = label != 0xFE && !isXMP
                case 0x2C:
                    guard let localFlags = reader.u8(offset + 9) else { throw ImageRefusal.empty }
                    blockEnd = try ImageSniffer.skipSubBlocks(reader, from: offset + 11 + ImageSniffer.colourTableLength(localFlags))
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
