import Foundation
import PostgresNIO

extension PostgresStore {
    /// See `RoomStore.createRoom`: the room, its first member and event in one transaction.
    public func createRoom(
        deckId: Int64, code: String, settings: RoomSettings, participant: String, name: String, now: Double
    ) async throws -> Room? {
        do {
            return try await transaction { connection -> Room in
                let roomId = try await value(
                    """
                    INSERT INTO rooms (code, deckId, ruleKind, ruleValue, endOnFirstMatch, maxMatches, likedFirst,
                                       maxMembers, createdAt, expiresAt, round, roundCards, roundStartedAt, finishedAt)
                    VALUES (\(code), \(deckId), \(settings.rule.kind), \(settings.rule.value), \(settings.endOnFirstMatch),
                            \(settings.maxMatches), \(settings.likedFirst), \(settings.maxMembers), \(now),
                            \(now + Double(settings.expiresInHours) * 3600), 1, NULL, \(now), NULL)
                    RETURNING id
                    """, on: connection, as: Int64.self)!
                let member = try await addMember(
                    roomId: roomId, participant: participant, name: name, now: now, on: connection)
                try await appendEvent(
                    roomId: roomId, kind: .member, data: RoomEventData.member(member, "joined"), now: now,
                    on: connection)
                return try await self.room(id: roomId, lock: false, on: connection)!
            }
        } catch let error where Self.isUniqueViolation(error) {
            return nil
        }
    }

    /// See `RoomStore.room`.
    public func room(code: String) async throws -> Room? {
        try await fetchOne("SELECT \(unescaped: Self.roomColumns) FROM rooms WHERE code = \(code)") {
            try Self.room(&$0)
        }
    }

    /// See `RoomStore.joinRoom`: the room row is locked, so the cap holds between servers.
    public func joinRoom(roomId: Int64, participant: String, name: String?, now: Double) async throws -> RoomJoin {
        try await transaction { connection -> RoomJoin in
            guard let room = try await self.room(id: roomId, lock: true, on: connection) else { return .full }
            let members = try await self.members(roomId: roomId, on: connection)
            if let m = members.first(where: { $0.participant == participant }), m.leftAt == nil {
                return .already(m)
            }
            if members.filter({ $0.leftAt == nil }).count >= room.settings.maxMembers { return .full }
            let member: RoomMember
            if var old = members.first(where: { $0.participant == participant }) {
                old.name = name ?? old.name
                old.joinedAt = now
                old.leftAt = nil
                try await execute(
                    "UPDATE roomMembers SET leftAt = NULL, name = \(old.name), joinedAt = \(now) WHERE id = \(old.id)",
                    on: connection)
                member = old
            } else {
                member = try await addMember(
                    roomId: roomId, participant: participant, name: name ?? "Member \(members.count + 1)", now: now,
                    on: connection)
            }
            try await appendEvent(
                roomId: roomId, kind: .member, data: RoomEventData.member(member, "joined"), now: now, on: connection)
            return .joined(member)
        }
    }

    /// See `RoomStore.leaveRoom`.
    public func leaveRoom(roomId: Int64, participant: String, now: Double) async throws -> Bool {
        try await transaction { connection -> Bool in
            guard try await room(id: roomId, lock: true, on: connection) != nil,
                var member = try await members(roomId: roomId, on: connection).first(where: {
                    $0.participant == participant && $0.leftAt == nil
                })
            else { return false }
            try await execute("UPDATE roomMembers SET leftAt = \(now) WHERE id = \(member.id)", on: connection)
            member.leftAt = now
            try await appendEvent(
                roomId: roomId, kind: .member, data: RoomEventData.member(member, "left"), now: now, on: connection)
            return true
        }
    }

    /// See `RoomStore.roomSnapshot`.
    public func roomSnapshot(roomId: Int64) async throws -> RoomSnapshot {
        try await transaction { connection in
            guard let room = try await self.room(id: roomId, lock: false, on: connection) else {
                throw StoreError.notFound(.room)
            }
            return try await snapshot(room, on: connection)
        }
    }

    /// See `RoomStore.roomMatches`.
    public func roomMatches(roomId: Int64) async throws -> [RoomMatching.Match] {
        try await fetch(
            "SELECT cardId, at, likedBy FROM roomMatches WHERE roomId = \(roomId) AND revokedAt IS NULL ORDER BY at, id"
        ) { c in
            RoomMatching.Match(card: try c.next(), at: try c.next(), likedBy: RoomEventData.ids(try c.next()))
        }
    }

    /// See `RoomStore.evaluateRoom`: the room row is locked, so two servers evaluate one after the other.
    public func evaluateRoom(roomId: Int64, now: Double) async throws -> [RoomEvent] {
        try await transaction { connection in
            guard let room = try await self.room(id: roomId, lock: true, on: connection) else { return [] }
            return try await evaluate(room, now: now, on: connection)
        }
    }

    /// See `RoomStore.evaluateRooms`: rooms locked in id order (no deadlock between servers); every
    /// room whose events changed (or that was named) is notified to every server (`roomMark`).
    public func evaluateRooms(roomIds: Set<Int64>, deciders: Set<RoomDecider>, now: Double) async throws
        -> [RoomEvaluated]
    {
        try await transaction { connection -> [RoomEvaluated] in
            var ids = roomIds
            for d in deciders {
                ids.formUnion(
                    try await fetch(
                        """
                        SELECT r.id FROM rooms r JOIN roomMembers m ON m.roomId = r.id
                        WHERE m.participantId = \(d.participant) AND m.leftAt IS NULL AND r.deckId = \(d.deckId)
                          AND r.finishedAt IS NULL
                        """, on: connection
                    ) { try $0.next(Int64.self) })
            }
            var evaluated: [RoomEvaluated] = []
            for id in ids.sorted() {
                guard let room = try await self.room(id: id, lock: true, on: connection) else { continue }
                let events = try await evaluate(room, now: now, on: connection)
                if !events.isEmpty || roomIds.contains(id) {
                    try await execute(
                        "SELECT pg_notify(\(Self.changesChannel), \(Self.roomMark + String(id)))", on: connection)
                }
                evaluated.append(RoomEvaluated(room: room, events: events))
            }
            return evaluated
        }
    }

    /// See `RoomStore.lastRoomEventId`.
    public func lastRoomEventId(roomId: Int64) async throws -> Int64 {
        try await fetchOne("SELECT COALESCE(MAX(id), 0) FROM roomEvents WHERE roomId = \(roomId)") {
            try $0.next(Int64.self)
        } ?? 0
    }

    /// See `RoomStore.isRoomMember`.
    public func isRoomMember(roomId: Int64, participant: String) async throws -> Bool {
        try await fetchOne(
            """
            SELECT EXISTS (SELECT 1 FROM roomMembers WHERE roomId = \(roomId) AND participantId = \(participant)
                                                       AND leftAt IS NULL)
            """
        ) { try $0.next(Bool.self) } ?? false
    }

    /// See `RoomStore.memberRooms`.
    public func memberRooms(deckId: Int64, participant: String) async throws -> [Room] {
        try await fetch(
            """
            SELECT \(unescaped: Self.roomColumns("r.")) FROM rooms r JOIN roomMembers m ON m.roomId = r.id
            WHERE m.participantId = \(participant) AND m.leftAt IS NULL AND r.deckId = \(deckId) AND r.finishedAt IS NULL
            """
        ) { try Self.room(&$0) }
    }

    /// See `RoomStore.roomEvents`.
    public func roomEvents(roomId: Int64, after: Int64, limit: Int) async throws -> [RoomEvent] {
        try await fetch(
            "SELECT id, kind, data, at FROM roomEvents WHERE roomId = \(roomId) AND id > \(after) ORDER BY id LIMIT \(limit)"
        ) { c in
            RoomEvent(
                id: try c.next(), kind: try RoomEvent.Kind(stored: try c.next(String.self)),
                data: try c.next(), at: try c.next())
        }
    }

    /// See `RoomStore.startRound`.
    public func startRound(roomId: Int64, cards: [Int64], now: Double) async throws -> Bool {
        try await transaction { connection -> Bool in
            guard let room = try await self.room(id: roomId, lock: true, on: connection),
                room.finishedAt != nil, now < room.expiresAt, !cards.isEmpty,
                try await value(
                    "SELECT COUNT(*) FROM roomMatches WHERE roomId = \(roomId) AND revokedAt IS NULL", on: connection,
                    as: Int.self) == 0
            else { return false }
            try await execute(
                """
                UPDATE rooms SET round = round + 1, roundCards = \(RoomEventData.list(cards)), roundStartedAt = \(now),
                    finishedAt = NULL WHERE id = \(roomId)
                """, on: connection)
            try await execute("UPDATE roomMembers SET decided = 0 WHERE roomId = \(roomId)", on: connection)
            try await appendEvent(
                roomId: roomId, kind: .round, data: RoomEventData.round(room.round + 1, cards), now: now,
                on: connection)
            return true
        }
    }

    /// See `RoomStore.roomMatchCounts`.
    public func roomMatchCounts(deckId: Int64) async throws -> [Int64: Int] {
        let rows = try await fetch(
            """
            SELECT m.cardId, COUNT(DISTINCT m.roomId) FROM roomMatches m JOIN rooms r ON r.id = m.roomId
            WHERE r.deckId = \(deckId) AND m.revokedAt IS NULL GROUP BY m.cardId
            """
        ) { c in (try c.next(Int64.self), try c.next(Int.self)) }
        return Dictionary(uniqueKeysWithValues: rows)
    }

    /// See `RoomStore.roomParticipants`.
    public func roomParticipants(roomId: Int64) async throws -> [String] {
        try await fetch("SELECT participantId FROM roomMembers WHERE roomId = \(roomId) ORDER BY id") {
            try $0.next(String.self)
        }
    }

    // MARK: - In a transaction

    static func roomColumns(_ prefix: String) -> String {
        [
            "id", "code", "deckId", "ruleKind", "ruleValue", "endOnFirstMatch", "maxMatches", "likedFirst",
            "maxMembers", "createdAt", "expiresAt", "round", "roundCards", "roundStartedAt", "finishedAt",
        ].map { prefix + $0 }.joined(separator: ", ")
    }

    static var roomColumns: String { roomColumns("") }

    static func room(_ c: inout PostgresColumns) throws -> Room {
        let id: Int64 = try c.next()
        let code: String = try c.next()
        let deckId: Int64 = try c.next()
        var settings = RoomSettings()
        let kind: String = try c.next()
        settings.rule = RoomRule(kind: kind, value: try c.next(Int.self)) ?? .all
        settings.endOnFirstMatch = try c.next()
        settings.maxMatches = try c.next(Int?.self)
        settings.likedFirst = try c.next()
        settings.maxMembers = try c.next()
        let created: Double = try c.next()
        let expires: Double = try c.next()
        settings.expiresInHours = Int(((expires - created) / 3600).rounded())
        let round: Int = try c.next()
        let roundCards = try c.next(String?.self).map(RoomEventData.ids)
        return Room(
            id: id, code: code, deckId: deckId, settings: settings, createdAt: created, expiresAt: expires,
            round: round, roundCards: roundCards, roundStartedAt: try c.next(), finishedAt: try c.next(Double?.self))
    }

    func room(id: Int64, lock: Bool, on connection: PostgresConnection) async throws -> Room? {
        try await fetchOne(
            "SELECT \(unescaped: Self.roomColumns) FROM rooms WHERE id = \(id) \(unescaped: lock ? "FOR UPDATE" : "")",
            on: connection
        ) { try Self.room(&$0) }
    }

    func members(roomId: Int64, on connection: PostgresConnection) async throws -> [RoomMember] {
        try await fetch(
            "SELECT id, participantId, name, joinedAt, leftAt, decided FROM roomMembers WHERE roomId = \(roomId) ORDER BY id",
            on: connection
        ) { c in
            RoomMember(
                id: try c.next(), participant: try c.next(), name: try c.next(), joinedAt: try c.next(),
                leftAt: try c.next(Double?.self), decided: try c.next())
        }
    }

    func addMember(roomId: Int64, participant: String, name: String, now: Double, on connection: PostgresConnection)
        async throws -> RoomMember
    {
        let id = try await value(
            """
            INSERT INTO roomMembers (roomId, participantId, name, joinedAt, leftAt, decided)
            VALUES (\(roomId), \(participant), \(name), \(now), NULL, 0) RETURNING id
            """, on: connection, as: Int64.self)!
        return RoomMember(id: id, participant: participant, name: name, joinedAt: now, leftAt: nil, decided: 0)
    }

    @discardableResult
    func appendEvent(
        roomId: Int64, kind: RoomEvent.Kind, data: String, now: Double, on connection: PostgresConnection
    ) async throws -> RoomEvent {
        let id = try await value(
            "INSERT INTO roomEvents (roomId, kind, data, at) VALUES (\(roomId), \(kind.rawValue), \(data), \(now)) RETURNING id",
            on: connection, as: Int64.self)!
        return RoomEvent(id: id, kind: kind, data: data, at: now)
    }

    func snapshot(_ room: Room, on connection: PostgresConnection) async throws -> RoomSnapshot {
        let members = try await self.members(roomId: room.id, on: connection)
        let cards: [Int64]
        if let roundCards = room.roundCards {
            cards = roundCards
        } else {
            cards = room.order(
                try await fetch(
                    "SELECT id FROM cards WHERE deckId = \(room.deckId) AND archivedAt IS NULL", on: connection
                ) { try $0.next(Int64.self) })
        }
        let matches = try await fetch(
            "SELECT cardId, at, likedBy FROM roomMatches WHERE roomId = \(room.id) AND revokedAt IS NULL",
            on: connection
        ) { c in (card: try c.next(Int64.self), at: try c.next(Double.self), likedBy: try c.next(String.self)) }
        let since = room.roundStartedAt
        let swipes = try await fetch(
            """
            SELECT s.participantId, s.cardId, s.direction FROM roomMembers m
            JOIN swipes s ON s.participantId = m.participantId AND s.deckId = \(room.deckId) AND s.undoneAt IS NULL
                         AND s.createdAt >= \(since)
            WHERE m.roomId = \(room.id) AND m.leftAt IS NULL
            """, on: connection
        ) { c in
            (
                participant: try c.next(String.self), card: try c.next(Int64.self),
                like: ResultsReport.isLike(try c.next())
            )
        }
        return RoomSnapshot(
            room: room, members: members, cards: cards,
            matches: Dictionary(uniqueKeysWithValues: matches.map { ($0.card, $0.at) }), swipes: swipes,
            likedBy: Dictionary(uniqueKeysWithValues: matches.map { ($0.card, RoomEventData.ids($0.likedBy)) }))
    }

    /// Evaluates the (locked) room and stores what changed (`RoomEvaluation`) on `connection`.
    func evaluate(_ room: Room, now: Double, on connection: PostgresConnection) async throws -> [RoomEvent] {
        let update = RoomEvaluation.update(try await snapshot(room, on: connection), now: now)
        for (member, n) in update.decided {
            try await execute("UPDATE roomMembers SET decided = \(n) WHERE id = \(member)", on: connection)
        }
        for card in update.revoked {
            try await execute(
                """
                UPDATE roomMatches SET revokedAt = \(now) WHERE roomId = \(room.id) AND cardId = \(card) AND revokedAt IS NULL
                """, on: connection)
        }
        for m in update.added {
            try await execute(
                """
                INSERT INTO roomMatches (roomId, cardId, at, likedBy, revokedAt)
                VALUES (\(room.id), \(m.card), \(m.at), \(RoomEventData.list(m.likedBy)), NULL)
                """, on: connection)
        }
        if let finished = update.finishedAt {
            try await execute("UPDATE rooms SET finishedAt = \(finished) WHERE id = \(room.id)", on: connection)
        }
        var events: [RoomEvent] = []
        for e in update.events {
            events.append(try await appendEvent(roomId: room.id, kind: e.kind, data: e.data, now: now, on: connection))
        }
        return events
    }
}
