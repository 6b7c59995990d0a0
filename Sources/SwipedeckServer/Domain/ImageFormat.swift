/// The image formats the server stores and serves: the ones every browser shows and none can
/// run script in. (SVG is left out on purpose: an SVG opened on its own can run JavaScript.)
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case png
    case jpeg
    case webp
    case gif

    /// The media type the file is served with, e.g. `image/png`.
    public var contentType: String {
        "image/" + rawValue
    }

    /// The file name extension of stored files, without the dot: `png`, `jpg`, `webp`, `gif`.
    public var fileExtension: String {
        self == .jpeg ? "jpg" : rawValue
    }

    /// The human name used in messages: `PNG`, `JPEG`, `WebP`, `GIF`.
    public var displayName: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .webp: return "WebP"
        case .gif: return "GIF"
        }
    }

    /// The format stored under a file name extension (exactly one per format: `jpg`, not `jpeg`).
    public init?(fileExtension: String) {
        guard let format = Self.allCases.first(where: { $0.fileExtension == fileExtension }) else { return nil }
        self = format
    }
}
