import Foundation
import Hummingbird

/// A card as a room shows it.
struct RoomCardJSON: Codable, Sendable {
    let id: Int64
    let title: String
    /// The cover, or null when the card has none.
    let image: String?
    let accent: String

    init(_ c: Card) {
        id = c.id
        title = c.title
        image = c.image.isEmpty ? nil : c.image
        accent = c.accent
    }

    enum CodingKeys: String, CodingKey { case id, title, image, accent }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(image, forKey: .image)  // null, not absent
        try c.encode(accent, forKey: .accent)
    }
}

/// A member as every member sees them: how many cards they decided, never which way.
struct RoomMemberJSON: Codable, Sendable {
    let id: Int64
    let name: String
    let decided: Int
    let finished: Bool
    let left: Bool
}

struct RoomMatchJSON: Codable, Sendable {
    let card: RoomCardJSON
    let at: Double
    /// Member ids of the current members who like the card.
    let likedBy: [Int64]
}

struct RoomClosestJSON: Codable, Sendable {
    let card: RoomCardJSON
    let likes: Int
}

/// `GET /api/v1/rooms/{code}`: the room as one of its members sees it. It never holds a
/// member's individual non-matching decisions: only counts (`decided`), the matches and who
/// liked them, and, once finished without a match, the closest cards' like counts.
struct RoomStateJSON: ResponseEncodable, Sendable {
    struct DeckRef: Codable, Sendable {
        let slug: String
        let title: String
    }
    let code: String
    let deck: DeckRef
    let rule: RoomRule
    let endOnFirstMatch: Bool
    let maxMatches: Int?
    let likedFirst: Bool
    let round: Int
    let state: RoomStatus
    let expiresAt: Double
    let cardCount: Int
    let you: Int64?
    let members: [RoomMemberJSON]
    let matches: [RoomMatchJSON]
    let closest: [RoomClosestJSON]

    enum CodingKeys: String, CodingKey {
        case code, deck, rule, endOnFirstMatch, maxMatches, likedFirst, round, state, expiresAt, cardCount, you,
            members, matches, closest
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(deck, forKey: .deck)
        try c.encode(rule, forKey: .rule)
        try c.encode(endOnFirstMatch, forKey: .endOnFirstMatch)
        try c.encode(maxMatches, forKey: .maxMatches)  // null when there is no cap, not absent
        try c.encode(likedFirst, forKey: .likedFirst)
        try c.encode(round, forKey: .round)
        try c.encode(state, forKey: .state)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(cardCount, forKey: .cardCount)
        try c.encode(you, forKey: .you)
        try c.encode(members, forKey: .members)
        try c.encode(matches, forKey: .matches)
        try c.encode(closest, forKey: .closest)
    }

    /// The state of `snapshot` for member `you`, its cards looked up in `cards`.
    init(_ s: RoomSnapshot, deck: Deck, cards: [Int64: Card], you: Int64?, now: Double) {
        let room = s.room
        code = room.code
        self.deck = DeckRef(slug: deck.slug, title: deck.title)
        rule = room.settings.rule
        endOnFirstMatch = room.settings.endOnFirstMatch
        maxMatches = room.settings.maxMatches
        likedFirst = room.settings.likedFirst
        round = room.round
        state = room.status(now: now)
        expiresAt = room.expiresAt
        cardCount = s.cards.count
        self.you = you
        let current = s.members.filter { $0.leftAt == nil }
        let roundCards = Set(s.cards)
        var decided: [String: Int] = [:]
        var likes: [Int64: Set<String>] = [:]
        var decidedBy: [Int64: Set<String>] = [:]
        for w in s.swipes where roundCards.contains(w.card) {
            decided[w.participant, default: 0] += 1
            decidedBy[w.card, default: []].insert(w.participant)
            if w.like { likes[w.card, default: []].insert(w.participant) }
        }
        members = s.members.map { m in
            let n = m.leftAt == nil ? decided[m.participant, default: 0] : m.decided
            return RoomMemberJSON(
                id: m.id, name: m.name, decided: n, finished: !s.cards.isEmpty && n >= s.cards.count,
                left: m.leftAt != nil)
        }
        let memberOf = Dictionary(current.map { ($0.participant, $0.id) }, uniquingKeysWith: min)
        let isOpen = state == .open
        matches = s.matches.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.compactMap { entry in
            guard let c = cards[entry.key] else { return nil }
            // An open room's match holds now, so its likers are the members who like it now; a
            // finished one changes no more: its likers as stored when it matched.
            let by =
                isOpen
                ? (likes[entry.key] ?? []).compactMap { memberOf[$0] }.sorted() : s.likedBy[entry.key] ?? []
            return RoomMatchJSON(card: RoomCardJSON(c), at: entry.value, likedBy: by)
        }
        if state != .open && s.matches.isEmpty {
            closest = RoomMatching.closest(
                cards: s.cards, members: Set(memberOf.keys), likes: likes, decided: decidedBy
            ).compactMap { item in cards[item.card].map { RoomClosestJSON(card: RoomCardJSON($0), likes: item.likes) } }
        } else {
            closest = []
        }
    }
}
