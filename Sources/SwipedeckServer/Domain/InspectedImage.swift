/// What `ImageSniffer` read from an image's bytes: its format (from the bytes, never from a
/// declared type or a file name) and its size in pixels, both at least 1.
public struct InspectedImage: Sendable, Hashable {
    public let format: ImageFormat
    /// Pixels, ≥ 1.
    public let width: Int
    /// Pixels, ≥ 1.
    public let height: Int
}
