import Foundation
import PostgresNIO

extension PostgresStore {
    public func createOwner(name: String, passwordHash: String, now: Double) async throws -> (Owner, [String]) {
        do {
            return try await transaction { connection in
                // The owners table lock makes "the first owner adopts" exact between servers.
                try await execute("LOCK TABLE owners IN SHARE ROW EXCLUSIVE MODE", on: connection)
                if try await value("SELECT 1 FROM owners WHERE name = \(name)", on: connection, as: Int.self) != nil {
                    throw StoreError.ownerNameTaken
                }
                let first = try await value("SELECT COUNT(*) FROM owners", on: connection, as: Int.self) == 0
                // RETURNING always yields the row inserted; no row would mean no owner was stored.
                guard
                    let id = try await value(
                        "INSERT INTO owners (name, passwordHash, createdAt) VALUES (\(name), \(passwordHash), \(now)) RETURNING id",
                        on: connection, as: Int64.self)
                else { throw ApiError.notFound("owner") }
                let owner = Owner(id: id, name: name, passwordHash: passwordHash, createdAt: now)
                guard first else { return (owner, []) }
                let adopted = try await fetch(
                    """
                    UPDATE decks SET ownerId = \(id), revision = revision + 1 WHERE ownerId IS NULL RETURNING id, slug
                    """, on: connection
                ) { (id: try $0.next(Int64.self), slug: try $0.next(String.self)) }
                .sorted { $0.id < $1.id }
                for deck in adopted {
                    try await recordEvent(
                        deckId: deck.id, ownerId: id, kind: .adopted, detail: "{\"owner\":\(id)}", at: now,
                        on: connection)
                }
                return (owner, adopted.map(\.slug))
            }
        } catch  where Self.isUniqueViolation(error) {
            throw StoreError.ownerNameTaken
        }
    }

    public func owners() async throws -> [Owner] {
        try await fetch("SELECT \(unescaped: Self.ownerColumns) FROM owners ORDER BY name", Self.owner)
    }

    public func owner(named name: String) async throws -> Owner? {
        try await fetchOne("SELECT \(unescaped: Self.ownerColumns) FROM owners WHERE name = \(name)", Self.owner)
    }

    public func startSession(ownerId: Int64, tokenHash: String, now: Double, lifetime: Double) async throws {
        try await transaction { connection in
            try await execute(
                """
                INSERT INTO ownerSessions (tokenHash, ownerId, createdAt, expiresAt) VALUES (\(tokenHash), \(ownerId), \(now), \(now + lifetime))
                """, on: connection)
        }
    }

    public func sessionOwner(tokenHash: String, now: Double) async throws -> Owner? {
        try await fetchOne(
            """
            SELECT o.id, o.name, o.passwordHash, o.createdAt FROM ownerSessions s JOIN owners o ON o.id = s.ownerId
            WHERE s.tokenHash = \(tokenHash) AND s.endedAt IS NULL AND s.expiresAt > \(now)
            """, Self.owner)
    }

    public func endSession(tokenHash: String, now: Double) async throws {
        try await transaction { connection in
            try await execute(
                "UPDATE ownerSessions SET endedAt = \(now) WHERE tokenHash = \(tokenHash) AND endedAt IS NULL",
                on: connection)
        }
    }

    public func setPassword(ownerId: Int64, passwordHash: String, keeping: String?, now: Double) async throws {
        try await transaction { connection in
            guard
                try await value(
                    "UPDATE owners SET passwordHash = \(passwordHash) WHERE id = \(ownerId) RETURNING 1",
                    on: connection, as: Int.self) != nil
            else { throw StoreError.notFound(.owner) }
            try await execute(
                """
                UPDATE ownerSessions SET endedAt = \(now)
                WHERE ownerId = \(ownerId) AND endedAt IS NULL AND tokenHash IS DISTINCT FROM \(keeping)
                """, on: connection)
        }
    }

    public func createApiToken(ownerId: Int64, name: String, tokenHash: String, prefix: String, now: Double)
        async throws
    {
        try await transaction { connection in
            try await execute(
                """
                INSERT INTO apiTokens (ownerId, name, tokenHash, prefix, createdAt) VALUES (\(ownerId), \(name), \(tokenHash), \(prefix), \(now))
                """, on: connection)
        }
    }

    public func apiTokens(ownerId: Int64) async throws -> [ApiTokenSummary] {
        try await fetch(
            """
            SELECT id, name, prefix, createdAt, revokedAt FROM apiTokens WHERE ownerId = \(ownerId) ORDER BY id DESC
            """
        ) { c in
            ApiTokenSummary(
                id: try c.next(), name: try c.next(), prefix: try c.next(), createdAt: try c.next(),
                revokedAt: try c.next())
        }
    }

    public func revokeApiToken(id: Int64, ownerId: Int64, now: Double) async throws {
        try await transaction { connection in
            guard
                try await value(
                    "SELECT 1 FROM apiTokens WHERE id = \(id) AND ownerId = \(ownerId)", on: connection, as: Int.self)
                    != nil
            else {
                throw StoreError.notFound(.token)
            }
            try await execute(
                """
                UPDATE apiTokens SET revokedAt = \(now) WHERE id = \(id) AND ownerId = \(ownerId) AND revokedAt IS NULL
                """, on: connection)
        }
    }

    public func tokenOwner(tokenHash: String) async throws -> Owner? {
        try await fetchOne(
            """
            SELECT o.id, o.name, o.passwordHash, o.createdAt FROM apiTokens t JOIN owners o ON o.id = t.ownerId
            WHERE t.tokenHash = \(tokenHash) AND t.revokedAt IS NULL
            """, Self.owner)
    }

    /// `ON CONFLICT DO NOTHING` and a read: two servers starting together store one value and
    /// both return it.
    public func setting(_ key: String, orCreate fresh: @escaping @Sendable () -> String) async throws -> (
        value: String, created: Bool
    ) {
        try await transaction { connection in
            let candidate = fresh()
            let inserted = try await value(
                "INSERT INTO settings (key, value) VALUES (\(key), \(candidate)) ON CONFLICT (key) DO NOTHING RETURNING value",
                on: connection, as: String.self)
            if let inserted { return (inserted, true) }
            guard
                let stored = try await value(
                    "SELECT value FROM settings WHERE key = \(key)", on: connection, as: String.self)
            else {
                throw StoreError.notFound(.setting)
            }
            return (stored, false)
        }
    }
    public func secretKeyCheck() async throws -> String? {
        try await value("SELECT value FROM settings WHERE key = \(SecretKeyCheck.settingKey)", as: String.self)
    }

    public func rewriteSecrets(
        expecting: SecretKeyCheck.Expectation, check: String,
        _ transform: @Sendable (SecretPurpose, String) throws -> String
    ) async throws -> Int? {
        try await transaction { connection -> Int? in
            // Servers starting together rewrite once: the second waits here, then finds the check.
            try await execute("LOCK TABLE settings IN SHARE ROW EXCLUSIVE MODE", on: connection)
            let stored = try await value(
                "SELECT value FROM settings WHERE key = \(SecretKeyCheck.settingKey)", on: connection, as: String.self)
            if stored == check { return nil }
            guard expecting.allows(stored) else { throw SecretKeyMismatch(stored: stored) }
            var count = 0
            if let secret = try await value(
                "SELECT value FROM settings WHERE key = 'participantSecret'", on: connection, as: String.self)
            {
                let sealed = try transform(.participantSigning, secret)
                try await execute(
                    "UPDATE settings SET value = \(sealed) WHERE key = 'participantSecret'", on: connection)
                count += 1
            }
            let decks = try await fetch(
                "SELECT id, accessSecret FROM decks WHERE accessSecret <> '' ORDER BY id", on: connection
            ) { (try $0.next(Int64.self), try $0.next(String.self)) }
            for (id, secret) in decks {
                let sealed = try transform(.deckAccess, secret)
                try await execute("UPDATE decks SET accessSecret = \(sealed) WHERE id = \(id)", on: connection)
                count += 1
            }
            let hooks = try await fetch("SELECT id, secret FROM webhooks ORDER BY id", on: connection) {
                (try $0.next(Int64.self), try $0.next(String.self))
            }
            for (id, secret) in hooks {
                let sealed = try transform(.webhook, secret)
                try await execute("UPDATE webhooks SET secret = \(sealed) WHERE id = \(id)", on: connection)
                count += 1
            }
            try await execute(
                """
                INSERT INTO settings (key, value) VALUES (\(SecretKeyCheck.settingKey), \(check))
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """, on: connection)
            return count
        }
    }
}
