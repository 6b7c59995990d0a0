/// Who is managing decks on a request.
public enum OwnerIdentity: Sendable, Hashable {
    /// The server-wide admin token: manages every deck.
    case admin
    /// A signed-in owner (`sessionHash` set, from the session cookie) or a program with one of the
    /// owner's API tokens (`sessionHash` nil).
    case owner(id: Int64, name: String, sessionHash: String?)

    /// Whether this identity may read private results of, and change, `deck`.
    public func manages(_ deck: Deck) -> Bool {
        switch self {
        case .admin: return true
        case .owner(let id, _, _): return deck.ownerId == id
        }
    }

    /// The owner's id; nil for the admin token.
    public var ownerId: Int64? {
        if case .owner(let id, _, _) = self { return id }
        return nil
    }

    /// The key an owner's live streams are counted under together, whatever their addresses
    /// (`StreamLimiter`); nil for the admin token, the operator's own.
    public var streamHolder: String? { ownerId.map { "owner:\($0)" } }
}
