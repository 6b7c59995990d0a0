/// One table as `swipedeck copy` moves it: the columns both engines' schemas have, with the
/// type each value is read and written as, and the key that pages through it.
public struct CopyTable: Sendable {
    /// The type of a column on both engines (SQLite stores booleans as integers).
    public enum Kind: Sendable { case int, double, text, blob, bool }

    public var name: String
    public var columns: [(name: String, kind: Kind)]
    /// Columns (among `columns`) ordering the rows and paging through them; empty for `swipes`,
    /// which is read in storage order (SQLite's rowid, PostgreSQL's seq) so that order survives.
    public var key: [String]
    /// Whether `id` comes from a sequence PostgreSQL must move past the copied ids.
    public var serialId: Bool

    init(_ name: String, key: [String], serialId: Bool = false, _ columns: [(String, Kind)]) {
        self.name = name
        self.key = key
        self.serialId = serialId
        self.columns = columns.map { (name: $0.0, kind: $0.1) }
    }

    /// Every table, parents before children (foreign keys hold at every step). Migration
    /// bookkeeping (GRDB's, `schemaMigrations`) is each engine's own and is not copied.
    public static let all: [CopyTable] = [
        CopyTable("settings", key: ["key"], [("key", .text), ("value", .text)]),
        CopyTable(
            "owners", key: ["id"], serialId: true,
            [("id", .int), ("name", .text), ("passwordHash", .text), ("createdAt", .double)]),
        CopyTable(
            "decks", key: ["id"], serialId: true,
            [
                ("id", .int), ("slug", .text), ("title", .text), ("description", .text), ("profile", .text),
                ("allowButtons", .bool),
                ("leftLabel", .text), ("rightLabel", .text), ("upLabel", .text), ("downLabel", .text),
                ("createdAt", .double),
                ("ownerId", .int), ("isOpen", .bool), ("resultsPublic", .bool), ("quota", .int), ("cardOrder", .text),
                ("countedInputs", .text), ("revision", .int), ("access", .text), ("accessSecret", .text),
                ("joinLimit", .int),
                ("listed", .bool), ("rooms", .bool), ("stopRule", .text), ("quality", .text),
            ]),
        CopyTable(
            "cards", key: ["id"], serialId: true,
            [
                ("id", .int), ("deckId", .int), ("position", .int), ("title", .text), ("subtitle", .text),
                ("body", .text), ("image", .text),
                ("link", .text), ("accent", .text), ("revision", .int), ("archivedAt", .double), ("moreImages", .text),
                ("answer", .text),
            ]),
        CopyTable(
            "cardRevisions", key: ["cardId", "revision"],
            [
                ("cardId", .int), ("revision", .int), ("title", .text), ("subtitle", .text), ("body", .text),
                ("image", .text),
                ("link", .text), ("accent", .text), ("createdAt", .double), ("moreImages", .text),
            ]),
        CopyTable(
            "participants", key: ["id"], [("id", .text), ("kind", .text), ("createdAt", .double), ("legacy", .bool)]),
        CopyTable(
            "swipes", key: [],
            [
                ("id", .text), ("deckId", .int), ("cardId", .int), ("participantId", .text), ("direction", .text),
                ("input", .text),
                ("trace", .text), ("velocityX", .double), ("velocityY", .double), ("durationMs", .double),
                ("decisionMs", .double),
                ("suspect", .bool), ("requestHash", .text), ("createdAt", .double), ("undoneAt", .double),
                ("cardRevision", .int),
                ("suspectReason", .text), ("traceData", .blob),
            ]),
        CopyTable(
            "rejections", key: ["id"], serialId: true,
            [
                ("id", .int), ("deckId", .int), ("cardId", .int), ("participantId", .text), ("code", .text),
                ("createdAt", .double),
            ]),
        CopyTable(
            "flips", key: ["id"], serialId: true,
            [
                ("id", .int), ("swipeId", .text), ("fromDirection", .text), ("toDirection", .text),
                ("createdAt", .double),
            ]),
        CopyTable(
            "ownerSessions", key: ["tokenHash"],
            [
                ("tokenHash", .text), ("ownerId", .int), ("createdAt", .double), ("expiresAt", .double),
                ("endedAt", .double),
            ]),
        CopyTable(
            "apiTokens", key: ["id"], serialId: true,
            [
                ("id", .int), ("ownerId", .int), ("name", .text), ("tokenHash", .text), ("prefix", .text),
                ("createdAt", .double),
                ("revokedAt", .double),
            ]),
        CopyTable(
            "exclusions", key: ["id"], serialId: true,
            [
                ("id", .int), ("deckId", .int), ("participantId", .text), ("reason", .text), ("createdAt", .double),
                ("liftedAt", .double),
            ]),
        CopyTable(
            "deckEvents", key: ["id"], serialId: true,
            [
                ("id", .int), ("deckId", .int), ("ownerId", .int), ("kind", .text), ("detail", .text),
                ("createdAt", .double), ("onceKey", .text),
            ]),
        CopyTable(
            "images", key: ["hash"],
            [
                ("hash", .text), ("contentType", .text), ("bytes", .int), ("width", .int), ("height", .int),
                ("ownerId", .int),
                ("createdAt", .double),
            ]),
        CopyTable(
            "swipeTallies", key: ["deckId", "outOfResults", "cardId", "kind", "direction"],
            [
                ("deckId", .int), ("outOfResults", .bool), ("cardId", .int), ("kind", .int), ("direction", .text),
                ("n", .int),
            ]),
        CopyTable(
            "deckParticipants", key: ["deckId", "participantId"],
            [
                ("deckId", .int), ("participantId", .text), ("excluded", .bool), ("k0", .int), ("k1", .int),
                ("k2", .int), ("k3", .int),
                ("k4", .int),
            ]),
        CopyTable(
            "participantMasks", key: ["deckId", "outOfResults", "mask"],
            [
                ("deckId", .int), ("outOfResults", .bool), ("mask", .int), ("n", .int),
            ]),
        CopyTable(
            "decisionBuckets", key: ["deckId", "kind", "bucket"],
            [("deckId", .int), ("kind", .int), ("bucket", .int), ("n", .int)]),
        CopyTable(
            "decisionTimes", key: ["deckId", "kind", "bucket", "decisionMs"],
            [
                ("deckId", .int), ("kind", .int), ("bucket", .int), ("decisionMs", .double), ("n", .int),
            ]),
        CopyTable(
            "participantOrigins", key: ["deckId", "participantId"],
            [
                ("deckId", .int), ("participantId", .text), ("network", .text), ("joinedAt", .double),
            ]),
        CopyTable(
            "accessCodes", key: ["deckId", "code"], [("deckId", .int), ("code", .text), ("createdAt", .double)]),
        CopyTable(
            "rooms", key: ["id"], serialId: true,
            [
                ("id", .int), ("code", .text), ("deckId", .int), ("ruleKind", .text), ("ruleValue", .int),
                ("endOnFirstMatch", .bool), ("maxMatches", .int), ("likedFirst", .bool), ("maxMembers", .int),
                ("createdAt", .double), ("expiresAt", .double), ("round", .int), ("roundCards", .text),
                ("roundStartedAt", .double), ("finishedAt", .double),
            ]),
        CopyTable(
            "roomMembers", key: ["id"], serialId: true,
            [
                ("id", .int), ("roomId", .int), ("participantId", .text), ("name", .text), ("joinedAt", .double),
                ("leftAt", .double), ("decided", .int),
            ]),
        CopyTable(
            "roomMatches", key: ["id"], serialId: true,
            [
                ("id", .int), ("roomId", .int), ("cardId", .int), ("at", .double), ("likedBy", .text),
                ("revokedAt", .double),
            ]),
        CopyTable(
            "roomEvents", key: ["id"], serialId: true,
            [("id", .int), ("roomId", .int), ("kind", .text), ("data", .text), ("at", .double)]),
        CopyTable(
            "webhooks", key: ["id"], serialId: true,
            [
                ("id", .int), ("deckId", .int), ("url", .text), ("events", .text), ("secret", .text),
                ("createdBy", .int),
                ("createdAt", .double), ("disabledAt", .double),
            ]),
        CopyTable(
            "webhookDeliveries", key: ["id"],
            [
                ("id", .text), ("hookId", .int), ("deckId", .int), ("event", .text), ("at", .double), ("data", .text),
                ("status", .text), ("attempts", .int), ("createdAt", .double), ("dueAt", .double),
                ("nextAttemptAt", .double), ("leaseUntil", .double), ("leaseToken", .text), ("lastAttemptAt", .double),
                ("lastStatus", .int), ("lastError", .text), ("deliveredAt", .double),
            ]),
        CopyTable(
            "presentations", key: ["deckId"],
            [
                ("deckId", .int), ("joinCode", .text), ("revealed", .bool), ("revealAt", .double),
                ("createdAt", .double), ("updatedAt", .double), ("hosted", .bool), ("pacedCard", .int),
                ("pacedStep", .int), ("cardClosesAt", .double), ("cardSeconds", .int),
                ("presenterGeneration", .int), ("presenterActive", .bool),
            ]),
    ]

    /// The column list for SQL.
    var columnList: String { columns.map(\.name).joined(separator: ", ") }

    /// The kinds of the key columns, in key order.
    var keyKinds: [Kind] { key.map { k in columns.first { $0.name == k }?.kind ?? .int } }
}
