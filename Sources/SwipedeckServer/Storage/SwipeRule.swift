/// Every rule a swipe meets, in the order it meets them, and the storage half of them decided
/// here, once, for both engines.
///
/// Before the transaction, in `SwipeService.submit` (they read the deck's settings, not the
/// stored swipes, so concurrency cannot break them):
/// 1. The `Idempotency-Key` is well formed (`SwipeService.checkedKey`).
/// 2. The participant's credential acts on the deck (`SwipeService.identity`) and has budget
///    left (`SwipeService.takeDecision`).
/// 3. The deck is open (`deckClosed`); the direction is one of `Decision.directions`; the input is
///    a `SwipeInput`; `decisionMs` lies within a day.
/// 4. The card is the deck's and not archived (`Catalog.card`).
/// 5. A trace passes the physics (`validate`, which flags a machine-like one
///    `SuspectReason.machineLikeTrace`); a swipe without one needs a deck that allows buttons
///    and a direction its profile enables.
///
/// Inside the transaction, from the facts the engine read (`decide`), in this order:
/// 6. Key: a stored swipe under the same key is replayed when its fingerprint
///    (`SwipeFingerprint`) matches, else refused `idempotencyMismatch`.
/// 7. Live: one live swipe per participant and card (`alreadySwiped`).
/// 8. Quota: fewer live swipes in the deck than the deck's quota (`quotaReached`); a swipe made
///    in a match room has none (`quota(deck:inRoom:)`).
/// 9. Pace: with an origin, a decision faster than a person's is stored suspect (`HumanPace`).
/// 10. The swipe records the card's revision it was made on; the participant's aggregate row
///     counts it; with an origin that names a network, the participant's first decision in the
///     deck records where and when they joined (the input of `LockstepClusters`, whose flags
///     `ClusterGuard` applies at read time).
///
/// `AppDatabase.applySwipe` and `PostgresStore.writeBatch` read the facts (one query each, or
/// one per batch) and write what `decide` returns; neither checks a rule of its own.
enum SwipeRule {
    /// What an engine read inside the transaction before deciding one swipe.
    struct Facts {
        /// The stored swipe under the item's idempotency key (its id), if any.
        var existing: Swipe?
        /// Whether the participant has a live (not undone) swipe on the card.
        var liveOnCard: Bool
        /// The participant's aggregate row in the deck (zeros when there is none).
        var participant: ParticipantState
        /// Creation times of the participant's latest swipes in the deck, newest first (the first
        /// two are read); read only for an item with an origin (the pace rules).
        var recent: [Double]
        /// The card's current revision (nil for a card that is gone).
        var revision: Int?
    }

    /// Where and when a participant joined a deck (`participantOrigins`): kept only for their
    /// first decision there.
    struct Join: Equatable {
        var network: String
        /// Seconds since 1970: the credential's minting, else the swipe's arrival.
        var at: Double
    }

    /// What to do with one swipe.
    enum Verdict: Equatable {
        /// The same request was stored before under its key: answer with the stored swipe.
        case replay(Swipe)
        /// A rule refused it: store nothing.
        case refuse(StoreError)
        /// Store `swipe` (its pace flags and card revision set), the participant's aggregate row
        /// as `participant`, and the join record when there is one.
        case create(Swipe, participant: ParticipantState, join: Join?)

        /// The answer the writer's caller gets.
        var outcome: SwipeOutcome {
            switch self {
            case .replay(let swipe): return .replayed(swipe)
            case .refuse(let error): return .refused(error)
            case .create(let swipe, _, _): return .created(swipe)
            }
        }
    }

    /// The quota rule 8 holds a swipe to: the deck's per-person quota (`Deck.quota`), or none for
    /// a swipe made in a match room. A room decides together: it finishes when every member has
    /// decided every card of its round, so a member's share of the deck cannot stop it (it would
    /// never finish, nor reach its closest cards or a second round). The quota shares a deck's
    /// cards among people deciding alone; room swipes still count in its results.
    static func quota(deck quota: Int?, inRoom: Bool) -> Int? {
        inRoom ? nil : quota
    }

    /// Rules 6–10 for `swipe` with the deck's `quota` and, for paced items, its `origin`.
    /// Pure: the same facts give the same verdict on every engine.
    static func decide(_ swipe: Swipe, quota: Int?, origin: SwipeWriter.Origin?, facts: Facts) -> Verdict {
        if let existing = facts.existing {
            return existing.requestHash == swipe.requestHash ? .replay(existing) : .refuse(.idempotencyMismatch)
        }
        if facts.liveOnCard { return .refuse(.alreadySwiped) }
        if let quota, facts.participant.live >= quota { return .refuse(.quotaReached(quota)) }
        var swipe = swipe
        if let origin,
            let reason = HumanPace.suspectReason(
                input: swipe.input, now: swipe.createdAt, mintedAt: origin.mintedAt, previous: facts.recent)
        {
            swipe.suspect = true
            swipe.suspectReason = reason.rawValue
        }
        swipe.cardRevision = facts.revision
        let participant = facts.participant.counting(swipe.kind, 1)
        let join = origin.flatMap { o in o.network.map { Join(network: $0, at: o.mintedAt ?? swipe.createdAt) } }
        return .create(swipe, participant: participant, join: join)
    }
}
