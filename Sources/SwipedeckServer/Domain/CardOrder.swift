/// The order in which a deck deals its cards.
public enum CardOrder: String, Sendable, Hashable, Codable, CaseIterable {
    /// The owner's order (`position`).
    case listed
    /// A random order fixed per participant: the same person sees the same order after a reload,
    /// two people see different orders (position bias averages out across participants).
    case shuffled
    /// The cards that most need votes first, decided ones retired (`AdaptiveDeal`); recomputed on
    /// every page from the deck's counted votes.
    case adaptive
}
