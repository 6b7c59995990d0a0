import Foundation
import Logging
import Synchronization

/// Keeps a deck's recorded decisions true to its results under its stop rule: after the commit
/// of any change, records each card's and the deck's verdict when it differs from the last one
/// recorded (`DecisionLedger`: a deck event per revision — `card_decided` or `card_undecided`,
/// `deck_decided` or `deck_undecided` — carrying the revision and the previous state) and posts
/// its notice (`card.decided`, `card.undecided`, `deck.decided`, `deck.undecided`); a deck whose
/// rule says so (`StopRule.closeWhenDecided`) is closed by the server that records its first decision.
///
/// It follows every write that can change a deck's results (`DeckChanges.listen`): swipes through
/// the API or the page's forms, undos, flips, exclusions and inclusions (the owner's, a lockstep
/// group's, the quality rule's), settings (a new rule may decide cards at once) and, on
/// PostgreSQL, the other servers' writes. The API's swipe handlers also await a check, so their
/// 201 follows the record. Every server checks; the store's unique key (`recordOnce`) lets one
/// insert of a revision win, and only the server whose insert won posts the notice, so each is
/// told once; a server whose insert lost reads the records again and checks once more (at most
/// `attempts` times), so a revision recorded from an older view is followed by the current one.
/// A card that was decided and no longer is (votes undone, its voters excluded) is told as
/// `card.undecided`; one decided otherwise (yes, then no) as a new `card.decided` with the
/// previous state. Checks of one deck never overlap: swipes that commit during a check mark the
/// deck, and one more check follows (a burst costs two results computations, not one per swipe).
/// Decks without a rule cost nothing (what they recorded under an earlier rule stays as it was).
///
/// A decision is checked for concerted fakes before it is recorded: when a card or the deck is
/// about to be decided, the deck's lockstep groups are checked at once (`ClusterGuard`, not at its
/// interval) and the decision recomputed without those it excludes — so a crowd of fakes never
/// decides a card, never closes the deck and is never told in a notice that results read a moment
/// later would contradict. A card's or the deck's return to deciding needs no such check.
public final class DeckDecisions: Sendable {
    private let store: any Store
    private let clusters: ClusterGuard
    private let notices: any DeckNoticeSink
    private let logger: Logger
    /// Deck id → whether swipes committed during the check now running (absent: none running).
    private let checking = Mutex<[Int64: Bool]>([:])
    /// Checks of one deck after an insert lost to another server's, at most. Default 3.
    static let attempts = 3

    private let catalog: Catalog
    private let clock: @Sendable () -> Double
    /// Deck id → slug, for the decks marked changed (a slug is read once per deck and start).
    private let slugs = Mutex<[Int64: String]>([:])

    public init(
        store: any Store, catalog: Catalog, clusters: ClusterGuard, notices: any DeckNoticeSink, logger: Logger,
        clock: @escaping @Sendable () -> Double
    ) {
        self.store = store
        self.clusters = clusters
        self.catalog = catalog
        self.notices = notices
        self.logger = logger
        self.clock = clock
        store.changes.listen { [weak self] ids in
            guard let self else { return }
            for id in ids { Task { await self.changed(deckId: id) } }
        }
    }

    /// A write that may change the deck's results committed: checks it as it is now.
    func changed(deckId: Int64) async {
        do {
            let known = slugs.withLock { $0[deckId] }
            let slug: String
            if let known {
                slug = known
            } else {
                slug = try await store.deckSlug(id: deckId)
                slugs.withLock { $0[deckId] = slug }
            }
            await swipesStored(on: try await catalog.deck(slug), now: clock)
        } catch {
            // A deck deleted or renamed meanwhile: forget its slug; the next mark reads it again.
            slugs.withLock { $0[deckId] = nil }
            logger.debug("decisions not checked", metadata: ["deck": "\(deckId)", "error": "\(error)"])
        }
    }

    /// The data of a `card.decided` or `card.undecided` notice, and the detail of its deck event.
    struct CardDecided: Encodable {
        let deck: String
        let card: Int64
        let title: String
        /// `deciding` in a `card.undecided`.
        let state: CardVerdict
        let likes: Int
        let votes: Int
        /// 1 for the card's first decision, then one more for each change.
        let revision: Int
        /// The decision this revision replaces; null in revision 1.
        let previous: DecisionLedger.CardEntry?

        enum CodingKeys: String, CodingKey { case deck, card, title, state, likes, votes, revision, previous }

        /// Writes `previous` as null in revision 1 (a consumer reads one shape).
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(deck, forKey: .deck)
            try c.encode(card, forKey: .card)
            try c.encode(title, forKey: .title)
            try c.encode(state, forKey: .state)
            try c.encode(likes, forKey: .likes)
            try c.encode(votes, forKey: .votes)
            try c.encode(revision, forKey: .revision)
            try c.encode(previous, forKey: .previous)
        }
    }

    /// The data of a `deck.decided` or `deck.undecided` notice, and the detail of its deck event.
    struct DeckDecided: Encodable {
        let deck: String
        let decidedCards: Int
        let activeCards: Int
        let topKnown: [Int64]?
        let revision: Int
        /// The decision this revision replaces; null in revision 1.
        let previous: DecisionLedger.DeckEntry?

        enum CodingKeys: String, CodingKey { case deck, decidedCards, activeCards, topKnown, revision, previous }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(deck, forKey: .deck)
            try c.encode(decidedCards, forKey: .decidedCards)
            try c.encode(activeCards, forKey: .activeCards)
            try c.encode(topKnown, forKey: .topKnown)
            try c.encode(revision, forKey: .revision)
            try c.encode(previous, forKey: .previous)
        }
    }

    /// Call after swipes on `deck` (as the catalog has it now) committed; returns once checked, or
    /// at once when a check of the deck is running (it checks once more when it ends).
    public func swipesStored(on deck: Deck, now: @Sendable () -> Double) async {
        guard deck.stopRule.kind != .none else { return }
        let first = checking.withLock { running -> Bool in
            if running[deck.id] != nil {
                running[deck.id] = true
                return false
            }
            running[deck.id] = false
            return true
        }
        guard first else { return }
        repeat {
            await check(deck, now: now())
        } while marked(deck.id)
    }

    /// Whether swipes committed during the check that just ended (then it runs again); otherwise
    /// the deck's check ends.
    private func marked(_ deckId: Int64) -> Bool {
        checking.withLock { running -> Bool in
            if running[deckId] == true {
                running[deckId] = false
                return true
            }
            running[deckId] = nil
            return false
        }
    }

    /// Records and posts what changed on the deck since its last records.
    func check(_ deck: Deck, now: Double) async {
        do {
            for _ in 0..<Self.attempts {
                if try await !record(deck, now: now) { break }
            }
        } catch {
            // The swipe stands; the next change on the deck checks again.
            logger.error("decisions not checked", metadata: ["deck": "\(deck.slug)", "error": "\(error)"])
        }
    }

    /// One pass of `check`: true when an insert lost to another server's (read and check again).
    private func record(_ deck: Deck, now: Double) async throws -> Bool {
        var report = try await store.results(for: deck)
        let ledger = DecisionLedger(try await store.decisionEvents(deckId: deck.id))
        if Self.decides(report, ledger),
            try await clusters.check(deck, now: now, force: true).contains(where: \.excludes)
        {
            report = try await store.results(for: deck)
        }
        var told: [DeckNotice] = []
        var lost = false
        for card in report.cards where !card.archived {
            let state = card.state ?? .deciding
            guard let revision = ledger.revision(card: card.cardId, now: state) else { continue }
            let payload = CardDecided(
                deck: deck.slug, card: card.cardId, title: card.title, state: state, likes: card.likes,
                votes: card.total, revision: revision, previous: ledger.cards[card.cardId])
            let key = DecisionLedger.cardKey(card.cardId, revision: revision)
            if try await store.recordOnce(
                deckId: deck.id, kind: state.isDecided ? .cardDecided : .cardUndecided, key: key,
                detail: try Self.json(payload), now: now)
            {
                told.append(
                    try DeckNotice(
                        kind: state.isDecided ? .cardDecided : .cardUndecided, deckId: deck.id, at: now,
                        payload: payload))
            } else {
                lost = true
            }
        }
        if let decision = report.decision, let revision = ledger.deckRevision(decided: decision.deckDecided) {
            let payload = DeckDecided(
                deck: deck.slug, decidedCards: decision.decidedCards, activeCards: decision.activeCards,
                topKnown: decision.topKnown, revision: revision, previous: ledger.deck)
            let kind: DeckNoticeKind = decision.deckDecided ? .deckDecided : .deckUndecided
            if try await store.recordOnce(
                deckId: deck.id, kind: decision.deckDecided ? .deckDecided : .deckUndecided,
                key: DecisionLedger.deckKey(revision: revision), detail: try Self.json(payload), now: now)
            {
                told.append(try DeckNotice(kind: kind, deckId: deck.id, at: now, payload: payload))
                // The deck's first decision only: one undone and made again (by whoever) closes nothing
                // its owner opened since.
                if decision.deckDecided && revision == 1 && deck.stopRule.closeWhenDecided {
                    try await close(deck.slug, now: now)
                }
            } else {
                lost = true
            }
        }
        if !told.isEmpty { await notices.post(told) }
        return lost
    }

    /// Whether `report` decides a card or the deck that `ledger` has not recorded as decided.
    static func decides(_ report: ResultsReport, _ ledger: DecisionLedger) -> Bool {
        let card = report.cards.contains { card in
            guard !card.archived, let state = card.state, state.isDecided else { return false }
            return ledger.revision(card: card.cardId, now: state) != nil
        }
        let deck = report.decision.map { $0.deckDecided && ledger.deckRevision(decided: true) != nil } ?? false
        return card || deck
    }

    /// The settings event's detail of a deck its rule closed (`StopRule.closeWhenDecided`).
    static let closedDetail = #"{"open":false,"closedBy":"stopRule"}"#

    /// Closes a deck whose rule closes it once decided, as its owner's Lock would (the deck as
    /// stored now, so an edit made meanwhile stays); a deck closed already stays as it is.
    private func close(_ slug: String, now: Double) async throws {
        guard let current = try await store.deck(slug: slug), current.isOpen else { return }
        var patch = DeckPatch()
        patch.open = false
        _ = try await store.updateDeck(id: current.id, patch, by: nil, detail: { _ in Self.closedDetail }, now: now)
        catalog.invalidate(slug)
    }

    static func json<Payload: Encodable>(_ payload: Payload) throws -> String {
        String(decoding: try JSONCoding.shared.encode(payload), as: UTF8.self)
    }
}
