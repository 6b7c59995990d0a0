import GRDB

extension AppDatabase {
    public func openRoomsCreated(deckId: Int64, participant: String, now: Double) async throws -> Int {
        try await writer.read { db in
            try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM rooms r
                    WHERE r.deckId = ? AND r.finishedAt IS NULL AND r.expiresAt > ?
                    AND (SELECT m.participantId FROM roomMembers m WHERE m.roomId = r.id ORDER BY m.id LIMIT 1) = ?
                    """,
                arguments: [deckId, now, participant]) ?? 0
        }
    }
}
