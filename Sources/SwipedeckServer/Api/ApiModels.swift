import Foundation
import Hummingbird
import SwipePhysics

/// Public JSON shapes of the API (documented in `Public/openapi.json`).
struct DeckJSON: ResponseEncodable {
    let slug: String
    let title: String
    let description: String
    let profile: String
    let allowButtons: Bool
    let labels: [String: String]
    let cardCount: Int
    /// Settings (see `Deck`): whether swipes are accepted, who reads results, the per-participant
    /// quota, the card order and the input kinds the ranking counts.
    let open: Bool
    let resultsPublic: Bool
    let quota: Int?
    let order: CardOrder
    let countedInputs: [String]
    /// Who may vote (`DeckAccessMode`) and the people expected (`Deck.joinLimit`; null: the server's budget).
    let access: String
    let joinLimit: Int?
    /// Whether `/` lists the deck (while open, with cards, for anyone with the link).
    let listed: Bool
    /// When cards and the deck are decided (`StopRule`; kind `none`: never).
    let stopRule: StopRule
    /// Quality control with known-answer cards (`QualitySettings`, defaults until set); for the
    /// deck's owner only (absent for anyone else: how known answers are dealt and judged helps
    /// whoever would game them).
    let quality: QualitySettings?
    /// Whether groups may decide together in rooms.
    let rooms: Bool
    let links: [String: String]

    enum CodingKeys: String, CodingKey {
        case slug, title, description, profile, allowButtons, labels, cardCount, open, resultsPublic, quota, order,
            countedInputs, access,
            joinLimit, listed, rooms, stopRule, quality, links
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(slug, forKey: .slug)
        try c.encode(title, forKey: .title)
        try c.encode(description, forKey: .description)
        try c.encode(profile, forKey: .profile)
        try c.encode(allowButtons, forKey: .allowButtons)
        try c.encode(labels, forKey: .labels)
        try c.encode(cardCount, forKey: .cardCount)
        try c.encode(open, forKey: .open)
        try c.encode(resultsPublic, forKey: .resultsPublic)
        try c.encode(quota, forKey: .quota)  // null when there is none, not absent
        try c.encode(order, forKey: .order)
        try c.encode(countedInputs, forKey: .countedInputs)
        try c.encode(access, forKey: .access)
        try c.encode(joinLimit, forKey: .joinLimit)  // null when there is none, not absent
        try c.encode(listed, forKey: .listed)
        try c.encode(stopRule, forKey: .stopRule)
        try c.encodeIfPresent(quality, forKey: .quality)
        try c.encode(rooms, forKey: .rooms)
        try c.encode(links, forKey: .links)
    }

    init(_ d: Deck, cardCount: Int, forOwner: Bool) {
        slug = d.slug
        title = d.title
        description = d.description
        profile = d.profile
        allowButtons = d.allowButtons
        labels = ["left": d.leftLabel, "right": d.rightLabel, "up": d.upLabel, "down": d.downLabel]
        self.cardCount = cardCount
        open = d.isOpen
        resultsPublic = d.resultsPublic
        quota = d.quota
        order = d.cardOrder
        countedInputs = CountedInput.allCases.filter(d.countedInputs.contains).map(\.rawValue)
        access = d.access.rawValue
        joinLimit = d.joinLimit
        listed = d.listed
        stopRule = d.stopRule
        quality = forOwner ? d.qualitySettings : nil
        rooms = d.rooms
        links = [
            "page": "/d/\(d.slug)", "cards": "/api/v1/decks/\(d.slug)/cards",
            "results": "/api/v1/decks/\(d.slug)/results",
        ]
    }
}

struct CardJSON: ResponseEncodable {
    let id: Int64
    let position: Int
    let title: String
    let subtitle: String
    let body: String
    /// The cover: `images[0]`, or "" when the card has none.
    let image: String
    /// Every image, the cover first (the detail page's gallery).
    let images: [String]
    let link: String
    let accent: String
    let detail: String
    /// The card's current revision (1 as first added; each edit adds one).
    let revision: Int
    /// Archived cards are dealt to nobody; their swipes stay.
    let archived: Bool
    /// The known answer (`NewCard.answer`): in the owner's answers only, never dealt to swipers.
    let answer: Decision?

    /// `withAnswer`: whether the reader manages the deck (a swiper who saw the answer would
    /// copy it, and known-answer cards would check nothing).
    init(_ c: Card, deck: String, withAnswer: Bool = false) {
        id = c.id
        position = c.position
        title = c.title
        subtitle = c.subtitle
        body = c.body
        image = c.image
        images = c.images
        link = c.link
        accent = c.accent
        detail = "/d/\(deck)/cards/\(c.id)"
        revision = c.revision
        archived = c.archivedAt != nil
        answer = withAnswer ? c.answer : nil
    }
}

struct CardPage: ResponseEncodable {
    let cards: [CardJSON]
    let nextCursor: String?
    let remaining: Int

    enum CodingKeys: String, CodingKey { case cards, nextCursor, remaining }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(cards, forKey: .cards)
        try c.encode(nextCursor, forKey: .nextCursor)
        try c.encode(remaining, forKey: .remaining)
    }
}

struct SwipeJSON: Encodable, Sendable {
    let id: String
    let deck: String
    let card: Int64
    let direction: Decision
    let input: SwipeInput
    let participant: String
    let suspect: Bool
    let velocity: [String: Double]?
    let durationMs: Double?
    let decisionMs: Double?
    let createdAt: Double
    let undone: Bool

    init(_ s: Swipe, deck: String) {
        id = s.id
        self.deck = deck
        card = s.cardId
        direction = s.direction
        input = s.input
        participant = s.participantId
        suspect = s.suspect
        velocity = s.velocityX.flatMap { vx in s.velocityY.map { ["x": vx, "y": $0] } }
        durationMs = s.durationMs
        decisionMs = s.decisionMs
        createdAt = s.createdAt
        undone = s.undoneAt != nil
    }
}

struct SwipeEnvelope: ResponseEncodable {
    let swipe: SwipeJSON
    /// Right or wrong on a known-answer card, when the deck's mode tells the swiper (201 only).
    var feedback: KnownAnswerFeedback? = nil
}

struct BatchItemResult: Encodable, Sendable {
    struct ErrorJSON: Encodable, Sendable {
        let code: String
        let message: String
    }

    let status: Int
    let swipe: SwipeJSON?
    let replayed: Bool
    let error: ErrorJSON?
    /// As `SwipeEnvelope.feedback`.
    let feedback: KnownAnswerFeedback?

    init(status: Int, swipe: SwipeJSON?, replayed: Bool, error: ErrorJSON?, feedback: KnownAnswerFeedback? = nil) {
        self.status = status
        self.swipe = swipe
        self.replayed = replayed
        self.error = error
        self.feedback = feedback
    }

    init(_ e: ApiError) {
        self.init(
            status: Int(e.status.code), swipe: nil, replayed: false, error: ErrorJSON(code: e.code, message: e.message))
    }
}

// MARK: - Hand-written JSON for the swipe route

extension SwipeEnvelope {
    /// `{"swipe":{…}}` with sorted keys, as `JSONCoding.shared` would write it (numbers in
    /// Swift's shortest round-trip spelling). Written by hand because this answers every swipe
    /// and `JSONEncoder` was a measurable share of the route's CPU.
    var json: String {
        var o = "{"
        if let f = feedback {
            o +=
                "\"feedback\":{\"answer\":" + Self.string(f.answer.rawValue) + ",\"correct\":"
                + (f.correct ? "true" : "false")
            o += "},"
        }
        o += "\"swipe\":{"
        let s = swipe
        o += "\"card\":\(s.card),\"createdAt\":"
        o += Self.number(s.createdAt)
        if let d = s.decisionMs { o += ",\"decisionMs\":" + Self.number(d) }
        o += ",\"deck\":" + Self.string(s.deck)
        o += ",\"direction\":" + Self.string(s.direction.rawValue)
        if let d = s.durationMs { o += ",\"durationMs\":" + Self.number(d) }
        o += ",\"id\":" + Self.string(s.id)
        o += ",\"input\":" + Self.string(s.input.rawValue)
        o += ",\"participant\":" + Self.string(s.participant)
        o += ",\"suspect\":" + (s.suspect ? "true" : "false")
        o += ",\"undone\":" + (s.undone ? "true" : "false")
        if let v = s.velocity {
            o += ",\"velocity\":{"
            var first = true
            for key in v.keys.sorted() {
                o += (first ? "" : ",") + Self.string(key) + ":" + Self.number(v[key] ?? 0)
                first = false
            }
            o += "}"
        }
        o += "}}"
        return o
    }

    /// A finite double as JSON (`1`, `0.25`, `1e-07`); non-finite ones (never stored) as null.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(.towardZero) && abs(v) < 1e15 { return String(Int64(v)) }
        return v.description
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func string(_ s: String) -> String {
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) { return "\"" + s + "\"" }
        var o = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": o += "\\\""
            case "\\": o += "\\\\"
            case "\n": o += "\\n"
            case "\r": o += "\\r"
            case "\t": o += "\\t"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    o += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    o.unicodeScalars.append(u)
                }
            }
        }
        return o + "\""
    }
}

// MARK: - Domain reports, answered as they are

extension ResultsReport: ResponseEncodable {}
extension ParticipantReport: ResponseEncodable {}
extension QualityReport: ResponseEncodable {}
