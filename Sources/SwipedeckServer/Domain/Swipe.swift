import Foundation

/// A stored decision. Its id is the client's `Idempotency-Key`. Never deleted: undo sets
/// `undoneAt`, a flip rewrites `direction` and logs the old one in `flips`.
public struct Swipe: Sendable, Hashable, Codable {
    public var id: String
    public var deckId: Int64
    public var cardId: Int64
    public var participantId: String
    /// A `Decision` raw value other than `none`.
    public var direction: String
    /// A `SwipeInput` raw value.
    public var input: String
    /// The trace as JSON text: swipes stored before migration v4 only (see `traceData`).
    public var trace: String?
    /// Release velocity, px/ms.
    public var velocityX: Double?
    public var velocityY: Double?
    /// Gesture duration (last trace sample), ms.
    public var durationMs: Double?
    /// Time the card was on top before the decision, ms, as reported by the client.
    public var decisionMs: Double?
    /// Machine-like trace, or a button/key press faster than a person acts (`HumanPace`);
    /// never counted in the ranking.
    public var suspect: Bool
    /// Fingerprint of the request body, to tell a replay from a different request with the same key.
    public var requestHash: String
    /// Seconds since 1970.
    public var createdAt: Double
    public var undoneAt: Double?
    /// The card's revision when it was decided (1 for swipes stored before revisions existed).
    public var cardRevision: Int? = nil
    /// Why the swipe is suspect: `machine_like_trace`, `button_burst`, `button_before_read`, `drag_burst`, `drag_before_read`.
    public var suspectReason: String? = nil
    /// The trace in `TraceCodec`'s lossless binary form (drag swipes stored since migration v4).
    public var traceData: Data? = nil

    /// Whether the swipe carries a trace (in either stored form).
    public var hasTrace: Bool { trace != nil || traceData != nil }

    /// The trust class (`SwipeKind.of`).
    public var kind: SwipeKind { SwipeKind.of(input: input, hasTrace: hasTrace, suspect: suspect) }
}

// MARK: - Database
import GRDB

extension Swipe: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "swipes"
}
