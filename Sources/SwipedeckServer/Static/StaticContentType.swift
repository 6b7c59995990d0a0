/// The `Content-Type` of a static file by its extension, and whether gzip is worth trying on it
/// (text and SVG; images in a compressed format are not).
struct StaticContentType: Sendable {
    let header: String
    let compresses: Bool

    static func of(_ path: String) -> StaticContentType {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "css": return .init(header: "text/css; charset=utf-8", compresses: true)
        case "js", "mjs": return .init(header: "text/javascript; charset=utf-8", compresses: true)
        case "json": return .init(header: "application/json; charset=utf-8", compresses: true)
        case "svg": return .init(header: "image/svg+xml", compresses: true)
        case "txt": return .init(header: "text/plain; charset=utf-8", compresses: true)
        case "png": return .init(header: "image/png", compresses: false)
        case "jpg", "jpeg": return .init(header: "image/jpeg", compresses: false)
        case "webp": return .init(header: "image/webp", compresses: false)
        case "gif": return .init(header: "image/gif", compresses: false)
        case "ico": return .init(header: "image/x-icon", compresses: false)
        case "woff2": return .init(header: "font/woff2", compresses: false)
        default: return .init(header: "application/octet-stream", compresses: false)
        }
    }
}
