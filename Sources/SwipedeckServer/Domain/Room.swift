import Foundation

/// A room's settings, chosen by its creator (`POST /api/v1/decks/{deck}/rooms`).
public struct RoomSettings: Sendable, Hashable {
    public var rule: RoomRule = .all
    /// The room finishes at its first match.
    public var endOnFirstMatch = false
    /// At most this many matches (nil: no cap); the room finishes when it has them.
    public var maxMatches: Int?
    /// Deal first the cards other members already liked.
    public var likedFirst = false
    /// Hours until the room expires (then it reads as finished). Default 24.
    public var expiresInHours = RoomSettings.defaultHours
    /// Most members at once. Default 12.
    public var maxMembers = RoomSettings.defaultMaxMembers

    public init() {}

    /// Default lifetime, hours: a day covers an evening's decision with a night's sleep on it.
    public static let defaultHours = 24
    /// Longest lifetime, hours (30 days): rooms are for deciding together, not for keeping.
    public static let maxHours = 720
    /// Default member cap: a group of friends or a small team.
    public static let defaultMaxMembers = 12
    /// Largest member cap: every member's events stream stays open, and a rule over 50 people is a survey.
    public static let maxMembersLimit = 50
    /// Longest display name, characters.
    public static let maxNameLength = 40
    /// Cards offered as "closest" and dealt in a second round.
    public static let closestCount = 5
}

/// Whether a room takes swipes: `open`; `finished` (everyone decided, or its match rule ended
/// it); `expired` (past its time: reads as finished, stored as it was).
public enum RoomStatus: String, Sendable, Hashable, Codable {
    case open, finished, expired
}

/// A stored room.
public struct Room: Sendable, Hashable {
    public var id: Int64
    public var code: String
    public var deckId: Int64
    public var settings: RoomSettings
    /// Seconds since 1970.
    public var createdAt: Double
    public var expiresAt: Double
    /// 1, then 2… for each further round on the closest cards.
    public var round: Int
    /// The cards of rounds after the first (the closest of the round before); nil: all active cards.
    public var roundCards: [Int64]?
    /// When the round began (swipes before it do not count in rounds after the first).
    public var roundStartedAt: Double
    /// Set when the room finished (first match, cap, everyone decided).
    public var finishedAt: Double?
    /// The seed of the room's deal: every member is dealt the same order.
    public var seed: String { code }

    /// `cards` in the room's order: sorted by the room's seed (`CardOrder.shuffleKey`), so every
    /// member is dealt the same order, and two rooms on one deck different ones.
    public func order(_ cards: [Int64]) -> [Int64] {
        cards.sorted {
            (CardOrder.shuffleKey(participant: seed, cardId: $0), $0)
                < (CardOrder.shuffleKey(participant: seed, cardId: $1), $1)
        }
    }

    /// The room's state at `now`: expiry reads as finished.
    public func status(now: Double) -> RoomStatus {
        if finishedAt != nil { return .finished }
        return now >= expiresAt ? .expired : .open
    }
}

/// One member of a room: a server-minted participant with a display name.
public struct RoomMember: Sendable, Hashable {
    /// The member's id within the room (shown to other members instead of the participant).
    public var id: Int64
    public var participant: String
    public var name: String
    public var joinedAt: Double
    public var leftAt: Double?
    /// Cards of the current round the member has decided (their live swipes), as last evaluated.
    public var decided: Int
}

/// A stored event of a room, in `room_events` order (`id` grows): the events stream sends them.
public struct RoomEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case member, progress, match, unmatch, finished, round

        /// The kind as stored. - Throws: `StorageError.unknownStoredValue` for any other value.
        public init(stored: String) throws {
            guard let kind = Kind(rawValue: stored) else {
                throw StorageError.unknownStoredValue("roomEvents.kind", stored)
            }
            self = kind
        }
    }
    public var id: Int64
    public var kind: Kind
    /// The event's JSON object.
    public var data: String
    public var at: Double
}

/// Everything an evaluation reads, in one transaction (both engines read the same).
public struct RoomSnapshot: Sendable {
    public var room: Room
    /// Every member ever, left ones included.
    public var members: [RoomMember]
    /// The round's cards in the room's order.
    public var cards: [Int64]
    /// The stored live matches: card → since when.
    public var matches: [Int64: Double]
    /// The members' live swipes on the round's cards (made since the round began): participant, card, like.
    public var swipes: [(participant: String, card: Int64, like: Bool)]
    /// The stored live matches: card → the members who liked it when it became one (a finished
    /// room shows these: it changes no more, whatever its members undo later).
    public var likedBy: [Int64: [Int64]] = [:]
}

extension RoomSnapshot {
    /// The room's deal for `participant` (`GET …/cards?room=`, the room page): the round's cards
    /// in the room's order (the same for every member) without the ones they decided. With
    /// `likedFirst` the deal steers toward
    /// matches: cards that can still match come first, those liked by more of the other current
    /// members before the rest; cards that can no longer match under the rule (too many members
    /// passed, `RoomRule.canStillHold`) come last; ties keep the room's order.
    public func deal(for participant: String) -> [Int64] {
        let current = Set(members.filter { $0.leftAt == nil }.map(\.participant))
        var mine = Set<Int64>()
        var othersLikes: [Int64: Int] = [:]
        var othersDecided: [Int64: Int] = [:]
        for s in swipes {
            if s.participant == participant {
                mine.insert(s.card)
            } else if current.contains(s.participant) {
                othersDecided[s.card, default: 0] += 1
                if s.like { othersLikes[s.card, default: 0] += 1 }
            }
        }
        let open = cards.filter { !mine.contains($0) }
        guard room.settings.likedFirst else { return open }
        let rule = room.settings.rule
        let ranked = open.enumerated().map { index, card in
            let likes = othersLikes[card] ?? 0
            let undecided = current.count - (othersDecided[card] ?? 0)
            let alive = rule.canStillHold(likes: likes, undecided: undecided, members: current.count)
            return (card: card, dead: alive ? 0 : 1, likes: likes, index: index)
        }
        return ranked.sorted { ($0.dead, -$0.likes, $0.index) < ($1.dead, -$1.likes, $1.index) }.map(\.card)
    }
}

/// What an evaluation changes: written by the engine in the same transaction.
public struct RoomUpdate: Sendable {
    /// Members whose decided count changed: id → the new count.
    public var decided: [Int64: Int] = [:]
    /// Matches that begin now.
    public var added: [RoomMatching.Match] = []
    /// Cards no longer matches.
    public var revoked: [Int64] = []
    /// Set when the room finishes now.
    public var finishedAt: Double?
    /// Events to append, in order (kind, JSON data).
    public var events: [(kind: RoomEvent.Kind, data: String)] = []

    public var isEmpty: Bool { decided.isEmpty && added.isEmpty && revoked.isEmpty && finishedAt == nil }
}

/// The room's evaluation after anything that can change it (a member's swipe, undo, flip, a join,
/// a leave): one rule in one place, both engines call it inside their transaction.
public enum RoomEvaluation {
    /// The changes to store. A finished or expired room changes no more.
    public static func update(_ s: RoomSnapshot, now: Double) -> RoomUpdate {
        var u = RoomUpdate()
        guard s.room.status(now: now) == .open else { return u }
        let current = s.members.filter { $0.leftAt == nil }
        let byId = Dictionary(uniqueKeysWithValues: current.map { ($0.id, $0.participant) })
        let cardSet = Set(s.cards)
        var likes: [Int64: Set<String>] = [:]
        var decided: [Int64: Set<String>] = [:]
        var perMember: [String: Int] = [:]
        for w in s.swipes where cardSet.contains(w.card) {
            decided[w.card, default: []].insert(w.participant)
            if w.like { likes[w.card, default: []].insert(w.participant) }
            perMember[w.participant, default: 0] += 1
        }
        for m in current where perMember[m.participant, default: 0] != m.decided {
            let n = perMember[m.participant, default: 0]
            u.decided[m.id] = n
            u.events.append((.progress, #"{"member":\#(m.id),"decided":\#(n)}"#))
        }
        let matched = RoomMatching.matches(
            rule: s.room.settings.rule, maxMatches: s.room.settings.maxMatches, cards: s.cards, members: byId,
            likes: likes, previous: s.matches, now: now)
        let nowCards = Set(matched.map(\.card))
        for card in s.cards where s.matches[card] != nil && !nowCards.contains(card) {
            u.revoked.append(card)
            u.events.append((.unmatch, #"{"card":\#(card)}"#))
        }
        for m in matched where s.matches[m.card] == nil {
            u.added.append(m)
            let liked = m.likedBy.map(String.init).joined(separator: ",")
            u.events.append((.match, #"{"card":\#(m.card),"at":\#(m.at),"likedBy":[\#(liked)]}"#))
        }
        let everyoneDone =
            !current.isEmpty && !s.cards.isEmpty
            && current.allSatisfy { perMember[$0.participant, default: 0] >= s.cards.count }
        let capped = s.room.settings.maxMatches.map { matched.count >= $0 } ?? false
        if everyoneDone || (s.room.settings.endOnFirstMatch && !matched.isEmpty) || capped {
            u.finishedAt = now
            let closest =
                matched.isEmpty
                ? RoomMatching.closest(
                    cards: s.cards, members: Set(byId.values), likes: likes, decided: decided) : []
            let list = closest.map { #"{"card":\#($0.card),"likes":\#($0.likes)}"# }.joined(separator: ",")
            u.events.append((.finished, #"{"closest":[\#(list)]}"#))
        }
        return u
    }
}

/// The JSON of stored room events and lists (ids only: the stream expands cards and members).
public enum RoomEventData {
    /// A `member` event: the member (never their participant id) and `joined` or `left`.
    public static func member(_ m: RoomMember, _ change: String) -> String {
        #"{"member":{"id":\#(m.id),"name":\#(quoted(m.name))},"change":"\#(change)"}"#
    }

    /// A `round` event: the round's number and cards.
    public static func round(_ round: Int, _ cards: [Int64]) -> String {
        #"{"round":\#(round),"cards":\#(list(cards))}"#
    }

    /// `[1,2,3]`.
    public static func list(_ ids: [Int64]) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// The ids of a stored `list` (nothing for text that is not one).
    public static func ids(_ text: String) -> [Int64] {
        text.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",").compactMap {
            Int64($0.trimmingCharacters(in: .whitespaces))
        }
    }

    static func quoted(_ s: String) -> String {
        // Encoding a String cannot fail.
        String(decoding: (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
