import Hummingbird

/// The answer to an image upload: where the image is served and what the server read from it.
struct ImageJSON: ResponseEncodable {
    /// `/images/<sha256>.<ext>`: use it as a card's `image`.
    let url: String
    /// From the bytes: `image/png`, `image/jpeg`, `image/webp` or `image/gif`.
    let contentType: String
    /// File size, bytes.
    let bytes: Int
    /// Pixels.
    let width: Int
    /// Pixels.
    let height: Int
}
