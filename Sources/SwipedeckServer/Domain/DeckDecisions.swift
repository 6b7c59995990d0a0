import Foundation
import Logging
import Synchronization

/// Notices cards and decks that reach a verdict under their deck's stop rule, after the commit of
/// the swipes that decided them: records each once as a deck event (`card_decided`, one per
/// card; `deck_decided`, one per deck) and posts its notice (`card.decided`, `deck.decided`).
///
/// It follows every write that can change a deck's results (`DeckChanges.listen`): swipes through
/// the API or the page's forms, undos, flips, exclusions (the owner's, a lockstep cluster's, the
/// quality rule's), settings (a new rule may decide cards at once) and, on PostgreSQL, the other
/// servers' writes. The API's swipe handlers also await a check, so their 201 follows the record.
/// Every server checks; the store's unique key (`recordOnce`) lets one
/// insert win, and only the server whose insert won posts the notice, so each is told once. A
/// verdict is recorded the first time it holds: a later undo that reopens the card records
/// nothing more. Checks of one deck never overlap: swipes that commit during a check mark the
/// deck, and one more check follows (a burst costs two results computations, not one per swipe).
/// Decks without a rule cost nothing.
public final class DeckDecisions: Sendable {
    private let store: any Store
    private let notices: any DeckNoticeSink
    private let logger: Logger
    /// Deck id → whether swipes committed during the check now running (absent: none running).
    private let checking = Mutex<[Int64: Bool]>([:])
    /// "deck id|key" of events known to be recorded (here or by another server): not inserted again.
    private let recorded = Mutex<Set<String>>([])

    private let catalog: Catalog
    private let clock: @Sendable () -> Double
    /// Deck id → slug, for the decks marked changed (a slug is read once per deck and start).
    private let slugs = Mutex<[Int64: String]>([:])

    public init(
        store: any Store, catalog: Catalog, notices: any DeckNoticeSink, logger: Logger,
        clock: @escaping @Sendable () -> Double
    ) {
        self.store = store
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

    /// The data of a `card.decided` notice.
    struct CardDecided: Encodable {
        let deck: String
        let card: Int64
        let title: String
        let state: CardVerdict
        let likes: Int
        let votes: Int
    }

    /// The data of a `deck.decided` notice.
    struct DeckDecided: Encodable {
        let deck: String
        let decidedCards: Int
        let activeCards: Int
        let topKnown: [Int64]?
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

    /// Records and posts what is newly decided on the deck.
    func check(_ deck: Deck, now: Double) async {
        do {
            let report = try await store.results(for: deck)
            var told: [DeckNotice] = []
            for card in report.cards where !card.archived {
                guard let state = card.state, state.isDecided else { continue }
                let payload = CardDecided(
                    deck: deck.slug, card: card.cardId, title: card.title, state: state, likes: card.likes,
                    votes: card.total)
                if try await recordOnce(deck, .cardDecided, key: "card:\(card.cardId)", payload, now: now) {
                    told.append(try DeckNotice(kind: .cardDecided, deckId: deck.id, at: now, payload: payload))
                }
            }
            if let decision = report.decision, decision.deckDecided {
                let payload = DeckDecided(
                    deck: deck.slug, decidedCards: decision.decidedCards, activeCards: decision.activeCards,
                    topKnown: decision.topKnown)
                if try await recordOnce(deck, .deckDecided, key: "deck", payload, now: now) {
                    told.append(try DeckNotice(kind: .deckDecided, deckId: deck.id, at: now, payload: payload))
                }
            }
            if !told.isEmpty { await notices.post(told) }
        } catch {
            // The swipe stands; the next swipe on the deck checks again.
            logger.error("decisions not checked", metadata: ["deck": "\(deck.slug)", "error": "\(error)"])
        }
    }

    /// Records the event once; true when this call recorded it.
    private func recordOnce<Payload: Encodable>(
        _ deck: Deck, _ kind: DeckEventKind, key: String, _ payload: Payload, now: Double
    ) async throws -> Bool {
        let memo = "\(deck.id)|\(key)"
        if recorded.withLock({ $0.contains(memo) }) { return false }
        let detail = String(decoding: try JSONCoding.shared.encode(payload), as: UTF8.self)
        let added = try await store.recordOnce(deckId: deck.id, kind: kind, key: key, detail: detail, now: now)
        recorded.withLock { _ = $0.insert(memo) }
        return added
    }
}
