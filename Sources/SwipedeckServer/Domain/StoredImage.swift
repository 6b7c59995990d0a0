/// An uploaded image as the `images` table records it. The file itself lives in the images folder
/// under `name.fileName`; the row says who uploaded it first and when.
public struct StoredImage: Sendable, Hashable, Codable {
    /// SHA-256 of the bytes, 64 lowercase hex digits (the primary key).
    public var hash: String
    /// `image/png`, `image/jpeg`, `image/webp` or `image/gif`, from the bytes.
    public var contentType: String
    /// File size, bytes.
    public var bytes: Int
    /// Pixels.
    public var width: Int
    /// Pixels.
    public var height: Int
    /// The owner who uploaded these bytes first; nil for the admin token.
    public var ownerId: Int64?
    /// Seconds since 1970, of the first upload.
    public var createdAt: Double

    /// The stored file's name (nil only for a row whose content type is none of the four formats,
    /// which the server never writes).
    public var name: ImageName? {
        guard let format = ImageFormat.allCases.first(where: { $0.contentType == contentType }), ImageName.isHash(hash)
        else { return nil }
        return ImageName(hash: hash, format: format)
    }
}
