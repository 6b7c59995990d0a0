import Foundation

/// An owner's subscription of a URL to some of a deck's events (`DeckNoticeKind`). Never
/// erased: disabling sets `disabledAt`, and its deliveries stay in the log.
public struct Webhook: Sendable, Hashable {
    public var id: Int64
    public var deckId: Int64
    /// The target, `http` or `https` (`WebhookTarget` checked it at registration).
    public var url: String
    public var events: Set<DeckNoticeKind>
    /// The key deliveries are signed with (`WebhookSignature`); shown to the owner once.
    public var secret: String
    /// Seconds since 1970.
    public var createdAt: Double
    public var disabledAt: Double?

    public var isEnabled: Bool { disabledAt == nil }

    /// The events in the order `DeckNoticeKind` lists them (lists and forms show them so).
    public var sortedEvents: [DeckNoticeKind] { DeckNoticeKind.allCases.filter(events.contains) }

    /// `events` as stored: the names in `DeckNoticeKind`'s order, comma-separated.
    static func stored(_ events: Set<DeckNoticeKind>) -> String {
        DeckNoticeKind.allCases.filter(events.contains).map(\.rawValue).joined(separator: ",")
    }

    /// A stored `events` text that names an unknown event or none: a row this server did not
    /// write, which must not be read as some default.
    struct UnreadableEvents: Error, CustomStringConvertible {
        let text: String
        var description: String { "A webhook's stored events \"\(text)\" name no known event." }
    }

    /// The events a stored text names; nil when it names an unknown one or none.
    static func events(stored text: String) -> Set<DeckNoticeKind>? {
        var set: Set<DeckNoticeKind> = []
        for name in text.split(separator: ",") {
            guard let kind = DeckNoticeKind(rawValue: String(name)) else { return nil }
            set.insert(kind)
        }
        return set.isEmpty ? nil : set
    }
}

/// Where a delivery stands. Raw values are stored.
public enum DeliveryStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for its next attempt (`nextAttemptAt`), or being sent.
    case pending
    /// A 2xx answered an attempt.
    case delivered
    /// No attempt succeeded within `WebhookBackoff.giveUpAfter` of its creation.
    case failed
    /// Its hook was disabled before it was delivered.
    case cancelled
}

/// One event for one hook: stored before it is sent (the outbox), then attempted until a 2xx or
/// `WebhookBackoff.giveUpAfter`. Its id is the `X-Swipedeck-Delivery` header and the body's
/// `id`: the same on every attempt, so a receiver can drop a repeat.
public struct WebhookDelivery: Sendable, Hashable {
    public var id: String
    public var hookId: Int64
    public var deckId: Int64
    public var event: DeckNoticeKind
    /// When the event happened (the notice's `at`), seconds since 1970.
    public var at: Double
    /// The event's `data` object (JSON).
    public var data: Data
    public var status: DeliveryStatus
    public var attempts: Int
    public var createdAt: Double
    /// When the next attempt is due (for a pending delivery).
    public var nextAttemptAt: Double
    public var lastAttemptAt: Double?
    /// The HTTP status of the last attempt, if one answered.
    public var lastStatus: Int?
    /// Why the last attempt failed, in a sentence.
    public var lastError: String?
    public var deliveredAt: Double?
}

/// A delivery a dispatcher claimed, with what sending needs: its hook's URL and secret, and the
/// deck's slug (for the body).
public struct ClaimedDelivery: Sendable, Hashable {
    public var delivery: WebhookDelivery
    public var url: String
    public var secret: String
    public var deckSlug: String
}

/// How one attempt ended, as `WebhookStore.recordAttempt` stores it.
public enum DeliveryAttempt: Sendable, Hashable {
    /// A 2xx with this status.
    case delivered(status: Int)
    /// Failed (`status` when the target answered, nil when it did not); tried again at
    /// `retryAt`, or given up when that is nil.
    case failed(status: Int?, error: String, retryAt: Double?)
}

/// The `data` of a `swipe.created` delivery: the swipes stored since the hook's last one, as an
/// owner's results and exports already show them.
public struct SwipesCreated: Codable, Sendable, Hashable {
    public struct Item: Codable, Sendable, Hashable {
        /// The swipe's id (its Idempotency-Key).
        public var id: String
        public var card: Int64
        public var direction: String
        /// The participant as the owner's results name them (`ParticipantNames.shown`).
        public var participant: String
        /// Seconds since 1970.
        public var at: Double
    }

    public var swipes: [Item]

    /// Most swipes one delivery carries; more wait for the next one (a second later). Default
    /// 1,000: about 120 KB of JSON, well within any receiver's body limit.
    public static let maxPerDelivery = 1000

    /// `a`'s swipes followed by `b`'s, as one `data` object; nil when either is no such object.
    static func merged(_ a: Data, _ b: Data) -> Data? {
        let decoder = JSONDecoder()
        // Either not decoding means it is no swipe batch: nil, and the caller stores the notice apart.
        guard var first = try? decoder.decode(SwipesCreated.self, from: a),
            let second = try? decoder.decode(SwipesCreated.self, from: b)
        else { return nil }
        first.swipes += second.swipes
        // Encoding strings and numbers does not fail; nil would store the notice apart, losing nothing.
        return try? JSONCoding.shared.encode(first)
    }

    /// How many swipes a stored `data` object holds (0 when it is no such object).
    static func count(_ data: Data) -> Int {
        // A data object that does not decode holds no swipes to count; merging into it is refused too.
        (try? JSONDecoder().decode(SwipesCreated.self, from: data))?.swipes.count ?? 0
    }
}
