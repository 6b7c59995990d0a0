import GRDB

extension AppDatabase {
    /// Records an uploaded image unless its hash is recorded already (the first upload's row,
    /// owner and time are kept: same bytes, same image).
    /// - Returns: true when this call added the row.
    public func recordImage(_ image: StoredImage) async throws -> Bool {
        try await writer.write { db in
            try image.insert(db, onConflict: .ignore)
            return db.changesCount > 0
        }
    }

    /// The recorded image with this hash, if any.
    public func image(hash: String) async throws -> StoredImage? {
        try await writer.read { db in try StoredImage.fetchOne(db, key: hash) }
    }
}
