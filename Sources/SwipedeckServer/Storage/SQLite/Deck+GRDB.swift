import GRDB

extension Deck: FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "decks"

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}
