/// Why an uploaded file is not stored as an image; each case is one rule, with the code an API
/// error carries (`ApiError.imageRefused` maps it to an HTTP status).
public enum ImageRefusal: Error, Sendable, Equatable {
    /// The body is empty. Code `empty_image`.
    case empty
    /// Not a PNG, JPEG, WebP or GIF. `looksLike` says what the bytes seem to be instead
    /// ("an SVG image (SVG can run scripts)", "an HTML page", "of an unknown type" …);
    /// `declared` is the request's `Content-Type`, when it had one. Code `unsupported_image_type`.
    case unsupportedType(looksLike: String, declared: String?)
    /// Starts like `format` but is cut short or damaged, so it cannot be shown (or its width
    /// and height cannot be read); `reason` says where. Code `unreadable_image`.
    case unreadable(ImageFormat, reason: String)
    /// More than `limit` pixels (width × height): phones would struggle to decode it.
    /// Code `image_too_many_pixels`.
    case tooManyPixels(width: Int, height: Int, limit: Int)

    public var code: String {
        switch self {
        case .empty: return "empty_image"
        case .unsupportedType: return "unsupported_image_type"
        case .unreadable: return "unreadable_image"
        case .tooManyPixels: return "image_too_many_pixels"
        }
    }

    public var message: String {
        switch self {
        case .empty:
            return "The body is empty: send the image's bytes as the body."
        case .unsupportedType(let looksLike, let declared):
            let sent = declared.map { " (sent as \($0.prefix(100)))" } ?? ""
            return "Upload a PNG, JPEG, WebP or GIF image; this file is \(looksLike)\(sent)."
        case .unreadable(let format, let reason):
            return "This file starts like a \(format.displayName) image but cannot be read: \(reason)."
        case .tooManyPixels(let width, let height, let limit):
            return
                "This image is \(width) × \(height) pixels; at most \(limit) pixels are accepted. Scale it down and upload it again."
        }
    }
}
