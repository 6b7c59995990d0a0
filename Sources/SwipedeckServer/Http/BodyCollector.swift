import HTTPTypes
import Hummingbird
import NIOCore

/// A response body writer that keeps what is written, for `CompressionMiddleware`.
final class BodyCollector: ResponseBodyWriter {
    private(set) var buffer: ByteBuffer

    init(capacity: Int) {
        buffer = ByteBuffer()
        buffer.reserveCapacity(capacity)
    }

    func write(_ buffer: ByteBuffer) async throws {
        self.buffer.writeImmutableBuffer(buffer)
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
