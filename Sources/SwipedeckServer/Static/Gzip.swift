import CompressNIO
import NIOCore

/// gzip through zlib (compress-nio), for static files at start-up and for large HTML and JSON answers.
enum Gzip {
    /// The gzip encoding of `buffer`, or nil when it would not be smaller (or zlib failed).
    static func compress(_ buffer: ByteBuffer) -> ByteBuffer? {
        var input = buffer
        // A zlib failure costs only the compression: the caller sends the bytes as they are.
        guard let compressed = try? input.compress(with: .gzip()), compressed.readableBytes < buffer.readableBytes
        else {
            return nil
        }
        return compressed
    }
}
