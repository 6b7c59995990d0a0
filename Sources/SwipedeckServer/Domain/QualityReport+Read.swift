import SwipePhysics

extension QualityReport {
    /// Swipes per database read while the report is built.
    static let pageSize = 5000

    /// The deck's report from its live swipes (and, for accuracy, every swipe's first decision) (read in pages, as the exports read them), cards
    /// and exclusions; participants named by pseudonym (`ParticipantNames`).
    public static func read(_ deck: Deck, store: any Store, names: ParticipantNames) async throws -> QualityReport {
        let cards = try await store.allCards(deckId: deck.id)
        var votes: [QualityVote] = []
        let flipped = try await store.firstDirections(deckId: deck.id)
        var firsts: [String: [Int64: Decision]] = [:]
        var after: Int64 = 0
        while true {
            let rows = try await store.swipePage(deckId: deck.id, after: after, limit: pageSize)
            guard let last = rows.last else { break }
            for row in rows {
                let shown = names.shown(row.swipe.participantId, deckId: deck.id)
                // Storage order is decision order: the first row on a card, as it was before any flip.
                if firsts[shown]?[row.swipe.cardId] == nil {
                    firsts[shown, default: [:]][row.swipe.cardId] = flipped[row.swipe.id] ?? row.swipe.direction
                }
                guard row.swipe.undoneAt == nil else { continue }
                var vote = QualityVote(row.swipe, counts: deck.countedInputs)
                vote.participant = shown
                votes.append(vote)
            }
            after = last.cursor
        }
        let excluded = Set(
            try await store.exclusionStates(deckId: deck.id).excluded.map { names.shown($0, deckId: deck.id) })
        return QualityReport(
            deck: deck, cards: cards, votes: votes, excluded: excluded, settings: deck.qualitySettings,
            firstDecisions: firsts)
    }
}
