import Foundation
import GRDB

extension AppDatabase {
    /// See `RoomStore.createRoom`: the room, its first member and event in one transaction.
    public func createRoom(
        deckId: Int64, code: String, settings: RoomSettings, participant: String, name: String, now: Double
    ) async throws -> Room? {
        do {
            return try await writer.write { db -> Room in
                try db.execute(
                    sql: """
                        INSERT INTO rooms (code, deckId, ruleKind, ruleValue, endOnFirstMatch, maxMatches, likedFirst,
                                           maxMembers, createdAt, expiresAt, round, roundCards, roundStartedAt, finishedAt)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, NULL, ?, NULL)
                        """,
                    arguments: [
                        code, deckId, settings.rule.kind, settings.rule.value, settings.endOnFirstMatch,
                        settings.maxMatches, settings.likedFirst, settings.maxMembers, now,
                        now + Double(settings.expiresInHours) * 3600, now,
                    ])
                let roomId = db.lastInsertedRowID
                let member = try Self.addMember(db, roomId: roomId, participant: participant, name: name, now: now)
                try Self.appendEvent(
                    db, roomId: roomId, kind: .member, data: RoomEventData.member(member, "joined"), now: now)
                return try Self.room(db, sql: "SELECT * FROM rooms WHERE id = ?", roomId)!
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            return nil
        }
    }

    /// See `RoomStore.room`.
    public func room(code: String) async throws -> Room? {
        try await writer.read { db in try Self.room(db, sql: "SELECT * FROM rooms WHERE code = ?", code) }
    }

    /// See `RoomStore.joinRoom`: the cap is checked in the transaction that adds the member.
    public func joinRoom(roomId: Int64, participant: String, name: String?, now: Double) async throws -> RoomJoin {
        let join = try await writer.write { db -> RoomJoin in
            guard let room = try Self.room(db, sql: "SELECT * FROM rooms WHERE id = ?", roomId) else { return .full }
            let members = try Self.members(db, roomId: roomId)
            if let m = members.first(where: { $0.participant == participant }), m.leftAt == nil { return .already(m) }
            if members.filter({ $0.leftAt == nil }).count >= room.settings.maxMembers { return .full }
            let member: RoomMember
            if let old = members.first(where: { $0.participant == participant }) {
                try db.execute(
                    sql: "UPDATE roomMembers SET leftAt = NULL, name = ?, joinedAt = ? WHERE id = ?",
                    arguments: [name ?? old.name, now, old.id])
                member = try Self.members(db, roomId: roomId).first { $0.id == old.id }!
            } else {
                member = try Self.addMember(
                    db, roomId: roomId, participant: participant, name: name ?? "Member \(members.count + 1)", now: now)
            }
            try Self.appendEvent(
                db, roomId: roomId, kind: .member, data: RoomEventData.member(member, "joined"), now: now)
            return .joined(member)
        }
        return join
    }

    /// See `RoomStore.leaveRoom`.
    public func leaveRoom(roomId: Int64, participant: String, now: Double) async throws -> Bool {
        try await writer.write { db -> Bool in
            guard
                var member = try Self.members(db, roomId: roomId).first(where: {
                    $0.participant == participant && $0.leftAt == nil
                })
            else { return false }
            try db.execute(sql: "UPDATE roomMembers SET leftAt = ? WHERE id = ?", arguments: [now, member.id])
            member.leftAt = now
            try Self.appendEvent(
                db, roomId: roomId, kind: .member, data: RoomEventData.member(member, "left"), now: now)
            return true
        }
    }

    /// See `RoomStore.roomSnapshot`.
    public func roomSnapshot(roomId: Int64) async throws -> RoomSnapshot {
        try await writer.read { db in try Self.snapshot(db, roomId: roomId) }
    }

    /// See `RoomStore.roomMatches`.
    public func roomMatches(roomId: Int64) async throws -> [RoomMatching.Match] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT cardId, at, likedBy FROM roomMatches WHERE roomId = ? AND revokedAt IS NULL ORDER BY at, id",
                arguments: [roomId]
            ).map { RoomMatching.Match(card: $0["cardId"], at: $0["at"], likedBy: RoomEventData.ids($0["likedBy"])) }
        }
    }

    /// See `RoomStore.evaluateRoom`.
    public func evaluateRoom(roomId: Int64, now: Double) async throws -> [RoomEvent] {
        try await writer.write { db in try Self.evaluate(db, roomId: roomId, now: now) }
    }

    /// See `RoomStore.evaluateRooms`.
    public func evaluateRooms(roomIds: Set<Int64>, deciders: Set<RoomDecider>, now: Double) async throws
        -> [RoomEvaluated]
    {
        try await writer.write { db -> [RoomEvaluated] in
            var ids = roomIds
            for d in deciders {
                ids.formUnion(
                    try Int64.fetchAll(
                        db,
                        sql: """
                            SELECT r.id FROM rooms r JOIN roomMembers m ON m.roomId = r.id
                            WHERE m.participantId = ? AND m.leftAt IS NULL AND r.deckId = ? AND r.finishedAt IS NULL
                            """, arguments: [d.participant, d.deckId]))
            }
            var evaluated: [RoomEvaluated] = []
            for id in ids.sorted() {
                guard let room = try Self.room(db, sql: "SELECT * FROM rooms WHERE id = ?", id) else { continue }
                evaluated.append(RoomEvaluated(room: room, events: try Self.evaluate(db, roomId: id, now: now)))
            }
            return evaluated
        }
    }

    /// See `RoomStore.lastRoomEventId`.
    public func lastRoomEventId(roomId: Int64) async throws -> Int64 {
        try await writer.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM roomEvents WHERE roomId = ?", arguments: [roomId]) ?? 0
        }
    }

    /// See `RoomStore.isRoomMember`.
    public func isRoomMember(roomId: Int64, participant: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM roomMembers WHERE roomId = ? AND participantId = ? AND leftAt IS NULL)
                    """,
                arguments: [roomId, participant]) ?? false
        }
    }

    /// See `RoomStore.memberRooms`.
    public func memberRooms(deckId: Int64, participant: String) async throws -> [Room] {
        try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.* FROM rooms r JOIN roomMembers m ON m.roomId = r.id
                    WHERE m.participantId = ? AND m.leftAt IS NULL AND r.deckId = ? AND r.finishedAt IS NULL
                    """, arguments: [participant, deckId]
            ).map(Self.room(row:))
        }
    }

    /// See `RoomStore.roomEvents`.
    public func roomEvents(roomId: Int64, after: Int64, limit: Int) async throws -> [RoomEvent] {
        try await writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM roomEvents WHERE roomId = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [roomId, after, limit]
            ).map { r in
                RoomEvent(id: r["id"], kind: try RoomEvent.Kind(stored: r["kind"]), data: r["data"], at: r["at"])
            }
        }
    }

    /// See `RoomStore.startRound`.
    public func startRound(roomId: Int64, cards: [Int64], now: Double) async throws -> Bool {
        try await writer.write { db -> Bool in
            guard let room = try Self.room(db, sql: "SELECT * FROM rooms WHERE id = ?", roomId),
                room.finishedAt != nil, now < room.expiresAt, !cards.isEmpty,
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM roomMatches WHERE roomId = ? AND revokedAt IS NULL",
                    arguments: [roomId]) == 0
            else { return false }
            try db.execute(
                sql: """
                    UPDATE rooms SET round = round + 1, roundCards = ?, roundStartedAt = ?, finishedAt = NULL WHERE id = ?
                    """, arguments: [RoomEventData.list(cards), now, roomId])
            try db.execute(sql: "UPDATE roomMembers SET decided = 0 WHERE roomId = ?", arguments: [roomId])
            try Self.appendEvent(
                db, roomId: roomId, kind: .round, data: RoomEventData.round(room.round + 1, cards), now: now)
            return true
        }
    }

    /// See `RoomStore.roomMatchCounts`.
    public func roomMatchCounts(deckId: Int64) async throws -> [Int64: Int] {
        try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT m.cardId, COUNT(DISTINCT m.roomId) AS n FROM roomMatches m JOIN rooms r ON r.id = m.roomId
                    WHERE r.deckId = ? AND m.revokedAt IS NULL GROUP BY m.cardId
                    """, arguments: [deckId])
            return Dictionary(
                uniqueKeysWithValues: rows.map { (row: Row) -> (Int64, Int) in (row["cardId"], row["n"]) })
        }
    }

    /// See `RoomStore.roomParticipants`.
    public func roomParticipants(roomId: Int64) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT participantId FROM roomMembers WHERE roomId = ? ORDER BY id", arguments: [roomId])
        }
    }

    // MARK: - In a transaction

    static func room(_ db: Database, sql: String, _ argument: any DatabaseValueConvertible) throws -> Room? {
        try Row.fetchOne(db, sql: sql, arguments: [argument]).map(room(row:))
    }

    static func room(row r: Row) -> Room {
        var settings = RoomSettings()
        settings.rule = RoomRule(kind: r["ruleKind"], value: r["ruleValue"]) ?? .all
        settings.endOnFirstMatch = r["endOnFirstMatch"]
        settings.maxMatches = r["maxMatches"]
        settings.likedFirst = r["likedFirst"]
        settings.maxMembers = r["maxMembers"]
        let created: Double = r["createdAt"]
        let expires: Double = r["expiresAt"]
        settings.expiresInHours = Int(((expires - created) / 3600).rounded())
        return Room(
            id: r["id"], code: r["code"], deckId: r["deckId"], settings: settings, createdAt: created,
            expiresAt: expires, round: r["round"], roundCards: (r["roundCards"] as String?).map(RoomEventData.ids),
            roundStartedAt: r["roundStartedAt"], finishedAt: r["finishedAt"])
    }

    static func members(_ db: Database, roomId: Int64) throws -> [RoomMember] {
        try Row.fetchAll(db, sql: "SELECT * FROM roomMembers WHERE roomId = ? ORDER BY id", arguments: [roomId]).map {
            RoomMember(
                id: $0["id"], participant: $0["participantId"], name: $0["name"], joinedAt: $0["joinedAt"],
                leftAt: $0["leftAt"], decided: $0["decided"])
        }
    }

    static func addMember(_ db: Database, roomId: Int64, participant: String, name: String, now: Double) throws
        -> RoomMember
    {
        try db.execute(
            sql:
                "INSERT INTO roomMembers (roomId, participantId, name, joinedAt, leftAt, decided) VALUES (?, ?, ?, ?, NULL, 0)",
            arguments: [roomId, participant, name, now])
        return RoomMember(
            id: db.lastInsertedRowID, participant: participant, name: name, joinedAt: now, leftAt: nil, decided: 0)
    }

    @discardableResult
    static func appendEvent(_ db: Database, roomId: Int64, kind: RoomEvent.Kind, data: String, now: Double) throws
        -> RoomEvent
    {
        try db.execute(
            sql: "INSERT INTO roomEvents (roomId, kind, data, at) VALUES (?, ?, ?, ?)",
            arguments: [roomId, kind.rawValue, data, now])
        return RoomEvent(id: db.lastInsertedRowID, kind: kind, data: data, at: now)
    }

    static func snapshot(_ db: Database, roomId: Int64) throws -> RoomSnapshot {
        guard let room = try Self.room(db, sql: "SELECT * FROM rooms WHERE id = ?", roomId) else {
            throw StoreError.notFound(.room)
        }
        let members = try Self.members(db, roomId: roomId)
        let cards =
            try room.roundCards
            ?? room.order(
                Int64.fetchAll(
                    db, sql: "SELECT id FROM cards WHERE deckId = ? AND archivedAt IS NULL", arguments: [room.deckId]))
        let matches = try Row.fetchAll(
            db, sql: "SELECT cardId, at, likedBy FROM roomMatches WHERE roomId = ? AND revokedAt IS NULL",
            arguments: [roomId])
        // Members first (CROSS JOIN fixes SQLite's join order): each member's swipes by
        // `swipes_by_participant`. Left to itself, the planner without statistics read every
        // swipe of the deck by `swipes_by_deck_time`, so an evaluation grew with the deck.
        let swipes = try Row.fetchAll(
            db,
            sql: """
                SELECT s.participantId, s.cardId, s.direction FROM roomMembers m
                CROSS JOIN swipes s ON s.participantId = m.participantId AND s.deckId = ? AND s.undoneAt IS NULL
                                   AND s.createdAt >= ?
                WHERE m.roomId = ? AND m.leftAt IS NULL
                """, arguments: [room.deckId, room.roundStartedAt, roomId])
        return RoomSnapshot(
            room: room, members: members, cards: cards,
            matches: Dictionary(
                uniqueKeysWithValues: matches.map { (row: Row) -> (Int64, Double) in (row["cardId"], row["at"]) }),
            swipes: swipes.map { (row: Row) -> (participant: String, card: Int64, like: Bool) in
                (participant: row["participantId"], card: row["cardId"], like: ResultsReport.isLike(row["direction"]))
            },
            likedBy: Dictionary(
                uniqueKeysWithValues: matches.map { (row: Row) -> (Int64, [Int64]) in
                    (row["cardId"], RoomEventData.ids(row["likedBy"]))
                }))
    }

    /// Evaluates the room and stores what changed (`RoomEvaluation`), in the caller's transaction.
    @discardableResult
    static func evaluate(_ db: Database, roomId: Int64, now: Double) throws -> [RoomEvent] {
        let snapshot = try snapshot(db, roomId: roomId)
        let update = RoomEvaluation.update(snapshot, now: now)
        for (member, n) in update.decided {
            try db.execute(sql: "UPDATE roomMembers SET decided = ? WHERE id = ?", arguments: [n, member])
        }
        for card in update.revoked {
            try db.execute(
                sql: "UPDATE roomMatches SET revokedAt = ? WHERE roomId = ? AND cardId = ? AND revokedAt IS NULL",
                arguments: [now, roomId, card])
        }
        for m in update.added {
            try db.execute(
                sql: "INSERT INTO roomMatches (roomId, cardId, at, likedBy, revokedAt) VALUES (?, ?, ?, ?, NULL)",
                arguments: [roomId, m.card, m.at, RoomEventData.list(m.likedBy)])
        }
        if let finished = update.finishedAt {
            try db.execute(sql: "UPDATE rooms SET finishedAt = ? WHERE id = ?", arguments: [finished, roomId])
        }
        return try update.events.map { try appendEvent(db, roomId: roomId, kind: $0.kind, data: $0.data, now: now) }
    }
}
