/// Where known-answer cards are dealt: a page of cards in the deck's order, with known-answer
/// cards brought forward so that a participant meets them at the deck's share (and, in
/// `training` mode, first). Pure: the caller passes what the participant decided and which of
/// the deck's known-answer cards they have not decided yet.
public enum KnownAnswerDealing {
    /// How many of the first `dealt` cards a participant is dealt should be known-answer cards:
    /// the training cards first (`training` mode: every one of the first `trainingCards`), then
    /// `knownShare` of the cards after them, rounded down (so 10 % is the 10th, 20th, … card).
    public static func wanted(_ dealt: Int, settings: QualitySettings) -> Int {
        let training = settings.mode == .training ? min(dealt, settings.trainingCards) : 0
        let after = dealt - training
        return training + Int((settings.knownShare * Double(after)).rounded(.down))
    }

    /// `page` (the participant's next cards in the deck's order) with known-answer cards moved or
    /// added so that, counting the `decided` cards before it of which `knownDecided` were
    /// known-answer ones, each card dealt keeps the count of known-answer cards at `wanted`.
    /// A known-answer card due is taken from later on the page, else from `spare` (the
    /// participant's undecided known-answer cards off the page, in deck order); one not due waits
    /// behind the page's ordinary cards; when either kind runs out the page goes on in order. Every card of `page` stays, in its order, so the page's cursor
    /// (its last card in the deck's order) is unchanged; the result is longer than `page` by the
    /// cards taken from `spare`, none of which is on the page, so no card is dealt twice.
    public static func deal(
        page: [Card], spare: [Card], decided: Int, knownDecided: Int, settings: QualitySettings,
        isKnown: (Card) -> Bool
    ) -> [Card] {
        var rest = page[...]
        var extra = spare[...]
        let onPage = Set(page.map(\.id))
        extra = extra.filter { !onPage.contains($0.id) }[...]
        var out: [Card] = []
        var known = knownDecided
        while !rest.isEmpty {
            let due = known < wanted(decided + out.count + 1, settings: settings)
            if due, let i = rest.firstIndex(where: isKnown) {
                out.append(rest.remove(at: i))
                known += 1
            } else if due, let card = extra.popFirst() {
                out.append(card)
                known += 1
            } else {
                // Not due: an ordinary card first if the page has one, so known-answer cards keep
                // to their share however the owner listed them.
                let i = due ? rest.startIndex : rest.firstIndex { !isKnown($0) } ?? rest.startIndex
                let card = rest.remove(at: i)
                if isKnown(card) { known += 1 }
                out.append(card)
            }
        }
        return out
    }
}
