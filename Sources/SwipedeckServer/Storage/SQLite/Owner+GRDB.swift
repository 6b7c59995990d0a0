import GRDB

extension Owner: FetchableRecord, TableRecord {
    public static let databaseTableName = "owners"
}
