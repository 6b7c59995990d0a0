/// The name of a stored image: the SHA-256 of its bytes (64 lowercase hex digits), a dot and its
/// format's extension, e.g. `3f…9a.png`. Content-addressed: the same bytes always get the same
/// name, and a name never changes what it serves (so it may be cached forever).
public struct ImageName: Sendable, Hashable, CustomStringConvertible {
    /// 64 lowercase hex digits.
    public let hash: String
    public let format: ImageFormat

    /// - Precondition: `hash` is 64 lowercase hex digits (as `Secret.sha256(bytes:)` gives).
    public init(hash: String, format: ImageFormat) {
        precondition(Self.isHash(hash), "an image hash is 64 lowercase hex digits")
        self.hash = hash
        self.format = format
    }

    /// Parses a file name; nil unless it is exactly 64 lowercase hex digits, a dot and one of the
    /// four extensions (so no path, no `..`, no other file in the folder can be named).
    public init?(fileName: String) {
        let parts = fileName.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, Self.isHash(parts[0]), let format = ImageFormat(fileExtension: String(parts[1])) else {
            return nil
        }
        self.hash = String(parts[0])
        self.format = format
    }

    /// `<hash>.<ext>`.
    public var fileName: String { hash + "." + format.fileExtension }

    /// The URL the image is served at: `/images/<hash>.<ext>`.
    public var url: String { "/images/" + fileName }

    public var description: String { fileName }

    /// 64 characters, each 0-9 or a-f.
    static func isHash(_ text: some StringProtocol) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }
    }
}
