import Hummingbird

/// The participant credentials a browser's request carried, checked: its device credential
/// (`sd_pid`) and its admissions to decks that take invited people only (`sd_d<deck id>`).
public struct ParticipantCookies: Sendable {
    /// The device credential; each open deck derives its own identity from it.
    public var device: ParticipantCredential?
    /// Admissions by deck id.
    public var decks: [Int64: ParticipantCredential] = [:]
    /// The request carried a participant cookie this server did not issue (forged, altered,
    /// expired, retired, or signed with another secret).
    public var rejected = false

    public init(
        device: ParticipantCredential? = nil, decks: [Int64: ParticipantCredential] = [:], rejected: Bool = false
    ) {
        self.device = device
        self.decks = decks
        self.rejected = rejected
    }

    /// The credential acting on deck `deckId`: its admission, else the device's.
    public func credential(for deckId: Int64) -> ParticipantCredential? {
        decks[deckId] ?? device
    }

    /// The name of the cookie holding an admission to deck `deckId`.
    public static func deckCookieName(_ deckId: Int64) -> String {
        "sd_d\(deckId)"
    }

    /// The cookie that admits a browser to deck `deckId` with `token`, for the token's lifetime.
    static func deckCookie(_ deckId: Int64, _ token: String) -> Cookie {
        Cookie(
            name: deckCookieName(deckId), value: token, maxAge: Int(ParticipantSigner.deckLifetime), path: "/",
            httpOnly: true, sameSite: .lax)
    }
}
