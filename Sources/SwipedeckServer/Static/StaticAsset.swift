import NIOCore

/// One file the server sends as it is: a script, a stylesheet, an image, the OpenAPI document.
/// Read, rewritten (references to other assets point at their hashed URLs) and compressed once at
/// start-up; never touched again.
struct StaticAsset: Sendable {
    /// The plain URL path, e.g. `/js/deck.js`: answered with `Cache-Control: no-cache` and an ETag,
    /// so a page that names it (an old page, a bookmark, a test) always gets the current file.
    let path: String
    /// The content-hashed URL path, e.g. `/js/deck.3f2a9c1e.js`: its bytes never change, so it is
    /// answered with `Cache-Control: public, max-age=31536000, immutable`.
    let hashedPath: String
    /// `Content-Type`, with `charset=utf-8` for text.
    let contentType: String
    /// The bytes as served (after rewriting).
    let body: ByteBuffer
    /// The gzip encoding of `body`, when the type compresses and the result is smaller.
    let gzipped: ByteBuffer?
    /// A strong ETag: the content hash in quotes.
    let etag: String
}
