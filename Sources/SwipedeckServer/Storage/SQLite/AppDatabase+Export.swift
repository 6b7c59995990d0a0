import GRDB

extension AppDatabase {
    /// See `SwipeStore.swipePage`; the cursor is the SQLite rowid.
    public func swipePage(deckId: Int64, after rowid: Int64, limit: Int) async throws -> [SwipeExportRow] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT rowid AS rid, * FROM swipes WHERE deckId = ? AND rowid > ? ORDER BY rowid LIMIT ?"),
                arguments: [deckId, rowid, limit]
            ).map { r in SwipeExportRow(cursor: r["rid"], swipe: try Swipe(row: r)) }
        }
    }
}
