/// A deck's results as owners read them with rooms: each card's `roomMatches`, and the results
/// of one room's members.
extension Store {
    /// `results(for:)` with, per card, how many rooms have it as a match now.
    public func resultsWithRooms(for deck: Deck) async throws -> ResultsReport {
        var report = try await results(for: deck)
        let counts = try await roomMatchCounts(deckId: deck.id)
        if counts.isEmpty { return report }
        for i in report.cards.indices { report.cards[i].roomMatches = counts[report.cards[i].cardId] ?? 0 }
        return report
    }

    /// The results of room `room`'s members (everyone who ever joined it): their live swipes in the
    /// deck, ranked and counted as the deck's results are (the deck's counted inputs; suspect
    /// swipes and excluded participants left out). No rejections or decision times: those are
    /// the deck's.
    public func roomResults(for deck: Deck, room: Room) async throws -> ResultsReport {
        let excluded = try await exclusionStates(deckId: deck.id).excluded
        var tally = ResultsTally()
        var counting = Set<String>()
        for participant in try await roomParticipants(roomId: room.id) where !excluded.contains(participant) {
            for entry in try await history(deckId: deck.id, participant: participant, limit: Int(Int32.max)) {
                let s = entry.swipe
                tally.add(
                    card: s.cardId, direction: s.direction.rawValue, kind: s.kind, count: 1,
                    counted: deck.countedInputs)
                if let c = s.kind.countedAs, deck.countedInputs.contains(c) { counting.insert(participant) }
            }
        }
        var report = ResultsReport(
            deck: deck, cards: try await allCards(deckId: deck.id), tally: tally, participants: counting.count,
            medianDecisionMs: nil, rejections: [:], excludedParticipants: 0, excludedSwipes: 0)
        let matched = Set(try await roomMatches(roomId: room.id).map(\.card))
        for i in report.cards.indices { report.cards[i].roomMatches = matched.contains(report.cards[i].cardId) ? 1 : 0 }
        return report
    }
}
