/// Tells images from everything else by their bytes alone, and reads their width and height.
///
/// Pure and total: for any bytes it returns or throws an `ImageRefusal`, never traps, and its
/// work is linear in the input (every loop advances through the bytes; every read is
/// bounds-checked by `ByteReader`). It does not decode pixels; it walks each format's structure
/// far enough to know the file is complete:
/// - PNG: the signature, an `IHDR` first (13 bytes: width, height), every chunk whole up to `IEND`,
///   at least one `IDAT`.
/// - JPEG: `SOI`, then marker segments (lengths checked) up to a frame header `SOFn` (height,
///   width), then up to the first scan `SOS`, then an end-of-image marker `FFD9` after it.
/// - WebP: `RIFF` size `WEBP` with every announced byte present, every chunk whole, and the first
///   chunk `VP8 ` (key frame start code), `VP8L` (signature 0x2F) or `VP8X` (canvas size).
/// - GIF: `GIF87a`/`GIF89a` and the logical screen size, then every block whole (colour tables,
///   extensions, image descriptors and their data sub-blocks) up to the trailer or the end,
///   with at least one image.
public enum ImageSniffer {
    /// Default largest accepted decoded size: 40 megapixels, which a browser holds as about
    /// 160 MB (4 bytes a pixel) in every swiper's phone. A 12 or 24 MP phone photo and a
    /// 7,000 × 5,700 scan fit; a 48 MP full-resolution photo is refused, to be scaled down.
    public static let defaultMaxPixels = 40_000_000

    /// The format and pixel size of `bytes`.
    ///
    /// - Parameters:
    ///   - declaredType: the `Content-Type` the bytes came with; only quoted in messages, never
    ///     trusted (the bytes decide the format).
    ///   - maxPixels: largest accepted decoded size: width × height, and for a GIF the canvas that
    ///     holds every frame (a frame may reach beyond the logical screen, and browsers enlarge
    ///     the canvas to show it).
    /// - Throws: `ImageRefusal` naming the rule: empty, not one of the four formats, damaged or cut
    ///   short (or a zero width or height), or more pixels than `maxPixels`.
    public static func inspect(
        _ bytes: [UInt8], declaredType: String? = nil, maxPixels: Int = defaultMaxPixels
    ) throws(ImageRefusal) -> InspectedImage {
        if bytes.isEmpty { throw .empty }
        let reader = ByteReader(bytes: bytes)
        guard let format = format(of: reader) else {
            throw .unsupportedType(looksLike: describe(reader, declaredType: declaredType), declared: declaredType)
        }
        let (width, height): (Int, Int)
        // The canvas a decoder allocates: the image's size, or a GIF's frames' reach if larger.
        var canvas: (width: Int, height: Int)?
        switch format {
        case .png: (width, height) = try pngSize(reader)
        case .jpeg: (width, height) = try jpegSize(reader)
        case .webp: (width, height) = try webpSize(reader)
        case .gif:
            let gif = try gifGeometry(reader)
            (width, height) = (gif.width, gif.height)
            canvas = (max(gif.width, gif.reach.width), max(gif.height, gif.reach.height))
        }
        guard width >= 1, height >= 1 else { throw .unreadable(format, reason: "its width or height is 0") }
        let decoded = canvas ?? (width, height)
        // Widths and heights are below 2^32 here, so the product cannot overflow 64 bits.
        guard decoded.width * decoded.height <= maxPixels else {
            throw .tooManyPixels(width: decoded.width, height: decoded.height, limit: maxPixels)
        }
        return InspectedImage(format: format, width: width, height: height)
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format the first bytes announce (the magic numbers only; nothing else is checked).
    static func format(of reader: ByteReader) -> ImageFormat? {
        if reader.matches(0, pngSignature) { return .png }
        if reader.matches(0, [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if reader.matches(0, ascii: "RIFF") && reader.matches(8, ascii: "WEBP") { return .webp }
        if reader.matches(0, ascii: "GIF87a") || reader.matches(0, ascii: "GIF89a") { return .gif }
        return nil
    }

    /// What a file that is none of the four formats seems to be, for the refusal message.
    static func describe(_ reader: ByteReader, declaredType: String?) -> String {
        if declaredType?.lowercased().hasPrefix("multipart/") == true {
            return "a multipart form (send the file's own bytes as the body, with its Content-Type)"
        }
        if reader.matches(0, ascii: "%PDF-") { return "a PDF document" }
        if reader.matches(0, ascii: "II*\u{0}") || reader.matches(0, ascii: "MM\u{0}*") { return "a TIFF image" }
        if reader.matches(0, [0x00, 0x00, 0x01, 0x00]) { return "an ICO icon" }
        if reader.matches(0, [0xFF, 0x0A]) || reader.matches(0, [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20]) {
            return "a JPEG XL image"
        }
        if reader.matches(4, ascii: "ftyp") {
            let brand = reader.fourCC(8) ?? ""
            if brand.hasPrefix("avi") { return "an AVIF image" }
            if ["heic", "heix", "heim", "heis", "hevc", "mif1", "msf1"].contains(brand) { return "a HEIC image" }
            return "a video"
        }
        if reader.matches(0, ascii: "RIFF") { return "a RIFF file (\(reader.fourCC(8) ?? "cut short")), not WebP" }
        if reader.matches(0, ascii: "PK\u{3}\u{4}") { return "a ZIP archive" }
        if reader.matches(0, ascii: "BM"), let header = reader.u32le(14),
            [12, 40, 52, 56, 64, 108, 124].contains(header)
        {
            return "a BMP image"
        }
        return describeText(reader.bytes)
    }

    /// SVG, HTML, XML, JSON or other text by their first kilobyte, else "of an unknown type".
    static func describeText(_ bytes: [UInt8]) -> String {
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        let head = bytes[start..<min(bytes.count, start + 1024)]
        let isText = !head.isEmpty && head.allSatisfy { $0 >= 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard isText else { return "of an unknown type" }
        let text = String(decoding: head, as: UTF8.self).lowercased()
        if text.contains("<svg") { return "an SVG image, which can run scripts" }
        let htmlStarts = [
            "<!doctype html", "<html", "<head", "<body", "<script", "<iframe", "<meta", "<div", "<p>", "<a ",
        ]
        if htmlStarts.contains(where: text.hasPrefix) || (text.hasPrefix("<") && text.contains("<html")) {
            return "an HTML page"
        }
        if text.hasPrefix("<?xml") || text.hasPrefix("<") { return "XML or markup" }
        if text.hasPrefix("{") || text.hasPrefix("[") { return "JSON or other text" }
        return "text"
    }
}
