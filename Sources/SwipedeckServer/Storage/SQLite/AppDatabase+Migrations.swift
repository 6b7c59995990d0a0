import GRDB

extension AppDatabase {
    /// Append-only: never edit a registered migration, add a new one.
    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1") { db in
            try db.create(table: "settings") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
            try db.create(table: "decks") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("slug", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("description", .text).notNull().defaults(to: "")
                t.column("profile", .text).notNull()
                t.column("allowButtons", .boolean).notNull().defaults(to: true)
                t.column("leftLabel", .text).notNull().defaults(to: "NOPE")
                t.column("rightLabel", .text).notNull().defaults(to: "LIKE")
                t.column("upLabel", .text).notNull().defaults(to: "SUPER")
                t.column("downLabel", .text).notNull().defaults(to: "LATER")
                t.column("createdAt", .double).notNull()
            }
            try db.create(table: "cards") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("deck", onDelete: .restrict).notNull()
                t.column("position", .integer).notNull()
                t.column("title", .text).notNull()
                t.column("subtitle", .text).notNull().defaults(to: "")
                t.column("body", .text).notNull().defaults(to: "")
                t.column("image", .text).notNull().defaults(to: "")
                t.column("link", .text).notNull().defaults(to: "")
                t.column("accent", .text).notNull().defaults(to: "#6C5CE7")
            }
            try db.create(index: "cards_by_deck_position", on: "cards", columns: ["deckId", "position"])
            try db.create(table: "participants") { t in
                t.primaryKey("id", .text)
                t.column("kind", .text).notNull()
                t.column("createdAt", .double).notNull()
            }
            try db.create(table: "swipes") { t in
                t.primaryKey("id", .text)  // the Idempotency-Key
                t.belongsTo("deck", onDelete: .restrict).notNull()
                t.belongsTo("card", onDelete: .restrict).notNull()
                t.column("participantId", .text).notNull().references("participants", onDelete: .restrict)
                t.column("direction", .text).notNull()
                t.column("input", .text).notNull()
                t.column("trace", .text)
                t.column("velocityX", .double)
                t.column("velocityY", .double)
                t.column("durationMs", .double)
                t.column("decisionMs", .double)
                t.column("suspect", .boolean).notNull().defaults(to: false)
                t.column("requestHash", .text).notNull()
                t.column("createdAt", .double).notNull()
                t.column("undoneAt", .double)
            }
            // One live swipe per participant and card.
            try db.execute(
                sql: """
                    CREATE UNIQUE INDEX swipes_live_once ON swipes(participantId, cardId) WHERE undoneAt IS NULL
                    """)
            try db.create(
                index: "swipes_by_deck", on: "swipes",
                columns: ["deckId", "undoneAt", "suspect", "cardId", "direction"])
            try db.create(
                index: "swipes_by_participant", on: "swipes", columns: ["participantId", "deckId", "createdAt"])
            try db.create(index: "swipes_by_deck_participant", on: "swipes", columns: ["deckId", "participantId"])
            try db.create(index: "swipes_by_decision_time", on: "swipes", columns: ["deckId", "decisionMs"])
            try db.create(table: "rejections") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("deck", onDelete: .restrict).notNull()
                t.column("cardId", .integer)
                t.column("participantId", .text)
                t.column("code", .text).notNull()
                t.column("createdAt", .double).notNull()
            }
            try db.create(index: "rejections_by_deck", on: "rejections", columns: ["deckId", "code"])
            // A flip changes a decision; the original row keeps its first direction here.
            try db.create(table: "flips") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("swipeId", .text).notNull().references("swipes", onDelete: .restrict)
                t.column("fromDirection", .text).notNull()
                t.column("toDirection", .text).notNull()
                t.column("createdAt", .double).notNull()
            }
        }
        // The results page reads a deck's live, non-suspect swipes three ways: counts per card and
        // direction (swipes_by_deck), distinct participants, and decision times (count, median).
        // Covering indexes make the last two index-only scans (about 10 ms instead of 650 ms for
        // 100,000 swipes); the (deckId, decisionMs) index they replace could not skip undone rows.
        // `suspect` comes before `undoneAt` on purpose: a query that does not constrain `suspect`
        // (the deck page's "cards this participant has not swiped") must not find a (deckId,
        // undoneAt) prefix here and prefer it to swipes_by_deck_participant (it did: 100x slower).
        m.registerMigration("v2-results-indexes") { db in
            try db.create(
                index: "swipes_results_participants", on: "swipes",
                columns: ["deckId", "suspect", "undoneAt", "participantId"])
            try db.create(
                index: "swipes_results_timing", on: "swipes", columns: ["deckId", "suspect", "undoneAt", "decisionMs"])
            try db.drop(index: "swipes_by_decision_time")
        }
        m.registerMigration("v3-owners-and-trust", migrate: Self.ownersAndTrust)
        m.registerMigration("v4-compact-and-aggregate", migrate: Self.compactAndAggregate)
        // A card's images after its cover (the detail page's gallery), as a JSON array of
        // strings; every revision keeps its own list.
        m.registerMigration("v5-card-galleries") { db in
            try db.alter(table: "cards") { t in t.add(column: "moreImages", .text).notNull().defaults(to: "[]") }
            try db.alter(table: "cardRevisions") { t in t.add(column: "moreImages", .text).notNull().defaults(to: "[]")
            }
        }
        // The admin token is kept as its SHA-256 only: a stored plaintext token (key `adminToken`)
        // becomes its hash under `adminTokenHash` (PostgreSQL's v2 does the same).
        m.registerMigration("v6-admin-token-hash") { db in
            let legacy = AdminToken.legacySettingKey
            if let token = try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [legacy])
            {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)",
                    arguments: [AdminToken.settingKey, Secret.sha256(token)])
                try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [legacy])
            }
        }
        // Where and when each participant joined a deck (their first decision's client network),
        // for `LockstepClusters`; participants from before have no row and are never compared.
        m.registerMigration("v7-participant-origins") { db in
            try db.execute(
                sql: """
                    CREATE TABLE participantOrigins (
                        deckId INTEGER NOT NULL, participantId TEXT NOT NULL, network TEXT NOT NULL, joinedAt REAL NOT NULL,
                        PRIMARY KEY (deckId, participantId)) WITHOUT ROWID;
                    CREATE INDEX participantOrigins_by_network ON participantOrigins(deckId, network);
                    """)
        }
        // Who may vote on a deck (`DeckAccessMode`), its access secret, a per-deck join limit, and
        // the one-time codes of `codes` decks.
        m.registerMigration("v8-deck-access") { db in
            try db.execute(
                sql: """
                    ALTER TABLE decks ADD COLUMN access TEXT NOT NULL DEFAULT 'link';
                    ALTER TABLE decks ADD COLUMN accessSecret TEXT NOT NULL DEFAULT '';
                    ALTER TABLE decks ADD COLUMN joinLimit INTEGER;
                    CREATE TABLE accessCodes (
                        deckId INTEGER NOT NULL, code TEXT NOT NULL, createdAt REAL NOT NULL, PRIMARY KEY (deckId, code)) WITHOUT ROWID;
                    """)
        }
        // Whether the front page lists a deck (`Deck.listed`); every deck made before is listed.
        m.registerMigration("v9-deck-listed") { db in
            try db.execute(sql: "ALTER TABLE decks ADD COLUMN listed BOOLEAN NOT NULL DEFAULT 1")
        }
        // Match rooms (`RoomStore`): rooms, their members, live and revoked matches, and the event
        // log every server reads by id; the deck setting `rooms` (decks made before: off).
        m.registerMigration("v10-rooms") { db in
            try db.execute(
                sql: """
                    ALTER TABLE decks ADD COLUMN rooms BOOLEAN NOT NULL DEFAULT 0;
                    CREATE TABLE rooms (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL UNIQUE,
                        deckId INTEGER NOT NULL REFERENCES decks(id), ruleKind TEXT NOT NULL, ruleValue INTEGER NOT NULL,
                        endOnFirstMatch BOOLEAN NOT NULL, maxMatches INTEGER, likedFirst BOOLEAN NOT NULL,
                        maxMembers INTEGER NOT NULL, createdAt REAL NOT NULL, expiresAt REAL NOT NULL,
                        round INTEGER NOT NULL, roundCards TEXT, roundStartedAt REAL NOT NULL, finishedAt REAL);
                    CREATE INDEX rooms_by_deck ON rooms(deckId);
                    CREATE TABLE roomMembers (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, roomId INTEGER NOT NULL REFERENCES rooms(id),
                        participantId TEXT NOT NULL, name TEXT NOT NULL, joinedAt REAL NOT NULL, leftAt REAL,
                        decided INTEGER NOT NULL, UNIQUE (roomId, participantId));
                    CREATE INDEX roomMembers_by_participant ON roomMembers(participantId);
                    CREATE TABLE roomMatches (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, roomId INTEGER NOT NULL REFERENCES rooms(id),
                        cardId INTEGER NOT NULL, at REAL NOT NULL, likedBy TEXT NOT NULL, revokedAt REAL);
                    CREATE INDEX roomMatches_by_room ON roomMatches(roomId, cardId);
                    CREATE TABLE roomEvents (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, roomId INTEGER NOT NULL REFERENCES rooms(id),
                        kind TEXT NOT NULL, data TEXT NOT NULL, at REAL NOT NULL);
                    CREATE INDEX roomEvents_by_room ON roomEvents(roomId, id);
                    """)
        }
        // A deck's stop rule (`StopRule` as JSON; '{}' is no rule), and deck events recorded once
        // (`onceKey`: a card decided, the deck decided), even with two servers.
        m.registerMigration("v11-stop-rules") { db in
            try db.execute(
                sql: """
                    ALTER TABLE decks ADD COLUMN stopRule TEXT NOT NULL DEFAULT '{}';
                    ALTER TABLE deckEvents ADD COLUMN onceKey TEXT;
                    CREATE UNIQUE INDEX deckEvents_once ON deckEvents(deckId, onceKey) WHERE onceKey IS NOT NULL;
                    """)
        }
        // Known-answer cards (`NewCard.answer`, a `Decision`'s raw value) and a deck's quality
        // control (`NewDeck.quality`, `QualitySettings` as JSON; NULL reads as the defaults).
        m.registerMigration("v12-known-answers") { db in
            try db.execute(
                sql: """
                    ALTER TABLE cards ADD COLUMN answer TEXT;
                    ALTER TABLE decks ADD COLUMN quality TEXT;
                    """)
        }
        // Webhooks (`WebhookStore`): an owner's subscriptions, and the outbox of their deliveries,
        // stored before they are sent and leased to one sender at a time.
        m.registerMigration("v13-webhooks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE webhooks (
                        id INTEGER PRIMARY KEY AUTOINCREMENT, deckId INTEGER NOT NULL REFERENCES decks(id) ON DELETE RESTRICT,
                        url TEXT NOT NULL, events TEXT NOT NULL, secret TEXT NOT NULL, createdBy INTEGER, createdAt REAL NOT NULL,
                        disabledAt REAL);
                    CREATE INDEX webhooks_by_deck ON webhooks(deckId);
                    CREATE TABLE webhookDeliveries (
                        id TEXT PRIMARY KEY, hookId INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE RESTRICT,
                        deckId INTEGER NOT NULL, event TEXT NOT NULL, at REAL NOT NULL, data TEXT NOT NULL,
                        status TEXT NOT NULL, attempts INTEGER NOT NULL, createdAt REAL NOT NULL, dueAt REAL NOT NULL,
                        nextAttemptAt REAL NOT NULL, leaseUntil REAL, leaseToken TEXT, lastAttemptAt REAL, lastStatus INTEGER,
                        lastError TEXT, deliveredAt REAL);
                    CREATE INDEX webhookDeliveries_due ON webhookDeliveries(status, nextAttemptAt);
                    CREATE INDEX webhookDeliveries_by_hook ON webhookDeliveries(hookId, event, dueAt);
                    """)
        }
        // The replay guard of join puzzles (`JoinPuzzleStore`): a solved puzzle's salt until the
        // puzzle expires (its rows are swept after that: they are no record of anything).
        m.registerMigration("v14-solved-puzzles") { db in
            try db.execute(
                sql: """
                    CREATE TABLE solvedPuzzles (salt TEXT PRIMARY KEY, expiresAt REAL NOT NULL) WITHOUT ROWID;
                    """)
        }
        // Decks on a big screen (`PresentationStore`): one row per deck, its join code unique.
        m.registerMigration("v15-presentations") { db in
            try db.execute(
                sql: """
                    CREATE TABLE presentations (
                        deckId INTEGER PRIMARY KEY REFERENCES decks(id),
                        joinCode TEXT NOT NULL UNIQUE,
                        revealed INTEGER NOT NULL DEFAULT 0,
                        createdAt REAL NOT NULL,
                        updatedAt REAL NOT NULL);
                    """)
        }
        // A big screen's reveal timer (`Presentation.revealAt`).
        m.registerMigration("v16-reveal-timer") { db in
            try db.execute(sql: "ALTER TABLE presentations ADD COLUMN revealAt REAL")
        }
        // A host-paced deck (`Presentation.pacing`): the presenter's card, step, its timer's end and
        // the timer each "Next" starts.
        m.registerMigration("v17-host-pace") { db in
            try db.execute(
                sql: """
                    ALTER TABLE presentations ADD COLUMN hosted INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE presentations ADD COLUMN pacedCard INTEGER;
                    ALTER TABLE presentations ADD COLUMN pacedStep INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE presentations ADD COLUMN cardClosesAt REAL;
                    ALTER TABLE presentations ADD COLUMN cardSeconds INTEGER;
                    """)
        }
        // A deck's presenter link (`PresenterLink`): its generation and whether it works; the key is
        // derived from the server's secret key, never stored.
        m.registerMigration("v18-presenter-link") { db in
            try db.execute(
                sql: """
                    ALTER TABLE presentations ADD COLUMN presenterGeneration INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE presentations ADD COLUMN presenterActive INTEGER NOT NULL DEFAULT 0;
                    """)
        }
        return m
    }
}
