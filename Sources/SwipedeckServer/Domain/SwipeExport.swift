import Foundation
import SwipePhysics

/// The per-swipe export: every stored swipe (undone ones too, with their time) as a CSV row or
/// a JSON Lines object. Text cells are quoted and guarded against formulas like `ResultsCSV`;
/// numbers are written as they are. In the CSV (read by people, in spreadsheets) times are
/// ISO 8601 in UTC with milliseconds and each swipe's decision is also named by the deck's own
/// label (`decision`); the JSON Lines keep seconds since 1970 (a stable API). Durations are
/// milliseconds, release velocities px/ms (as the client measured them); an empty cell (JSON
/// null) is no value.
public enum SwipeExport {
    public static let csvHeader =
        "swipe_id,participant,card_id,card_revision,direction,decision,input,kind,suspect,suspect_reason,"
        + "decision_ms,velocity_x,velocity_y,duration_ms,created_at,undone_at"

    static func number(_ v: Double?) -> String { v.map { String($0) } ?? "" }

    /// `seconds` since 1970 as ISO 8601 in UTC with milliseconds, e.g. 2026-11-24T10:15:00.250Z; "" for nil.
    public static func time(_ seconds: Double?) -> String {
        guard let seconds else { return "" }
        return Date(timeIntervalSince1970: seconds).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    public static func csvLine(_ s: Swipe, names: DirectionNames) -> String {
        let kind = s.kind
        let fields = [
            ResultsCSV.cell(s.id), ResultsCSV.cell(s.participantId), String(s.cardId),
            s.cardRevision.map(String.init) ?? "",
            ResultsCSV.cell(s.direction.rawValue), ResultsCSV.cell(names.name(s.direction.rawValue)),
            ResultsCSV.cell(s.input.rawValue), kind.rawValue, s.suspect ? "1" : "0",
            ResultsCSV.cell(s.suspectReason ?? ""), number(s.decisionMs),
            number(s.velocityX), number(s.velocityY), number(s.durationMs), time(s.createdAt), time(s.undoneAt),
        ]
        return fields.joined(separator: ",") + "\r\n"
    }

    struct Line: Encodable {
        let id: String
        let participant: String
        let card: Int64
        let cardRevision: Int?
        let direction: Decision
        let input: SwipeInput
        let kind: String
        let suspect: Bool
        let suspectReason: String?
        let decisionMs: Double?
        let velocityX: Double?
        let velocityY: Double?
        let durationMs: Double?
        let createdAt: Double
        let undoneAt: Double?
    }

    /// - Throws: the encoder's error (a stored number that is not finite), which the export answers
    ///   as a failure rather than as a line that is silently `{}`.
    public static func jsonLine(_ s: Swipe, encoder: JSONEncoder) throws -> String {
        let line = Line(
            id: s.id, participant: s.participantId, card: s.cardId, cardRevision: s.cardRevision,
            direction: s.direction, input: s.input,
            kind: s.kind.rawValue, suspect: s.suspect,
            suspectReason: s.suspectReason, decisionMs: s.decisionMs, velocityX: s.velocityX, velocityY: s.velocityY,
            durationMs: s.durationMs, createdAt: s.createdAt, undoneAt: s.undoneAt)
        return String(decoding: try encoder.encode(line), as: UTF8.self) + "\n"
    }
}
