/// A participant's aggregate row in one deck (`deckParticipants`; zeros when there is none): what
/// `SwipeRule` decides the quota from, and what both engines' aggregates (`SwipeAggregates`,
/// `PostgresAggregates`) move a participant between masks and in or out of the results by.
struct ParticipantState: Equatable {
    /// Whether an exclusion is in force (the participant's swipes are out of the results).
    var excluded = false
    /// Live swipes by kind, indexed by `SwipeKind.code`.
    var counts = [0, 0, 0, 0, 0]

    /// Live swipes of every kind.
    var live: Int { counts.reduce(0, +) }
    /// Bit `1 << code` set for each kind the participant has a live swipe of (`participantMasks`).
    var mask: Int { counts.indices.reduce(0) { counts[$1] > 0 ? $0 | 1 << $1 : $0 } }

    /// The row with one live swipe of `kind` more (`sign` 1: a swipe stored) or less (-1: undone).
    func counting(_ kind: SwipeKind, _ sign: Int) -> ParticipantState {
        var new = self
        new.counts[kind.code] += sign
        return new
    }
}
