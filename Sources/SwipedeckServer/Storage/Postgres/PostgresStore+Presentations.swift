import PostgresNIO

extension PostgresStore {
    static let presentationColumns =
        "deckId, joinCode, revealed, revealAt, createdAt, updatedAt, hosted, pacedCard, pacedStep, cardClosesAt, cardSeconds, "
        + "presenterGeneration, presenterActive"

    /// See `PresentationStore.presentation(deckId:)`.
    public func presentation(deckId: Int64) async throws -> Presentation? {
        try await fetchOne(
            "SELECT \(unescaped: Self.presentationColumns) FROM presentations WHERE deckId = \(deckId)",
            Self.presentation)
    }

    /// See `PresentationStore.presentation(joinCode:)`.
    public func presentation(joinCode: String) async throws -> Presentation? {
        try await fetchOne(
            "SELECT \(unescaped: Self.presentationColumns) FROM presentations WHERE joinCode = \(joinCode)",
            Self.presentation)
    }

    /// See `PresentationStore.createPresentation`: two servers making one deck's at once both
    /// read the row that won (the deck is the key); a code another deck has is a unique violation.
    public func createPresentation(deckId: Int64, joinCode: String, now: Double) async throws -> Presentation? {
        do {
            return try await transaction { connection -> Presentation? in
                try await execute(
                    """
                    INSERT INTO presentations (deckId, joinCode, revealed, createdAt, updatedAt)
                    VALUES (\(deckId), \(joinCode), false, \(now), \(now)) ON CONFLICT (deckId) DO NOTHING
                    """, on: connection)
                return try await fetchOne(
                    "SELECT \(unescaped: Self.presentationColumns) FROM presentations WHERE deckId = \(deckId)",
                    on: connection, Self.presentation)
            }
        } catch let error where Self.isUniqueViolation(error) {
            return nil
        }
    }

    /// See `PresentationStore.setRevealed`.
    public func setRevealed(deckId: Int64, _ revealed: Bool, revealAt: Double?, now: Double) async throws
        -> Presentation?
    {
        // An edit of the deck, notified to every server: its phones and screens there hear it at once.
        try await editing(deckId) { connection in
            try await fetchOne(
                """
                UPDATE presentations SET revealed = \(revealed), revealAt = \(revealAt), updatedAt = \(now)
                WHERE deckId = \(deckId)
                RETURNING \(unescaped: Self.presentationColumns)
                """, on: connection, Self.presentation)
        }
    }

    /// See `PresentationStore.setPacing`.
    public func setPacing(deckId: Int64, _ pacing: Pacing, now: Double) async throws -> Presentation? {
        try await editing(deckId) { connection in
            try await fetchOne(
                """
                UPDATE presentations SET hosted = \(pacing.hosted), pacedCard = \(pacing.cardId),
                pacedStep = \(pacing.step), cardClosesAt = \(pacing.closesAt), cardSeconds = \(pacing.cardSeconds),
                updatedAt = \(now)
                WHERE deckId = \(deckId)
                RETURNING \(unescaped: Self.presentationColumns)
                """, on: connection, Self.presentation)
        }
    }

    /// See `PresentationStore.setPresenterLink`.
    public func setPresenterLink(deckId: Int64, _ link: PresenterLink, now: Double) async throws -> Presentation? {
        try await editing(deckId) { connection in
            try await fetchOne(
                """
                UPDATE presentations SET presenterGeneration = \(link.generation), presenterActive = \(link.active),
                updatedAt = \(now)
                WHERE deckId = \(deckId)
                RETURNING \(unescaped: Self.presentationColumns)
                """, on: connection, Self.presentation)
        }
    }

    static func presentation(_ c: inout PostgresColumns) throws -> Presentation {
        let deckId: Int64 = try c.next()
        let joinCode: String = try c.next()
        let revealed: Bool = try c.next()
        let revealAt: Double? = try c.next()
        let createdAt: Double = try c.next()
        let updatedAt: Double = try c.next()
        let pacing = Pacing(
            hosted: try c.next(), cardId: try c.next(), step: try c.next(), closesAt: try c.next(),
            cardSeconds: try c.next())
        let link = PresenterLink(generation: try c.next(), active: try c.next())
        return Presentation(
            deckId: deckId, joinCode: joinCode, revealed: revealed, revealAt: revealAt, pacing: pacing,
            presenterLink: link, createdAt: createdAt, updatedAt: updatedAt)
    }
}
