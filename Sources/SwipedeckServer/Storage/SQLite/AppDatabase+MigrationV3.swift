import GRDB

extension AppDatabase {
    /// Migration v3: owners and their sessions and API tokens; deck settings and ownership; card
    /// revisions and archiving; signed participants (ids stored before are kept as `legacy`);
    /// per-swipe card revision and suspect reason; exclusions and deck changes as events; images.
    static func ownersAndTrust(_ db: Database) throws {
        try db.create(table: "owners") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull().unique()
            t.column("passwordHash", .text).notNull()
            t.column("createdAt", .double).notNull()
        }
        // A session is known by the SHA-256 of its cookie token; signing out sets endedAt.
        try db.create(table: "ownerSessions") { t in
            t.primaryKey("tokenHash", .text)
            t.belongsTo("owner", onDelete: .restrict).notNull()
            t.column("createdAt", .double).notNull()
            t.column("expiresAt", .double).notNull()
            t.column("endedAt", .double)
        }
        try db.create(table: "apiTokens") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("owner", onDelete: .restrict).notNull()
            t.column("name", .text).notNull()
            t.column("tokenHash", .text).notNull().unique()
            t.column("prefix", .text).notNull()
            t.column("createdAt", .double).notNull()
            t.column("revokedAt", .double)
        }
        try db.alter(table: "decks") { t in
            t.add(column: "ownerId", .integer).references("owners", onDelete: .restrict)
            t.add(column: "isOpen", .boolean).notNull().defaults(to: true)
            t.add(column: "resultsPublic", .boolean).notNull().defaults(to: false)
            t.add(column: "quota", .integer)
            t.add(column: "cardOrder", .text).notNull().defaults(to: "listed")
            t.add(column: "countedInputs", .text).notNull().defaults(to: "drag,button")
            t.add(column: "revision", .integer).notNull().defaults(to: 1)
        }
        try db.create(index: "decks_by_owner", on: "decks", columns: ["ownerId"])
        try db.alter(table: "cards") { t in
            t.add(column: "revision", .integer).notNull().defaults(to: 1)
            t.add(column: "archivedAt", .double)
        }
        // Every version of every card, the current one included: a swipe names the revision it judged.
        try db.create(table: "cardRevisions") { t in
            t.belongsTo("card", onDelete: .restrict).notNull()
            t.column("revision", .integer).notNull()
            t.column("title", .text).notNull()
            t.column("subtitle", .text).notNull()
            t.column("body", .text).notNull()
            t.column("image", .text).notNull()
            t.column("link", .text).notNull()
            t.column("accent", .text).notNull()
            t.column("createdAt", .double).notNull()
            t.primaryKey(["cardId", "revision"])
        }
        try db.execute(
            sql: """
                INSERT INTO cardRevisions (cardId, revision, title, subtitle, body, image, link, accent, createdAt)
                SELECT c.id, 1, c.title, c.subtitle, c.body, c.image, c.link, c.accent, d.createdAt
                FROM cards c JOIN decks d ON d.id = c.deckId
                """)
        try db.alter(table: "participants") { t in
            // Ids from before signing: accepted as they are, never minted again.
            t.add(column: "legacy", .boolean).notNull().defaults(to: false)
        }
        try db.execute(sql: "UPDATE participants SET legacy = 1")
        try db.alter(table: "swipes") { t in
            t.add(column: "cardRevision", .integer)
            t.add(column: "suspectReason", .text)
        }
        try db.execute(sql: "UPDATE swipes SET cardRevision = 1")
        try db.execute(sql: "UPDATE swipes SET suspectReason = 'machine_like_trace' WHERE suspect = 1")
        // An owner leaves a participant's swipes out of the results; lifting it is another event.
        try db.create(table: "exclusions") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("deck", onDelete: .restrict).notNull()
            t.column("participantId", .text).notNull()
            t.column("reason", .text).notNull().defaults(to: "")
            t.column("createdAt", .double).notNull()
            t.column("liftedAt", .double)
        }
        try db.create(index: "exclusions_by_deck", on: "exclusions", columns: ["deckId", "liftedAt"])
        // Settings changes and card edits, archives and moves, as a log (what changed, by whom, when).
        try db.create(table: "deckEvents") { t in
            t.autoIncrementedPrimaryKey("id")
            t.belongsTo("deck", onDelete: .restrict).notNull()
            t.column("ownerId", .integer)
            t.column("kind", .text).notNull()
            t.column("detail", .text).notNull()
            t.column("createdAt", .double).notNull()
        }
        try db.create(table: "images") { t in
            t.primaryKey("hash", .text)
            t.column("contentType", .text).notNull()
            t.column("bytes", .integer).notNull()
            t.column("width", .integer).notNull()
            t.column("height", .integer).notNull()
            t.column("ownerId", .integer)
            t.column("createdAt", .double).notNull()
        }
    }
}
