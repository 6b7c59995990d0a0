import Foundation

/// Public JSON shapes of the API (documented in `Public/openapi.json`).
struct DeckJSON: Encodable {
    let slug: String
    let title: String
    let description: String
    let profile: String
    let allowButtons: Bool
    let labels: [String: String]
    let cardCount: Int
    let links: [String: String]

    init(_ d: Deck, cardCount: Int) {
        slug = d.slug
        title = d.title
        description = d.description
        profile = d.profile
        allowButtons = d.allowButtons
        labels = ["left": d.leftLabel, "right": d.rightLabel, "up": d.upLabel, "down": d.downLabel]
        self.cardCount = cardCount
        links = ["page": "/d/\(d.slug)", "cards": "/api/v1/decks/\(d.slug)/cards", "results": "/api/v1/decks/\(d.slug)/results"]
    }
}

struct CardJSON: Encodable {
    let id: Int64
    let position: Int
    let title: String
    let subtitle: String
    let body: String
    let image: String
    let link: String
    let accent: String
    let detail: String

    init(_ c: Card, deck: String) {
        id = c.id ?? 0
        position = c.position
        title = c.title
        subtitle = c.subtitle
        body = c.body
        image = c.image
        link = c.link
        accent = c.accent
        detail = "/d/\(deck)/cards/\(c.id ?? 0)"
    }
}

struct CardPage: Encodable {
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
    let direction: String
    let input: String
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

struct SwipeEnvelope: Encodable { let swipe: SwipeJSON }

struct BatchItemResult: Encodable, Sendable {
    struct ErrorJSON: Encodable, Sendable {
        let code: String
        let message: String
    }

    let status: Int
    let swipe: SwipeJSON?
    let replayed: Bool
    let error: ErrorJSON?

    init(status: Int, swipe: SwipeJSON?, replayed: Bool, error: ErrorJSON?) {
        self.status = status
        self.swipe = swipe
        self.replayed = replayed
        self.error = error
    }

    init(_ e: ApiError) {
        self.init(status: Int(e.status.code), swipe: nil, replayed: false, error: ErrorJSON(code: e.code, message: e.message))
    }
}
