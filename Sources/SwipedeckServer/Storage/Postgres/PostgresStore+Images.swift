import Foundation
import PostgresNIO

extension PostgresStore {
    public func recordImage(_ image: StoredImage) async throws -> Bool {
        try await transaction { connection in
            try await value(
                """
                INSERT INTO images (hash, contentType, bytes, width, height, ownerId, createdAt)
                VALUES (\(image.hash), \(image.contentType), \(image.bytes), \(image.width), \(image.height), \(image.ownerId), \(image.createdAt))
                ON CONFLICT (hash) DO NOTHING RETURNING 1
                """, on: connection, as: Int.self) != nil
        }
    }

    public func image(hash: String) async throws -> StoredImage? {
        try await fetchOne("SELECT \(unescaped: Self.imageColumns) FROM images WHERE hash = \(hash)", Self.image)
    }
}
