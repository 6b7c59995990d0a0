import GRDB

extension Swipe: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "swipes"
}
