import Foundation
import SwipePhysics

/// Accepts swipes: checks the deck, card, input kind and participant, re-runs the physics on
/// drag traces, logs refused traces, and hands valid swipes to the group-commit writer.
public struct SwipeService: Sendable {
    public let catalog: Catalog
    public let writer: SwipeWriter
    public let participants: ParticipantVerifier

    public init(catalog: Catalog, writer: SwipeWriter, participants: ParticipantVerifier) {
        self.catalog = catalog
        self.writer = writer
        self.participants = participants
    }

    /// Submits one swipe. Returns after its transaction committed.
    ///
    /// - Parameters:
    ///   - key: the `Idempotency-Key`; nil makes a fresh one (no replay protection).
    ///   - fingerprint: identifies the request body, to tell a replay from a reuse of the key.
    ///   - cookieParticipant: the browser's participant id (already verified), used when the body
    ///     names none.
    ///   - cookieRejected: the request carried a participant cookie this server did not issue.
    ///   - now: seconds since 1970 (passed in; the service reads no clock).
    /// - Throws: `ApiError` naming the broken rule.
    public func submit(
        deck slug: String, _ r: SwipeRequest, key: String?, fingerprint: String, cookieParticipant: String?,
        cookieRejected: Bool = false, now: Double
    ) async throws -> SwipeOutcome {
        let deck = try await catalog.deck(slug)
        guard let deckId = deck.id else { throw ApiError.notFound("deck") }
        let key = try key.map(Self.checkedKey) ?? UUID().uuidString
        let participant = try await self.participant(r.participant, cookie: cookieParticipant, cookieRejected: cookieRejected)
        if !deck.isOpen { throw ApiError.deckClosed }
        guard let direction = Decision(rawValue: r.direction), direction != .none else {
            throw ApiError.invalidField(code: "invalid_direction", message: "direction must be one of: \(Decision.directions.map(\.rawValue).joined(separator: ", ")).")
        }
        let input = try Self.input(r.input)
        if let ms = r.decisionMs, !(ms >= 0 && ms <= 86_400_000) {
            throw ApiError.invalidField(code: "invalid_decision_ms", message: "decisionMs must be between 0 and 86,400,000.")
        }
        guard try await catalog.contains(card: r.card, in: slug) else { throw ApiError.notFound("card") }
        let profile = deck.swipeProfile

        var swipe = Swipe(
            id: key, deckId: deckId, cardId: r.card, participantId: participant, direction: direction.rawValue,
            input: input.rawValue, trace: nil, velocityX: nil, velocityY: nil, durationMs: nil, decisionMs: r.decisionMs,
            suspect: false, requestHash: fingerprint, createdAt: now, undoneAt: nil)

        let trace = (input == .button || input == .key) ? nil : r.trace
        if let trace {
            do throws(SwipeRejection) {
                let verdict = try validate(trace, claimed: direction, profile: profile)
                swipe.velocityX = verdict.velocity.x
                swipe.velocityY = verdict.velocity.y
                swipe.durationMs = trace.t.last
                swipe.suspect = verdict.suspect
                swipe.suspectReason = verdict.suspect ? "machine_like_trace" : nil
                swipe.traceData = Data(TraceCodec.encode(trace))
            } catch {
                try await writer.submit(.rejection(deckId: deckId, cardId: r.card, participantId: participant, code: error.rawValue, at: now))
                throw ApiError.rejected(error)
            }
        } else {
            if input == .drag { throw ApiError.inputNotAllowed("A drag swipe needs its trace.") }
            if !deck.allowButtons { throw ApiError.inputNotAllowed("This deck accepts drag swipes with a trace only.") }
            if !profile.directions.contains(direction) {
                throw ApiError.invalidField(code: "direction_not_enabled", message: "This deck's profile does not enable \(direction.rawValue).")
            }
        }
        let paced = input == .button || input == .key
        guard let outcome = try await writer.submit(.swipe(swipe, quota: deck.quota, paced: paced)) else { throw ApiError.notFound("swipe") }
        return outcome
    }

    /// `Idempotency-Key`: 1–128 characters of `[A-Za-z0-9._:-]`.
    static func checkedKey(_ k: String) throws -> String {
        let ok = !k.isEmpty && k.utf8.count <= 128 && k.utf8.allSatisfy { b in
            (b >= 48 && b <= 58) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 46 || b == 95
        }
        if !ok { throw ApiError.invalidField(code: "invalid_idempotency_key", message: "Idempotency-Key must be 1–128 characters of A–Z, a–z, 0–9, '.', '_', ':', '-'.") }
        return k
    }

    /// The acting participant: the one the body or query names (which must be issued by this
    /// server), else the browser's cookie.
    /// - Throws: `invalid_participant` (malformed), `unknownParticipant` (not issued here, named or
    ///   by cookie), `participant_required` (neither).
    public func participant(_ named: String?, cookie: String?, cookieRejected: Bool) async throws -> String {
        if let named { return try await participants.checked(named) }
        if let cookie { return cookie }
        if cookieRejected { throw ApiError.unknownParticipant }
        throw ApiError.invalidField(
            code: "participant_required",
            message: "Send a participant id (POST /api/v1/decks/{deck}/participants mints one) or accept the session cookie.")
    }

    static func input(_ s: String?) throws -> SwipeInput {
        guard let s else { return .api }
        guard let i = SwipeInput(rawValue: s) else {
            throw ApiError.invalidField(code: "invalid_input", message: "input must be one of: drag, button, key, api.")
        }
        return i
    }

    /// The trace as compact JSON for storage (flat arrays; re-checkable by `swipedeck classify`).
    /// Written by hand: this runs for every drag swipe, and `JSONEncoder` was the largest single
    /// cost of the swipe route. Numbers are Swift's shortest round-trip spelling (`12.5`, `3`,
    /// `1e-05`), which decodes to the same doubles; the trace was validated, so all are finite.
    static func compact(_ t: Trace) -> String? {
        var out = ""
        out.reserveCapacity(64 + 8 * 3 * t.t.count)
        func number(_ v: Double) {
            guard v.isFinite else { out += "null"; return }
            if v == v.rounded(.towardZero) && abs(v) < 1e15 {
                out += String(Int64(v))
                if v == 0 && v.sign == .minus { out = String(out.dropLast()) + "-0" }
            } else {
                out += v.description
            }
        }
        func array(_ key: String, _ values: [Double]) {
            out += "\"\(key)\":["
            for (i, v) in values.enumerated() {
                if i > 0 { out += "," }
                number(v)
            }
            out += "]"
        }
        out += "{"
        array("t", t.t)
        out += ","
        array("x", t.x)
        out += ","
        array("y", t.y)
        for (key, v) in [("w", t.w), ("h", t.h), ("vw", t.vw), ("vh", t.vh), ("gx", t.gx), ("gy", t.gy)] {
            out += ",\"\(key)\":"
            number(v)
        }
        if let ox = t.ox { out += ",\"ox\":"; number(ox) }
        if let oy = t.oy { out += ",\"oy\":"; number(oy) }
        out += "}"
        return out
    }

    /// FNV-1a 64-bit of the parts, hex: a cheap fingerprint of a request for idempotency checks.
    public static func fingerprint(_ parts: [some Collection<UInt8>]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for b in part {
                h ^= UInt64(b)
                h &*= 0x100_0000_01b3
            }
            h ^= 0xff
            h &*= 0x100_0000_01b3
        }
        return String(h, radix: 16)
    }
}
