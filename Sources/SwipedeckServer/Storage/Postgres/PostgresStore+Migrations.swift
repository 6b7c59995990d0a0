import PostgresNIO

extension PostgresStore {
    /// Append-only, like the SQLite migrator: never edit a registered migration, add a new one.
    /// Identifiers are unquoted camelCase, which PostgreSQL folds to lower case; queries read
    /// columns by position. Integers are `bigint`, times `double precision` seconds since 1970.
    ///
    /// v1 is the SQLite schema after its v5: the same tables, keys and indexes, with `swipes.seq`
    /// standing in for SQLite's rowid (storage order, the export's cursor).
    static let migrations: [(name: String, sql: String)] = [
        (
            "v1",
            """
            CREATE TABLE settings (key text PRIMARY KEY, value text NOT NULL);
            CREATE TABLE owners (
                id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, passwordHash text NOT NULL,
                createdAt double precision NOT NULL);
            CREATE TABLE decks (
                id bigserial PRIMARY KEY, slug text NOT NULL UNIQUE, title text NOT NULL,
                description text NOT NULL DEFAULT '', profile text NOT NULL,
                allowButtons boolean NOT NULL DEFAULT true, leftLabel text NOT NULL DEFAULT 'NOPE',
                rightLabel text NOT NULL DEFAULT 'LIKE', upLabel text NOT NULL DEFAULT 'SUPER',
                downLabel text NOT NULL DEFAULT 'LATER', createdAt double precision NOT NULL,
                ownerId bigint REFERENCES owners(id), isOpen boolean NOT NULL DEFAULT true,
                resultsPublic boolean NOT NULL DEFAULT false, quota bigint,
                cardOrder text NOT NULL DEFAULT 'listed', countedInputs text NOT NULL DEFAULT 'drag,button',
                revision bigint NOT NULL DEFAULT 1);
            CREATE INDEX decks_by_owner ON decks(ownerId);
            CREATE TABLE cards (
                id bigserial PRIMARY KEY, deckId bigint NOT NULL REFERENCES decks(id), position bigint NOT NULL,
                title text NOT NULL, subtitle text NOT NULL DEFAULT '', body text NOT NULL DEFAULT '',
                image text NOT NULL DEFAULT '', link text NOT NULL DEFAULT '', accent text NOT NULL DEFAULT '#6C5CE7',
                revision bigint NOT NULL DEFAULT 1, archivedAt double precision, moreImages text NOT NULL DEFAULT '[]');
            CREATE INDEX cards_by_deck_position ON cards(deckId, position);
            CREATE TABLE cardRevisions (
                cardId bigint NOT NULL REFERENCES cards(id), revision bigint NOT NULL, title text NOT NULL,
                subtitle text NOT NULL, body text NOT NULL, image text NOT NULL, link text NOT NULL,
                accent text NOT NULL, createdAt double precision NOT NULL, moreImages text NOT NULL DEFAULT '[]',
                PRIMARY KEY (cardId, revision));
            CREATE TABLE participants (
                id text PRIMARY KEY, kind text NOT NULL, createdAt double precision NOT NULL,
                legacy boolean NOT NULL DEFAULT false);
            CREATE TABLE swipes (
                id text PRIMARY KEY, seq bigserial NOT NULL UNIQUE, deckId bigint NOT NULL REFERENCES decks(id),
                cardId bigint NOT NULL REFERENCES cards(id), participantId text NOT NULL REFERENCES participants(id),
                direction text NOT NULL, input text NOT NULL, trace text, velocityX double precision,
                velocityY double precision, durationMs double precision, decisionMs double precision,
                suspect boolean NOT NULL DEFAULT false, requestHash text NOT NULL, createdAt double precision NOT NULL,
                undoneAt double precision, cardRevision bigint, suspectReason text, traceData bytea);
            CREATE UNIQUE INDEX swipes_live_once ON swipes(participantId, cardId) WHERE undoneAt IS NULL;
            CREATE INDEX swipes_by_participant ON swipes(participantId, deckId, createdAt);
            CREATE INDEX swipes_by_deck_seq ON swipes(deckId, seq);
            CREATE INDEX swipes_by_deck_time ON swipes(deckId, createdAt);
            CREATE TABLE rejections (
                id bigserial PRIMARY KEY, deckId bigint NOT NULL REFERENCES decks(id), cardId bigint,
                participantId text, code text NOT NULL, createdAt double precision NOT NULL);
            CREATE INDEX rejections_by_deck ON rejections(deckId, code);
            CREATE TABLE flips (
                id bigserial PRIMARY KEY, swipeId text NOT NULL REFERENCES swipes(id), fromDirection text NOT NULL,
                toDirection text NOT NULL, createdAt double precision NOT NULL);
            CREATE TABLE ownerSessions (
                tokenHash text PRIMARY KEY, ownerId bigint NOT NULL REFERENCES owners(id),
                createdAt double precision NOT NULL, expiresAt double precision NOT NULL, endedAt double precision);
            CREATE TABLE apiTokens (
                id bigserial PRIMARY KEY, ownerId bigint NOT NULL REFERENCES owners(id), name text NOT NULL,
                tokenHash text NOT NULL UNIQUE, prefix text NOT NULL, createdAt double precision NOT NULL,
                revokedAt double precision);
            CREATE TABLE exclusions (
                id bigserial PRIMARY KEY, deckId bigint NOT NULL REFERENCES decks(id), participantId text NOT NULL,
                reason text NOT NULL DEFAULT '', createdAt double precision NOT NULL, liftedAt double precision);
            CREATE INDEX exclusions_by_deck ON exclusions(deckId, liftedAt);
            CREATE TABLE deckEvents (
                id bigserial PRIMARY KEY, deckId bigint NOT NULL REFERENCES decks(id), ownerId bigint,
                kind text NOT NULL, detail text NOT NULL, createdAt double precision NOT NULL);
            CREATE TABLE images (
                hash text PRIMARY KEY, contentType text NOT NULL, bytes bigint NOT NULL, width bigint NOT NULL,
                height bigint NOT NULL, ownerId bigint, createdAt double precision NOT NULL);
            CREATE TABLE swipeTallies (
                deckId bigint NOT NULL, outOfResults boolean NOT NULL, cardId bigint NOT NULL, kind bigint NOT NULL,
                direction text NOT NULL, n bigint NOT NULL, PRIMARY KEY (deckId, outOfResults, cardId, kind, direction));
            CREATE TABLE deckParticipants (
                deckId bigint NOT NULL, participantId text NOT NULL, excluded boolean NOT NULL DEFAULT false,
                k0 bigint NOT NULL DEFAULT 0, k1 bigint NOT NULL DEFAULT 0, k2 bigint NOT NULL DEFAULT 0,
                k3 bigint NOT NULL DEFAULT 0, k4 bigint NOT NULL DEFAULT 0, PRIMARY KEY (deckId, participantId));
            CREATE INDEX deckParticipants_flagged ON deckParticipants(deckId) WHERE excluded OR k1 > 0 OR k3 > 0;
            CREATE TABLE participantMasks (
                deckId bigint NOT NULL, outOfResults boolean NOT NULL, mask bigint NOT NULL, n bigint NOT NULL,
                PRIMARY KEY (deckId, outOfResults, mask));
            CREATE TABLE decisionBuckets (
                deckId bigint NOT NULL, kind bigint NOT NULL, bucket bigint NOT NULL, n bigint NOT NULL,
                PRIMARY KEY (deckId, kind, bucket));
            CREATE TABLE decisionTimes (
                deckId bigint NOT NULL, kind bigint NOT NULL, bucket bigint NOT NULL, decisionMs double precision NOT NULL,
                n bigint NOT NULL, PRIMARY KEY (deckId, kind, bucket, decisionMs));
            """
        ),
        // The admin token is kept as its SHA-256 only (SQLite's v6-admin-token-hash): a stored
        // plaintext `adminToken` becomes its lower-case hex hash under `adminTokenHash`
        // (`sha256()` is built in since PostgreSQL 11).
        (
            "v2",
            """
            INSERT INTO settings (key, value)
                SELECT 'adminTokenHash', encode(sha256(convert_to(value, 'UTF8')), 'hex') FROM settings WHERE key = 'adminToken'
                ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
            DELETE FROM settings WHERE key = 'adminToken'
            """
        ),
        // Where and when each participant joined a deck (their first decision's client network),
        // for `LockstepClusters`; participants from before have no row and are never compared.
        (
            "v3-participant-origins",
            """
            CREATE TABLE participantOrigins (
                deckId bigint NOT NULL, participantId text NOT NULL, network text NOT NULL, joinedAt double precision NOT NULL,
                PRIMARY KEY (deckId, participantId));
            CREATE INDEX participantOrigins_by_network ON participantOrigins(deckId, network)
            """
        ),
        // Who may vote on a deck (`DeckAccessMode`), its access secret, a per-deck join limit, and
        // the one-time codes of `codes` decks (SQLite's v8-deck-access).
        (
            "v4-deck-access",
            """
            ALTER TABLE decks ADD COLUMN access text NOT NULL DEFAULT 'link';
            ALTER TABLE decks ADD COLUMN accessSecret text NOT NULL DEFAULT '';
            ALTER TABLE decks ADD COLUMN joinLimit bigint;
            CREATE TABLE accessCodes (deckId bigint NOT NULL, code text NOT NULL, createdAt double precision NOT NULL, PRIMARY KEY (deckId, code))
            """
        ),
        // Token buckets every server draws from (`PostgresTokenBuckets`): the join budget.
        (
            "v5-token-buckets",
            """
            CREATE TABLE tokenBuckets (key text PRIMARY KEY, tokens double precision NOT NULL, updatedAt double precision NOT NULL)
            """
        ),
        // Whether the front page lists a deck (`Deck.listed`); every deck made before is listed
        // (SQLite's v9-deck-listed).
        ("v6-deck-listed", "ALTER TABLE decks ADD COLUMN listed boolean NOT NULL DEFAULT true"),
        // Match rooms (`RoomStore`), as SQLite's v10-rooms: rooms, members, live and revoked
        // matches, the event log every server reads by id; the deck setting (decks made before: off).
        (
            "v7-rooms",
            """
            ALTER TABLE decks ADD COLUMN rooms boolean NOT NULL DEFAULT false;
            CREATE TABLE rooms (
                id bigserial PRIMARY KEY, code text NOT NULL UNIQUE, deckId bigint NOT NULL REFERENCES decks(id),
                ruleKind text NOT NULL, ruleValue bigint NOT NULL, endOnFirstMatch boolean NOT NULL, maxMatches bigint,
                likedFirst boolean NOT NULL, maxMembers bigint NOT NULL, createdAt double precision NOT NULL,
                expiresAt double precision NOT NULL, round bigint NOT NULL, roundCards text,
                roundStartedAt double precision NOT NULL, finishedAt double precision);
            CREATE INDEX rooms_by_deck ON rooms(deckId);
            CREATE TABLE roomMembers (
                id bigserial PRIMARY KEY, roomId bigint NOT NULL REFERENCES rooms(id), participantId text NOT NULL,
                name text NOT NULL, joinedAt double precision NOT NULL, leftAt double precision, decided bigint NOT NULL,
                UNIQUE (roomId, participantId));
            CREATE INDEX roomMembers_by_participant ON roomMembers(participantId);
            CREATE TABLE roomMatches (
                id bigserial PRIMARY KEY, roomId bigint NOT NULL REFERENCES rooms(id), cardId bigint NOT NULL,
                at double precision NOT NULL, likedBy text NOT NULL, revokedAt double precision);
            CREATE INDEX roomMatches_by_room ON roomMatches(roomId, cardId);
            CREATE TABLE roomEvents (
                id bigserial PRIMARY KEY, roomId bigint NOT NULL REFERENCES rooms(id), kind text NOT NULL,
                data text NOT NULL, at double precision NOT NULL);
            CREATE INDEX roomEvents_by_room ON roomEvents(roomId, id)
            """
        ),
        // A deck's stop rule and deck events recorded once (SQLite's v11-stop-rules).
        (
            "v8-stop-rules",
            """
            ALTER TABLE decks ADD COLUMN stopRule text NOT NULL DEFAULT '{}';
            ALTER TABLE deckEvents ADD COLUMN onceKey text;
            CREATE UNIQUE INDEX deckEvents_once ON deckEvents(deckId, onceKey) WHERE onceKey IS NOT NULL
            """
        ),
        // Known-answer cards (`NewCard.answer`, a `Decision`'s raw value) and a deck's quality
        // control (`NewDeck.quality`, `QualitySettings` as JSON; NULL reads as the defaults)
        // (SQLite's v12-known-answers).
        (
            "v9-known-answers",
            """
            ALTER TABLE cards ADD COLUMN answer text;
            ALTER TABLE decks ADD COLUMN quality text
            """
        ),
        // Webhooks and the outbox of their deliveries (SQLite's v13-webhooks).
        (
            "v10-webhooks",
            """
            CREATE TABLE webhooks (
                id bigserial PRIMARY KEY, deckId bigint NOT NULL REFERENCES decks(id) ON DELETE RESTRICT,
                url text NOT NULL, events text NOT NULL, secret text NOT NULL, createdBy bigint, createdAt double precision NOT NULL,
                disabledAt double precision);
            CREATE INDEX webhooks_by_deck ON webhooks(deckId);
            CREATE TABLE webhookDeliveries (
                id text PRIMARY KEY, hookId bigint NOT NULL REFERENCES webhooks(id) ON DELETE RESTRICT,
                deckId bigint NOT NULL, event text NOT NULL, at double precision NOT NULL, data text NOT NULL,
                status text NOT NULL, attempts bigint NOT NULL, createdAt double precision NOT NULL, dueAt double precision NOT NULL,
                nextAttemptAt double precision NOT NULL, leaseUntil double precision, leaseToken text,
                lastAttemptAt double precision, lastStatus bigint, lastError text, deliveredAt double precision);
            CREATE INDEX webhookDeliveries_due ON webhookDeliveries(status, nextAttemptAt);
            CREATE INDEX webhookDeliveries_by_hook ON webhookDeliveries(hookId, event, dueAt)
            """
        ),
        // The replay guard of join puzzles (`JoinPuzzleStore`), as SQLite's v14-solved-puzzles.
        (
            "v11-solved-puzzles",
            "CREATE TABLE solvedPuzzles (salt text PRIMARY KEY, expiresAt double precision NOT NULL)"
        ),
        // Decks on a big screen (`PresentationStore`), as SQLite's v15-presentations.
        (
            "v12-presentations",
            """
            CREATE TABLE presentations (
                deckId bigint PRIMARY KEY REFERENCES decks(id),
                joinCode text NOT NULL UNIQUE,
                revealed boolean NOT NULL DEFAULT false,
                createdAt double precision NOT NULL,
                updatedAt double precision NOT NULL)
            """
        ),
        // A big screen's reveal timer, as SQLite's v16-reveal-timer.
        ("v13-reveal-timer", "ALTER TABLE presentations ADD COLUMN revealAt double precision"),
        // A host-paced deck, as SQLite's v17-host-pace.
        (
            "v14-host-pace",
            """
            ALTER TABLE presentations ADD COLUMN hosted boolean NOT NULL DEFAULT false,
                ADD COLUMN pacedCard bigint, ADD COLUMN pacedStep integer NOT NULL DEFAULT 0,
                ADD COLUMN cardClosesAt double precision, ADD COLUMN cardSeconds integer
            """
        ),
        // A deck's presenter link, as SQLite's v18-presenter-link.
        (
            "v15-presenter-link",
            """
            ALTER TABLE presentations ADD COLUMN presenterGeneration integer NOT NULL DEFAULT 0,
                ADD COLUMN presenterActive boolean NOT NULL DEFAULT false
            """
        ),
    ]

    /// Applies the migrations not applied yet, in one transaction on `connection`. Servers
    /// starting at the same moment serialise on an advisory lock, so each migration runs once.
    static func migrate(on connection: PostgresConnection, logger: Logger) async throws {
        func run(_ query: PostgresQuery) async throws -> [PostgresRow] {
            try await connection.query(query, logger: logger).collect()
        }
        _ = try await run("BEGIN")
        do {
            _ = try await run("SELECT pg_advisory_xact_lock(\(migrationLock))")
            _ = try await run(
                "CREATE TABLE IF NOT EXISTS schemaMigrations (name text PRIMARY KEY, appliedAt timestamptz NOT NULL DEFAULT now())"
            )
            let applied = Set(try await run("SELECT name FROM schemaMigrations").map { try $0.decode(String.self) })
            for migration in migrations where !applied.contains(migration.name) {
                // One statement per query (the extended protocol takes one); no literal holds a ';'.
                for statement in migration.sql.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
                    _ = try await run(PostgresQuery(unsafeSQL: String(statement)))
                }
                _ = try await run("INSERT INTO schemaMigrations (name) VALUES (\(migration.name))")
            }
            _ = try await run("COMMIT")
        } catch {
            // The migration's error is the one to report; a failed ROLLBACK ends with the connection.
            _ = try? await run("ROLLBACK")
            throw error
        }
    }

    /// The advisory lock key migrations hold ("swipedeck" in ASCII, truncated to 63 bits).
    static let migrationLock: Int64 = 0x7377_6970_6564_6563
}
