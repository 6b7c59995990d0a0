import Foundation
import PostgresNIO

extension PostgresStore {
    public func recordOnce(
        deckId: Int64, kind: DeckEventKind, key: String, detail: String, now: Double
    ) async throws -> Bool {
        // Another server's insert of the same key wins the unique index; this one then adds nothing.
        try await value(
            """
            INSERT INTO deckEvents (deckId, ownerId, kind, detail, createdAt, onceKey)
            VALUES (\(deckId), NULL, \(kind.rawValue), \(detail), \(now), \(key))
            ON CONFLICT DO NOTHING RETURNING id
            """, as: Int64.self) != nil
    }

    public func decisionEvents(deckId: Int64) async throws -> [DecisionLedger.Event] {
        try await fetch(
            "SELECT onceKey, kind, detail FROM deckEvents WHERE deckId = \(deckId) AND onceKey IS NOT NULL",
            {
                DecisionLedger.Event(
                    key: try $0.next(String.self), kind: try $0.next(DeckEventKind.self),
                    detail: try $0.next(String.self))
            })
    }

    public func onceKeys(deckId: Int64) async throws -> Set<String> {
        Set(
            try await fetch(
                "SELECT onceKey FROM deckEvents WHERE deckId = \(deckId) AND onceKey IS NOT NULL",
                { try $0.next(String.self) }))
    }
}
