import GRDB

/// One stored swipe as the per-swipe export writes it.
public struct SwipeExportRow: Sendable {
    public var rowid: Int64
    public var swipe: Swipe
}

extension AppDatabase {
    /// Up to `limit` swipes of the deck after `rowid` (exclusive), in storage order: the export
    /// reads a deck in such pages, so memory stays flat however large the deck.
    public func swipePage(deckId: Int64, after rowid: Int64, limit: Int) async throws -> [SwipeExportRow] {
        try await pool.read { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT rowid AS rid, * FROM swipes WHERE deckId = ? AND rowid > ? ORDER BY rowid LIMIT ?"),
                arguments: [deckId, rowid, limit]
            ).map { r in SwipeExportRow(rowid: r["rid"], swipe: try Swipe(row: r)) }
        }
    }
}
