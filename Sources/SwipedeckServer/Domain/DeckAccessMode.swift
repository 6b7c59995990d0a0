/// Who may vote on a deck (the owner's choice; results say which mode is in force).
///
/// In every mode but `link` a participant must be *admitted* first: the page view or the API mint
/// that carries the mode's proof gets a credential for this deck (`ParticipantSigner.mint`), and
/// only such a credential acts on the deck (403 `access_required` otherwise).
public enum DeckAccessMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Anyone with the deck's link (`/d/{slug}`); listed on `/`.
    case link
    /// Anyone with the secret link `/d/{slug}?k=SECRET` (the deck's access secret); not listed.
    case unlisted
    /// One-time codes the owner prints or shares (`/d/{slug}?code=CODE`, or typed on the deck's
    /// page): one code is one participant, on any device.
    case codes
    /// External ids in links the owner's own system signs: `/d/{slug}?pid=ID&sig=SIG`, `SIG` the
    /// first 32 hex digits of HMAC-SHA256(access secret, "pid:" + ID): one external id is one
    /// participant, on any device.
    case allowList

    /// What admits a participant in this mode (nil: nothing needed).
    public var admission: ParticipantCredential.Admission? {
        switch self {
        case .link: return nil
        case .unlisted: return .secretLink
        case .codes: return .code
        case .allowList: return .external
        }
    }

    /// In words, for the owner's forms and the results.
    public var words: String {
        switch self {
        case .link: return "Anyone with the link"
        case .unlisted: return "Anyone with the secret link (not listed)"
        case .codes: return "People with a one-time code"
        case .allowList: return "Listed people, by signed links from your system"
        }
    }
}
