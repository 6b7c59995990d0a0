import GRDB

extension Participant: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "participants"
}
