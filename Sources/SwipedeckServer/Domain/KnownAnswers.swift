import Foundation
import SwipePhysics
import Synchronization

/// What a swiper is told after a swipe on a known-answer card in `feedback` or `training` mode
/// (the swipe's 201 body carries it as `feedback`).
public struct KnownAnswerFeedback: Sendable, Hashable, Encodable {
    /// Whether the swipe's direction is the card's answer.
    public var correct: Bool
    /// The card's answer.
    public var answer: Decision
}

/// Known-answer cards at swipe time: the feedback a swipe earns, and the flag rule checked after
/// each stored swipe on a known-answer card (`QualityReport.isFlagged`). A participant who
/// becomes flagged by that swipe is posted once as `participant.flagged` (the swipe that makes the
/// rule hold posts it; the ones after, with the rule still holding, do not) and, when the deck
/// excludes flagged participants, excluded with the owner's own exclusion (its event included),
/// unless the owner lifted an exclusion of theirs before. Undo and flip are not checked again (the
/// quality report reads the live swipes whenever it is read).
public final class KnownAnswers: Sendable {
    private let store: any Store
    private let notices: any DeckNoticeSink
    /// The notice names the participant as the owner's pages do.
    private let names: ParticipantNames
    /// The deck's answers by card and its active known-answer cards in deck order, with the deck
    /// revision they were read at (every card edit bumps it, so a newer deck reads them again).
    private let cache = Mutex<[Int64: Known]>([:])

    struct Known {
        var revision: Int
        var byCard: [Int64: Decision]
        var active: [Card]
    }

    /// The reason stored with an automatic exclusion (the owner's list shows it).
    public static let exclusionReason = "Accuracy on known-answer cards under the deck's threshold."

    /// Most of a participant's swipes read to count their known-answer ones: the quota's maximum
    /// (`DeckInput.maxCards`), so every decision a participant can make is read.
    static let historyLimit = DeckInput.maxCards

    public init(store: any Store, notices: any DeckNoticeSink, names: ParticipantNames) {
        self.store = store
        self.notices = notices
        self.names = names
    }

    /// The deck's known answers by card id, archived cards included (read once per deck revision).
    public func answers(of deck: Deck) async throws -> [Int64: Decision] {
        try await known(deck).byCard
    }

    /// The deck's active known-answer cards, in deck order.
    func knownCards(of deck: Deck) async throws -> [Card] {
        try await known(deck).active
    }

    private func known(_ deck: Deck) async throws -> Known {
        if let cached = cache.withLock({ $0[deck.id] }), cached.revision == deck.revision { return cached }
        let cards = try await store.allCards(deckId: deck.id).filter { $0.answer != nil }
        let known = Known(
            revision: deck.revision,
            byCard: Dictionary(uniqueKeysWithValues: cards.compactMap { c in c.answer.map { (c.id, $0) } }),
            active: cards.filter { $0.archivedAt == nil })
        cache.withLock { $0[deck.id] = known }
        return known
    }

    /// After `swipe` was stored (committed) on `deck`: its feedback, if the deck's mode gives one
    /// for this swipe, and the flag rule applied to the participant. Nil for a card without an answer.
    public func afterSwipe(_ swipe: Swipe, deck: Deck, now: Double) async throws -> KnownAnswerFeedback? {
        let byCard = try await answers(of: deck)
        guard let answer = byCard[swipe.cardId] else { return nil }
        let settings = deck.qualitySettings
        let history = try await store.history(
            deckId: deck.id, participant: swipe.participantId, limit: Self.historyLimit)
        // The tally before this swipe, then with it.
        var before = KnownAnswerTally()
        for entry in history where entry.swipe.id != swipe.id {
            guard let a = byCard[entry.swipe.cardId] else { continue }
            before.add(answer: a, decided: entry.swipe.direction)
        }
        var after = before
        after.add(answer: answer, decided: swipe.direction)
        let right = swipe.direction == answer
        if QualityReport.isFlagged(after, settings: settings) && !QualityReport.isFlagged(before, settings: settings) {
            try await flag(swipe.participantId, deck: deck, correct: after.correct, known: after.known, now: now)
        }
        // The swipe itself is in the history, so the participant's earlier decisions are the rest.
        return settings.givesFeedback(dealtBefore: history.count - 1) ? .init(correct: right, answer: answer) : nil
    }

    private func flag(_ participant: String, deck: Deck, correct: Int, known: Int, now: Double) async throws {
        let settings = deck.qualitySettings
        var excluded = false
        if settings.excludeFlagged {
            let states = try await store.exclusionStates(deckId: deck.id)
            if !states.excluded.contains(participant) && !states.lifted.contains(participant) {
                try await store.setExcluded(
                    deck: deck, participant: participant, true, reason: Self.exclusionReason, by: nil, now: now)
                excluded = true
            }
        }
        let payload = FlaggedPayload(
            participant: names.shown(participant, deckId: deck.id), knownAnswers: known, correct: correct,
            accuracy: Double(correct) / Double(known), threshold: settings.accuracyThreshold, excluded: excluded)
        await notices.post([try DeckNotice(kind: .participantFlagged, deckId: deck.id, at: now, payload: payload)])
    }

    /// `participant.flagged`'s data.
    struct FlaggedPayload: Encodable {
        let participant: String
        let knownAnswers: Int
        let correct: Int
        let accuracy: Double
        let threshold: Double
        /// Whether this flag excluded the participant (the deck excludes flagged participants).
        let excluded: Bool
    }
}

extension KnownAnswers {
    /// The participant's next cards with known-answer cards dealt at the deck's share
    /// (`KnownAnswerDealing.deal`); `page` as it is on a deck without known-answer cards or for
    /// a reader who is no participant.
    public func dealt(_ page: [Card], deck: Deck, participant: String?) async throws -> [Card] {
        guard let participant, !page.isEmpty else { return page }
        let byCard = try await answers(of: deck)
        guard !byCard.isEmpty else { return page }
        let history = try await store.history(deckId: deck.id, participant: participant, limit: Self.historyLimit)
        let decided = Set(history.map(\.swipe.cardId))
        let onPage = Set(page.map(\.id))
        var spare: [Card] = []
        for card in try await knownCards(of: deck) where !decided.contains(card.id) && !onPage.contains(card.id) {
            spare.append(card)
        }
        return KnownAnswerDealing.deal(
            page: page, spare: spare, decided: decided.count, knownDecided: decided.filter { byCard[$0] != nil }.count,
            settings: deck.qualitySettings, seed: participant, isKnown: { byCard[$0.id] != nil })
    }
}
