import GRDB

extension AppDatabase {
    /// See `PresentationStore.presentation(deckId:)`.
    public func presentation(deckId: Int64) async throws -> Presentation? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM presentations WHERE deckId = ?", arguments: [deckId])
                .map(Self.presentation(row:))
        }
    }

    /// See `PresentationStore.presentation(joinCode:)`.
    public func presentation(joinCode: String) async throws -> Presentation? {
        try await writer.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM presentations WHERE joinCode = ?", arguments: [joinCode])
                .map(Self.presentation(row:))
        }
    }

    /// See `PresentationStore.createPresentation`: the deck's row is the key, the code unique.
    public func createPresentation(deckId: Int64, joinCode: String, now: Double) async throws -> Presentation? {
        do {
            return try await writer.write { db -> Presentation? in
                try db.execute(
                    sql: """
                        INSERT INTO presentations (deckId, joinCode, revealed, createdAt, updatedAt)
                        VALUES (?, ?, 0, ?, ?) ON CONFLICT (deckId) DO NOTHING
                        """,
                    arguments: [deckId, joinCode, now, now])
                return try Row.fetchOne(db, sql: "SELECT * FROM presentations WHERE deckId = ?", arguments: [deckId])
                    .map(Self.presentation(row:))
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return nil
        }
    }

    /// See `PresentationStore.setRevealed`.
    public func setRevealed(deckId: Int64, _ revealed: Bool, revealAt: Double?, now: Double) async throws
        -> Presentation?
    {
        // An edit of the deck: its phones and screens hear it (`DeckEdits` listeners).
        try await editing(deckId) { db in
            try db.execute(
                sql: "UPDATE presentations SET revealed = ?, revealAt = ?, updatedAt = ? WHERE deckId = ?",
                arguments: [revealed, revealAt, now, deckId])
            return try Row.fetchOne(db, sql: "SELECT * FROM presentations WHERE deckId = ?", arguments: [deckId])
                .map(Self.presentation(row:))
        }
    }

    /// See `PresentationStore.setPacing`.
    public func setPacing(deckId: Int64, _ pacing: Pacing, now: Double) async throws -> Presentation? {
        try await editing(deckId) { db in
            try db.execute(
                sql: """
                    UPDATE presentations SET hosted = ?, pacedCard = ?, pacedStep = ?, cardClosesAt = ?, cardSeconds = ?,
                    updatedAt = ? WHERE deckId = ?
                    """,
                arguments: [
                    pacing.hosted, pacing.cardId, pacing.step, pacing.closesAt, pacing.cardSeconds, now, deckId,
                ])
            return try Row.fetchOne(db, sql: "SELECT * FROM presentations WHERE deckId = ?", arguments: [deckId])
                .map(Self.presentation(row:))
        }
    }

    /// See `PresentationStore.setPresenterLink`.
    public func setPresenterLink(deckId: Int64, _ link: PresenterLink, now: Double) async throws -> Presentation? {
        try await editing(deckId) { db in
            try db.execute(
                sql:
                    "UPDATE presentations SET presenterGeneration = ?, presenterActive = ?, updatedAt = ? WHERE deckId = ?",
                arguments: [link.generation, link.active, now, deckId])
            return try Row.fetchOne(db, sql: "SELECT * FROM presentations WHERE deckId = ?", arguments: [deckId])
                .map(Self.presentation(row:))
        }
    }

    static func presentation(row r: Row) -> Presentation {
        Presentation(
            deckId: r["deckId"], joinCode: r["joinCode"], revealed: r["revealed"], revealAt: r["revealAt"],
            pacing: Pacing(
                hosted: r["hosted"], cardId: r["pacedCard"], step: r["pacedStep"], closesAt: r["cardClosesAt"],
                cardSeconds: r["cardSeconds"]),
            presenterLink: PresenterLink(generation: r["presenterGeneration"], active: r["presenterActive"]),
            createdAt: r["createdAt"],
            updatedAt: r["updatedAt"])
    }
}
