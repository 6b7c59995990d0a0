import PostgresNIO

extension PostgresStore {
    public func openRoomsCreated(deckId: Int64, participant: String, now: Double) async throws -> Int {
        let rows = try await fetch(
            """
            SELECT count(*) FROM rooms r
            WHERE r.deckId = \(deckId) AND r.finishedAt IS NULL AND r.expiresAt > \(now)
            AND (SELECT m.participantId FROM roomMembers m WHERE m.roomId = r.id ORDER BY m.id LIMIT 1) = \(participant)
            """
        ) { c in try c.next(Int64.self) }
        return Int(rows.first ?? 0)
    }
}
