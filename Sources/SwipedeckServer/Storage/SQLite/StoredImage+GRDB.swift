import GRDB

extension StoredImage: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "images"
}
