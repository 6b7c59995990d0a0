/// What a row of a deck's event log (`deckEvents`) records; the raw value is the stored `kind`.
public enum DeckEventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The owner changed the deck's settings; the detail holds them all.
    case settings
    /// An owner adopted a deck only the admin token managed.
    case adopted
    case cardAdded = "card_added"
    /// A card's content changed: a new revision.
    case cardEdited = "card_edited"
    case cardArchived = "card_archived"
    case cardRestored = "card_restored"
    case cardMoved = "card_moved"
    /// Cards appended from a CSV or JSON import.
    case cardsImported = "cards_imported"
    /// The owner excluded a participant from the results, or lifted the exclusion.
    case participantExcluded = "participant_excluded"
    case participantIncluded = "participant_included"
    /// A card reached a verdict under the deck's stop rule, or another one than it had
    /// (`DecisionLedger`: one per revision).
    case cardDecided = "card_decided"
    /// A decided card is deciding again (its votes undone, its voters excluded; one per revision).
    case cardUndecided = "card_undecided"
    /// Every card (or the top k) is decided (one per revision).
    case deckDecided = "deck_decided"
    /// A decided deck is no longer (one per revision).
    case deckUndecided = "deck_undecided"

    /// `cardArchived` or `cardRestored`.
    public static func archiving(_ archived: Bool) -> DeckEventKind { archived ? .cardArchived : .cardRestored }

    /// `participantExcluded` or `participantIncluded`.
    public static func excluding(_ excluded: Bool) -> DeckEventKind {
        excluded ? .participantExcluded : .participantIncluded
    }
}
