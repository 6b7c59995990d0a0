import Foundation
import SwipePhysics

/// Accepts swipes: checks the deck, card, input kind and participant, re-runs the physics on
/// drag traces, logs refused traces, and hands valid swipes to the group-commit writer; undoes
/// and flips them for the participant who made them.
public struct SwipeService: Sendable {
    public let catalog: Catalog
    public let writer: SwipeWriter
    public let store: any Store
    public let signer: ParticipantSigner
    /// Decisions per participant identity (every swipe, batch item, undo and flip takes one).
    public let participantLimiter: RateLimiter

    /// Counts refused swipes by code; nil counts nothing.
    public let metrics: AppMetrics?
    /// Checks swipes made in a room and evaluates the member's rooms after each decision; nil: no rooms.
    public var rooms: RoomService?

    public init(
        catalog: Catalog, writer: SwipeWriter, store: any Store, signer: ParticipantSigner,
        participantLimiter: RateLimiter,
        metrics: AppMetrics? = nil, rooms: RoomService? = nil
    ) {
        self.metrics = metrics
        self.rooms = rooms
        self.catalog = catalog
        self.writer = writer
        self.store = store
        self.signer = signer
        self.participantLimiter = participantLimiter
    }

    /// Submits one swipe. Returns after its transaction committed. The rules it meets, here
    /// (1–5) and in the transaction (6–10), are listed in order in `SwipeRule`.
    ///
    /// - Parameters:
    ///   - key: the `Idempotency-Key`; nil makes a fresh one (no replay protection).
    ///   - fingerprint: `SwipeFingerprint.of` the request, to tell a replay from a reuse of the key.
    ///   - cookies: the browser's credentials (already checked), used when the body names none.
    ///   - network: the client's network (`ClientNetwork.key`), recorded with the participant's
    ///     first decision in the deck; nil when unknown.
    ///   - now: seconds since 1970 (passed in; the service reads no clock).
    /// - Throws: `ApiError` naming the broken rule.
    public func submit(
        deck slug: String, _ r: SwipeRequest, key: String?, fingerprint: String, cookies: ParticipantCookies,
        network: String? = nil, now: Double
    ) async throws -> SwipeOutcome {
        do {
            let outcome = try await checkAndWrite(
                deck: slug, r, key: key, fingerprint: fingerprint, cookies: cookies, network: network, now: now)
            if case .refused(let error) = outcome { metrics?.recordRefusal(code: ApiError(error).code) }
            return outcome
        } catch let error as ApiError {
            metrics?.recordRefusal(code: error.code)
            throw error
        }
    }

    /// `submit`'s checks and write, uncounted.
    private func checkAndWrite(
        deck slug: String, _ r: SwipeRequest, key: String?, fingerprint: String, cookies: ParticipantCookies,
        network: String?, now: Double
    ) async throws -> SwipeOutcome {
        let deck = try await catalog.deck(slug)
        let deckId = deck.id
        let key = try key.map(Self.checkedKey) ?? UUID().uuidString
        let identity = try self.identity(r.participant, cookies: cookies, deck: deck, now: now)
        let participant = identity.id
        try takeDecision(identity, now: now)
        if !deck.isOpen { throw ApiError.deckClosed }
        guard let direction = Decision(rawValue: r.direction), direction != .none else {
            throw ApiError.invalidField(
                code: "invalid_direction",
                message: "direction must be one of: \(Decision.directions.map(\.rawValue).joined(separator: ", ")).")
        }
        let input = try Self.input(r.input)
        if let ms = r.decisionMs, !(ms >= 0 && ms <= 86_400_000) {
            throw ApiError.invalidField(
                code: "invalid_decision_ms", message: "decisionMs must be between 0 and 86,400,000.")
        }
        switch try await catalog.card(r.card, in: slug) {
        case .active: break
        case .archived: throw ApiError.cardArchived
        case .absent: throw ApiError.notFound("card")
        }
        if !(try await catalog.pacing(slug).takes(card: r.card, at: now)) { throw ApiError.cardNotCurrent }
        var room: Room?
        if let code = r.room {
            guard let rooms else { throw ApiError.room(.notFound) }
            room = try await rooms.checkSwipe(code: code, deck: deck, participant: participant, now: now)
        }
        let profile = deck.swipeProfile

        var swipe = Swipe(
            id: key, deckId: deckId, cardId: r.card, participantId: participant, direction: direction,
            input: input, trace: nil, velocityX: nil, velocityY: nil, durationMs: nil, decisionMs: r.decisionMs,
            suspect: false, requestHash: fingerprint, createdAt: now, undoneAt: nil)

        let trace = (input == .button || input == .key) ? nil : r.trace
        if let trace {
            do throws(SwipeRejection) {
                let verdict = try validate(trace, claimed: direction, profile: profile)
                swipe.velocityX = verdict.velocity.x
                swipe.velocityY = verdict.velocity.y
                swipe.durationMs = trace.t.last
                swipe.suspect = verdict.suspect
                swipe.suspectReason = verdict.suspect ? SuspectReason.machineLikeTrace.rawValue : nil
                swipe.traceData = Data(TraceCodec.encode(trace))
            } catch {
                try await writer.submit(
                    .rejection(
                        deckId: deckId, cardId: r.card, participantId: participant, code: error.rawValue, at: now))
                throw ApiError.rejected(error)
            }
        } else {
            if input == .drag { throw ApiError.inputNotAllowed("A drag swipe needs its trace.") }
            if !deck.allowButtons { throw ApiError.inputNotAllowed("This deck accepts drag swipes with a trace only.") }
            if !profile.directions.contains(direction) {
                throw ApiError.invalidField(
                    code: "direction_not_enabled", message: "This deck's profile does not enable \(direction.rawValue)."
                )
            }
        }
        if let room, let rooms {
            try await rooms.makeRoomForRound(room, card: r.card, participant: participant, now: now)
        }
        let origin = SwipeWriter.Origin(mintedAt: identity.mintedAt, network: network)
        let quota = SwipeRule.quota(deck: deck.quota, inRoom: room != nil)
        guard let outcome = try await writer.submit(.swipe(swipe, quota: quota, origin: origin)) else {
            throw ApiError.notFound("swipe")
        }
        if case .created = outcome, deck.rooms {
            await rooms?.decided(deckId: deckId, participant: participant, now: now)
        }
        return outcome
    }

    /// Undoes swipe `id` for the participant who made it (the row stays, marked undone).
    ///
    /// - Parameters: `named`, `cookies` as for `identity`; `now` seconds since 1970.
    /// - Returns: the undone swipe and its deck's slug.
    /// - Throws: `notFound("swipe")`, the credential's errors, `notYourSwipe`, `rateLimited`,
    ///   `deckClosed` (a closed deck's decisions are frozen), `cardArchived` (so is an archived card's).
    public func undo(id: String, named: String?, cookies: ParticipantCookies, now: Double) async throws -> (
        Swipe, String
    ) {
        let (s, deck, _) = try await ownSwipe(id: id, named: named, cookies: cookies, now: now)
        let undone = try await store.undoSwipe(id: s.id, participant: s.participantId, at: now)
        if deck.rooms { await rooms?.decided(deckId: deck.id, participant: s.participantId, now: now) }
        return (undone, deck.slug)
    }

    /// Undoes the acting participant's most recent live swipe in the deck, if any.
    /// - Throws: the credential's errors, `rateLimited`, `deckClosed`, `cardNotCurrent` (host-paced,
    ///   that swipe's card is no longer the presenter's).
    public func undoLatest(deck slug: String, cookies: ParticipantCookies, now: Double) async throws -> Swipe? {
        let deck = try await catalog.deck(slug)
        let deckId = deck.id
        let identity = try self.identity(nil, cookies: cookies, deck: deck, now: now)
        try takeDecision(identity, now: now)
        if !deck.isOpen { throw ApiError.deckClosed }
        let pacing = try await catalog.pacing(slug)
        if pacing.hosted,
            let latest = try await store.history(deckId: deckId, participant: identity.id, limit: 1).first,
            !pacing.takes(card: latest.card.id, at: now)
        {
            throw ApiError.cardNotCurrent
        }
        let undone = try await store.undoLatestSwipe(deckId: deckId, participant: identity.id, at: now)
        if undone != nil, deck.rooms { await rooms?.decided(deckId: deckId, participant: identity.id, now: now) }
        return undone
    }

    /// Changes swipe `id` to `direction` for the participant who made it.
    ///
    /// A swipe without a trace (a button, a key, a program) changes its direction in place and
    /// the old one is logged. A swipe with a trace is never turned into a decision its trace does
    /// not show: it is undone (the row and its trace stay) and the new direction is stored as a
    /// new swipe without a trace — input `button` from the browser, `api` from a program — which
    /// counts as such a decision does, is paced like one, and is refused on a drag-only deck.
    ///
    /// - Returns: the swipe that now holds the decision (a new id for a traced one) and the slug.
    /// - Throws: as `undo`, and `direction_not_enabled`, `inputNotAllowed`.
    public func flip(
        id: String, to direction: Decision, named: String?, cookies: ParticipantCookies, network: String?, now: Double
    ) async throws -> (Swipe, String) {
        let (s, deck, identity) = try await ownSwipe(id: id, named: named, cookies: cookies, now: now)
        if !deck.swipeProfile.directions.contains(direction) {
            throw ApiError.invalidField(
                code: "direction_not_enabled", message: "This deck's profile does not enable \(direction.rawValue).")
        }
        if !s.hasTrace || s.direction == direction {
            let flipped = try await store.flipSwipe(id: s.id, participant: s.participantId, to: direction, at: now)
            if deck.rooms { await rooms?.decided(deckId: deck.id, participant: s.participantId, now: now) }
            return (flipped, deck.slug)
        }
        if s.undoneAt != nil { throw ApiError.alreadyUndone }
        if !deck.allowButtons {
            throw ApiError.inputNotAllowed("This deck counts drags only: undo the swipe and drag the card again.")
        }
        _ = try await store.undoSwipe(id: s.id, participant: s.participantId, at: now)
        let input: SwipeInput = named == nil ? .button : .api
        let key = UUID().uuidString
        let request = SwipeRequest(card: s.cardId, direction: direction.rawValue, input: input.rawValue)
        let decision = Swipe(
            id: key, deckId: s.deckId, cardId: s.cardId, participantId: s.participantId, direction: direction,
            input: input, trace: nil, velocityX: nil, velocityY: nil, durationMs: nil, decisionMs: nil,
            suspect: false, requestHash: SwipeFingerprint.of(request, deck: deck.slug, participant: s.participantId),
            createdAt: now, undoneAt: nil)
        switch try await writer.submit(
            .swipe(
                decision, quota: deck.quota, origin: SwipeWriter.Origin(mintedAt: identity.mintedAt, network: network)))
        {
        case .created(let stored)?, .replayed(let stored)?:
            if deck.rooms { await rooms?.decided(deckId: deck.id, participant: s.participantId, now: now) }
            return (stored, deck.slug)
        case .refused(let error)?: throw error
        case nil: throw ApiError.notFound("swipe")
        }
    }

    /// Swipe `id`, its deck and the acting identity, once the identity is the swipe's maker, has
    /// budget left, the deck is open, the card not archived (an archived card's tally is frozen)
    /// and, host-paced, still the presenter's card (`cardNotCurrent`).
    private func ownSwipe(id: String, named: String?, cookies: ParticipantCookies, now: Double) async throws -> (
        Swipe, Deck, ParticipantIdentity
    ) {
        guard let s = try await store.swipe(id: id) else { throw ApiError.notFound("swipe") }
        let deck = try await catalog.deck(try await store.deckSlug(id: s.deckId))
        let identity = try self.identity(named, cookies: cookies, deck: deck, now: now)
        if identity.id != s.participantId { throw ApiError.notYourSwipe }
        try takeDecision(identity, now: now)
        if !deck.isOpen { throw ApiError.deckClosed }
        if try await catalog.card(s.cardId, in: deck.slug) == .archived { throw ApiError.cardArchived }
        if !(try await catalog.pacing(deck.slug).takes(card: s.cardId, at: now)) { throw ApiError.cardNotCurrent }
        return (s, deck, identity)
    }

    /// The browser's identity in `deck`, for reads: nil without a cookie credential that may act
    /// on the deck.
    public func cookieIdentity(_ cookies: ParticipantCookies, deck: Deck) -> String? {
        try? identity(nil, cookies: cookies, deck: deck, now: 0).id  // Every refusal means the same here: nobody.
    }

    /// Takes one decision from the identity's budget (a swipe, a batch item, an undo, a flip).
    /// - Throws: `rateLimited` past it.
    public func takeDecision(_ identity: ParticipantIdentity, now: Double) throws {
        if let wait = participantLimiter.take("p:" + identity.id, now: now) {
            throw ApiError.rateLimited(retryAfter: wait)
        }
    }

    /// `Idempotency-Key`: 1–128 characters of `[A-Za-z0-9._:-]`.
    static func checkedKey(_ k: String) throws -> String {
        let ok =
            !k.isEmpty && k.utf8.count <= 128
            && k.utf8.allSatisfy { b in
                (b >= 48 && b <= 58) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 46 || b == 95
            }
        if !ok {
            throw ApiError.invalidField(
                code: "invalid_idempotency_key",
                message: "Idempotency-Key must be 1–128 characters of A–Z, a–z, 0–9, '.', '_', ':', '-'.")
        }
        return k
    }

    /// The participant acting on `deck`: the identity of the credential the body or query names,
    /// else of the browser's cookies (its admission to the deck, else its device credential). A
    /// published identity or pseudonym is no credential. On a deck that takes invited people only
    /// (`DeckAccessMode`), only a credential minted on the mode's admission acts.
    /// - Throws: `invalid_participant` (malformed), `unknownParticipant` (not issued here, named or
    ///   by cookie, or of the retired format), `participantExpired`, `participantOtherDeck` (a
    ///   credential minted for another deck), `accessRequired`, `participant_required` (none).
    public func identity(_ named: String?, cookies: ParticipantCookies, deck: Deck, now: Double) throws
        -> ParticipantIdentity
    {
        let deckId = deck.id
        let credential: ParticipantCredential
        if let named {
            guard Participant.isValidId(named) else {
                throw ApiError.invalidField(
                    code: "invalid_participant",
                    message: "participant must be 1–64 characters of A–Z, a–z, 0–9, '_', '-'.")
            }
            switch signer.check(named, now: now) {
            case .valid(let c): credential = c
            case .expired: throw ApiError.participantExpired
            case .unknown: throw ApiError.unknownParticipant
            }
        } else if let cookie = cookies.credential(for: deckId) {
            credential = cookie
        } else if cookies.rejected {
            throw ApiError.unknownParticipant
        } else {
            throw ApiError.invalidField(
                code: "participant_required",
                message:
                    "Send a participant credential (POST /api/v1/decks/{deck}/participants mints one) or accept the session cookie."
            )
        }
        guard let identity = signer.identity(of: credential, deckId: deckId) else {
            throw ApiError.participantOtherDeck
        }
        if let admission = deck.access.admission {
            guard case .deck(_, admission) = credential.scope else { throw ApiError.accessRequired }
        }
        return identity
    }

    static func input(_ s: String?) throws -> SwipeInput {
        guard let s else { return .api }
        guard let i = SwipeInput(rawValue: s) else {
            throw ApiError.invalidField(code: "invalid_input", message: "input must be one of: drag, button, key, api.")
        }
        return i
    }
}
