import GRDB

extension AppDatabase {
    /// Adds an owner. The first owner adopts every deck that has none (the sample deck, decks
    /// made with the admin token), so a fresh server's decks appear on their dashboard.
    /// - Returns: the owner and the slugs of the decks adopted.
    /// - Throws: `StoreError.ownerNameTaken`.
    public func createOwner(name: String, passwordHash: String, now: Double) async throws -> (Owner, [String]) {
        try await writer.write { db in
            if try Owner.filter(Column("name") == name).fetchCount(db) > 0 { throw StoreError.ownerNameTaken }
            let first = try Owner.fetchCount(db) == 0
            try db.execute(
                sql: "INSERT INTO owners (name, passwordHash, createdAt) VALUES (?, ?, ?)",
                arguments: [name, passwordHash, now])
            let owner = Owner(id: db.lastInsertedRowID, name: name, passwordHash: passwordHash, createdAt: now)
            guard first else { return (owner, []) }
            let id = owner.id
            let adopted = try String.fetchAll(db, sql: "SELECT slug FROM decks WHERE ownerId IS NULL ORDER BY id")
            try db.execute(
                sql: "UPDATE decks SET ownerId = ?, revision = revision + 1 WHERE ownerId IS NULL", arguments: [id])
            for slug in adopted {
                try Self.recordEvent(
                    db, deckSlug: slug, ownerId: id, kind: .adopted, detail: "{\"owner\":\(id)}", at: now)
            }
            return (owner, adopted)
        }
    }

    public func owners() async throws -> [Owner] {
        try await writer.read { db in try Owner.order(Column("name")).fetchAll(db) }
    }

    public func owner(named name: String) async throws -> Owner? {
        try await writer.read { db in try Owner.filter(Column("name") == name).fetchOne(db) }
    }

    /// Stores a new session for the owner; the cookie carries the token, the row its hash.
    public func startSession(ownerId: Int64, tokenHash: String, now: Double, lifetime: Double) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO ownerSessions (tokenHash, ownerId, createdAt, expiresAt) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, ownerId, now, now + lifetime])
        }
    }

    /// The owner of a live (not ended, not expired) session.
    public func sessionOwner(tokenHash: String, now: Double) async throws -> Owner? {
        try await writer.read { db in
            try Owner.fetchOne(
                db,
                sql: """
                    SELECT o.* FROM ownerSessions s JOIN owners o ON o.id = s.ownerId
                    WHERE s.tokenHash = ? AND s.endedAt IS NULL AND s.expiresAt > ?
                    """, arguments: [tokenHash, now])
        }
    }

    /// Signs a session out (the row stays, with its end time).
    public func endSession(tokenHash: String, now: Double) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE ownerSessions SET endedAt = ? WHERE tokenHash = ? AND endedAt IS NULL",
                arguments: [now, tokenHash])
        }
    }

    public func setPassword(ownerId: Int64, passwordHash: String, keeping: String?, now: Double) async throws {
        try await writer.write { db in
            try db.execute(sql: "UPDATE owners SET passwordHash = ? WHERE id = ?", arguments: [passwordHash, ownerId])
            if db.changesCount == 0 { throw StoreError.notFound(.owner) }
            try db.execute(
                sql:
                    "UPDATE ownerSessions SET endedAt = ? WHERE ownerId = ? AND endedAt IS NULL AND tokenHash IS NOT ?",
                arguments: [now, ownerId, keeping])
        }
    }

    public func createApiToken(ownerId: Int64, name: String, tokenHash: String, prefix: String, now: Double)
        async throws
    {
        try await writer.write { db in
            try db.execute(
                sql: "INSERT INTO apiTokens (ownerId, name, tokenHash, prefix, createdAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [ownerId, name, tokenHash, prefix, now])
        }
    }

    public func apiTokens(ownerId: Int64) async throws -> [ApiTokenSummary] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM apiTokens WHERE ownerId = ? ORDER BY id DESC", arguments: [ownerId]
            ).map { r in
                ApiTokenSummary(
                    id: r["id"], name: r["name"], prefix: r["prefix"], createdAt: r["createdAt"],
                    revokedAt: r["revokedAt"])
            }
        }
    }

    /// Revokes one of the owner's tokens (kept, with the time). Another owner's token is not found.
    public func revokeApiToken(id: Int64, ownerId: Int64, now: Double) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE apiTokens SET revokedAt = ? WHERE id = ? AND ownerId = ? AND revokedAt IS NULL",
                arguments: [now, id, ownerId])
            if db.changesCount == 0,
                try Int.fetchOne(
                    db, sql: "SELECT 1 FROM apiTokens WHERE id = ? AND ownerId = ?", arguments: [id, ownerId]) == nil
            {
                throw StoreError.notFound(.token)
            }
        }
    }

    /// The owner of a live API token.
    public func tokenOwner(tokenHash: String) async throws -> Owner? {
        try await writer.read { db in
            try Owner.fetchOne(
                db,
                sql: """
                    SELECT o.* FROM apiTokens t JOIN owners o ON o.id = t.ownerId WHERE t.tokenHash = ? AND t.revokedAt IS NULL
                    """, arguments: [tokenHash])
        }
    }

    /// A value from the `settings` table, creating and storing `fresh()` on first use.
    public func setting(_ key: String, orCreate fresh: @escaping @Sendable () -> String) async throws -> (
        value: String, created: Bool
    ) {
        try await writer.write { db in
            if let v = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [key]) {
                return (v, false)
            }
            let v = fresh()
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?)", arguments: [key, v])
            return (v, true)
        }
    }

    public func secretKeyCheck() async throws -> String? {
        try await writer.read { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SecretKeyCheck.settingKey])
        }
    }

    public func rewriteSecrets(
        expecting: SecretKeyCheck.Expectation, check: String,
        _ transform: @Sendable (SecretPurpose, String) throws -> String
    ) async throws -> Int? {
        let rewritten = try await writer.write { db -> Int? in
            let stored = try String.fetchOne(
                db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [SecretKeyCheck.settingKey])
            if stored == check { return nil }
            guard expecting.allows(stored) else { throw SecretKeyMismatch(stored: stored) }
            // Freed bytes are zeroed, so the former values leave the file, not only the rows.
            try db.execute(sql: "PRAGMA secure_delete = ON")
            var count = 0
            if let secret = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'participantSecret'") {
                try db.execute(
                    sql: "UPDATE settings SET value = ? WHERE key = 'participantSecret'",
                    arguments: [try transform(.participantSigning, secret)])
                count += 1
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, accessSecret FROM decks WHERE accessSecret <> ''") {
                try db.execute(
                    sql: "UPDATE decks SET accessSecret = ? WHERE id = ?",
                    arguments: [try transform(.deckAccess, row["accessSecret"]), row["id"] as Int64])
                count += 1
            }
            for row in try Row.fetchAll(db, sql: "SELECT id, secret FROM webhooks") {
                try db.execute(
                    sql: "UPDATE webhooks SET secret = ? WHERE id = ?",
                    arguments: [try transform(.webhook, row["secret"]), row["id"] as Int64])
                count += 1
            }
            try db.execute(
                sql:
                    "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                arguments: [SecretKeyCheck.settingKey, check])
            return count
        }
        try await writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA secure_delete = OFF")
            // Best effort: a reader holding the log keeps its frames until SQLite's next automatic
            // checkpoint, which overwrites them; the database file itself holds no former value.
            _ = try? db.checkpoint(.truncate)
        }
        return rewritten
    }

    /// Appends to a deck's event log (settings changes, card edits, archives, moves, exclusions).
    static func recordEvent(
        _ db: Database, deckSlug: String, ownerId: Int64?, kind: DeckEventKind, detail: String, at now: Double
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO deckEvents (deckId, ownerId, kind, detail, createdAt) SELECT id, ?, ?, ?, ? FROM decks WHERE slug = ?
                """, arguments: [ownerId, kind, detail, now, deckSlug])
    }
}
