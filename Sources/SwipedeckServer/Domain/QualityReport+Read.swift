extension QualityReport {
    /// Swipes per database read while the report is built.
    static let pageSize = 5000

    /// The deck's report from its live swipes (read in pages, as the exports read them), cards
    /// and exclusions; participants named by pseudonym (`ParticipantNames`).
    public static func read(_ deck: Deck, store: any Store, names: ParticipantNames) async throws -> QualityReport {
        let cards = try await store.allCards(deckId: deck.id)
        var votes: [QualityVote] = []
        var after: Int64 = 0
        while true {
            let rows = try await store.swipePage(deckId: deck.id, after: after, limit: pageSize)
            guard let last = rows.last else { break }
            for row in rows where row.swipe.undoneAt == nil {
                var vote = QualityVote(row.swipe, counts: deck.countedInputs)
                vote.participant = names.shown(vote.participant, deckId: deck.id)
                votes.append(vote)
            }
            after = last.cursor
        }
        let excluded = Set(
            try await store.exclusionStates(deckId: deck.id).excluded.map { names.shown($0, deckId: deck.id) })
        return QualityReport(deck: deck, cards: cards, votes: votes, excluded: excluded, settings: deck.qualitySettings)
    }
}
