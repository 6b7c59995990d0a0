import Foundation
import GRDB

extension AppDatabase {
    public func recordOnce(
        deckId: Int64, kind: DeckEventKind, key: String, detail: String, now: Double
    ) async throws -> Bool {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO deckEvents (deckId, ownerId, kind, detail, createdAt, onceKey)
                    VALUES (?, NULL, ?, ?, ?, ?)
                    """, arguments: [deckId, kind, detail, now, key])
            return db.changesCount > 0
        }
    }

    public func decisionEvents(deckId: Int64) async throws -> [DecisionLedger.Event] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT onceKey, kind, detail FROM deckEvents WHERE deckId = ? AND onceKey IS NOT NULL",
                arguments: [deckId]
            ).map { DecisionLedger.Event(key: $0[0], kind: try $0.decode(forColumn: "kind"), detail: $0[2]) }
        }
    }

    public func onceKeys(deckId: Int64) async throws -> Set<String> {
        try await writer.read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT onceKey FROM deckEvents WHERE deckId = ? AND onceKey IS NOT NULL",
                    arguments: [deckId]))
        }
    }
}
