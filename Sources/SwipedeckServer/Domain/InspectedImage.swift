/// What `ImageSniffer` read from an image's bytes: its format (from the bytes, never from a
/// declared type or a file name) and its size in pixels as displayed, both at least 1 (a JPEG
/// whose Exif orientation turns it a quarter has its stored width and height exchanged).
public struct InspectedImage: Sendable, Hashable {
    public let format: ImageFormat
    /// Pixels, ≥ 1.
    public let width: Int
    /// Pixels, ≥ 1.
    public let height: Int
}
