import GRDB

extension Owner: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "owners"

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
