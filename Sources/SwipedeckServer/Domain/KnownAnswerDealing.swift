import Crypto

/// Where known-answer cards are dealt: a page of cards in the deck's order, with known-answer
/// cards brought forward so that a participant meets them at the deck's share (and, in
/// `training` mode, first), each at a place of its stretch nobody can foretell. Pure: the caller
/// passes what the participant decided, which of the deck's known-answer cards they have not
/// decided yet, and the participant's identity, which seeds the places.
public enum KnownAnswerDealing {
    /// How many of the first `dealt` cards a participant is dealt should be known-answer cards:
    /// the training cards first (`training` mode: every one of the first `trainingCards`), then
    /// `knownShare` of the cards after them. The cards after training fall into stretches of
    /// 1 / `knownShare` cards (10 at 10 %), and the k-th known-answer card falls at a place in the
    /// k-th stretch drawn for this participant (`place`): with a share of 10 % somewhere among
    /// cards 1–10, then among 11–20, …, each participant's places drawn apart, so one known-answer
    /// card's place (which feedback reveals) tells nothing of the next one's. The count stays
    /// within one card of `knownShare` × the cards.
    ///
    /// - Parameter seed: the participant's identity (`ParticipantSigner.identity`, an HMAC under
    ///   the server's secret, so a participant cannot compute their own places).
    public static func wanted(_ dealt: Int, settings: QualitySettings, seed: String) -> Int {
        let training = settings.mode == .training ? min(dealt, settings.trainingCards) : 0
        let after = Double(dealt - training)
        let reached = settings.knownShare * after
        let full = reached.rounded(.down)
        // Stretch `full + 1` is under way: its card is due once the share reached its place in it.
        let due = reached - full >= place(Int(full) + 1, seed: seed) ? 1 : 0
        return training + Int(full) + due
    }

    /// Where in its stretch the `k`-th known-answer card falls, in (0, 1]: the first 53 bits of
    /// SHA-256(seed + ":" + k) as a fraction (1 is the stretch's last card, the place every
    /// participant's card had before places were drawn).
    static func place(_ k: Int, seed: String) -> Double {
        let digest = Array(SHA256.hash(data: Array("\(seed):\(k)".utf8)))
        let bits = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 11
        return Double(bits + 1) / Double(UInt64(1) << 53)
    }

    /// `page` (the participant's next cards in the deck's order) with known-answer cards moved or
    /// added so that, counting the `decided` cards before it of which `knownDecided` were
    /// known-answer ones, each card dealt keeps the count of known-answer cards at `wanted` (for
    /// the participant `seed`).
    /// A known-answer card due is taken from later on the page, else from `spare` (the
    /// participant's undecided known-answer cards off the page, in deck order); one not due waits
    /// behind the page's ordinary cards; when either kind runs out the page goes on in order. Every card of `page` stays, in its order, so the page's cursor
    /// (its last card in the deck's order) is unchanged; the result is longer than `page` by the
    /// cards taken from `spare`, none of which is on the page, so no card is dealt twice.
    public static func deal(
        page: [Card], spare: [Card], decided: Int, knownDecided: Int, settings: QualitySettings, seed: String,
        isKnown: (Card) -> Bool
    ) -> [Card] {
        var rest = page[...]
        var extra = spare[...]
        let onPage = Set(page.map(\.id))
        extra = extra.filter { !onPage.contains($0.id) }[...]
        var out: [Card] = []
        var known = knownDecided
        while !rest.isEmpty {
            let due = known < wanted(decided + out.count + 1, settings: settings, seed: seed)
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
