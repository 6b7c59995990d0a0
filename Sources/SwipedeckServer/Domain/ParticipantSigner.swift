import Crypto
import Foundation

/// A participant credential this server signed, checked and not expired. It is what a swiper
/// holds (the `sd_pid` cookie, or the `participant` an API client sends); it is never stored and
/// never shown. What is stored and shown is the identity derived from it for one deck
/// (`ParticipantSigner.identity`), which acts on nothing.
public struct ParticipantCredential: Sendable, Hashable {
    /// Where a credential acts.
    public enum Scope: Sendable, Hashable {
        /// A browser's cookie: one device, a different unlinkable identity in each deck.
        case device
        /// An API client's credential, minted for one deck (by its id) and refused on any other.
        case deck(Int64)
    }

    public let scope: Scope
    /// When it was minted (seconds since 1970); nil for the readable bodies tests sign.
    public let mintedAt: Double?
    /// The signed body: identities are derived from it.
    let body: String
}

/// The participant who acts on one deck: the stored id and, for the pace rules, when the
/// credential behind it was minted.
public struct ParticipantIdentity: Sendable, Hashable {
    /// `q` and 32 hex digits (`ParticipantSigner.identity`): stored in every row, shown to owners.
    public let id: String
    public let mintedAt: Double?
}

/// Mints participant credentials, recognises the ones this server minted, and derives from a
/// credential the per-deck identity that is stored and shown.
///
/// A credential is `<body>-<mac>`, `mac` being the first 96 bits of
/// HMAC-SHA256(secret, "credential:" + body) as 24 hex digits. A minted body is a scope letter,
/// 8 hex digits of deck id (0 for a device), the mint time in milliseconds since 1970 as 12 hex
/// digits and 64 random bits as 16 hex digits: `b…` (a browser's device credential) or `d…` (an
/// API credential for one deck), 62 characters in all, inside the 64 of `Participant.isValidId`.
/// Only a holder of the secret can make one, and checking needs no database read.
///
/// Ids of the first signed format (HMAC over "participant:" + body, stored as they were and
/// published in exports) are no credentials any more: their swipes keep counting, but nobody can
/// act with them. Stored ids of that age are shown as `pseudonym(of:deckId:)`.
public struct ParticipantSigner: Sendable {
    /// The HMAC key's bytes (`SymmetricKey` is not `Sendable`: one is made per use, cheaply).
    private let secret: [UInt8]

    /// How long a browser's device credential acts, seconds: 365 days, the cookie's max-age
    /// (Chromium caps cookies at 400 days). A person back after a year is a new participant.
    public static let deviceLifetime: Double = 365 * 24 * 3600
    /// How long an API credential acts, seconds: 30 days. A program deciding for one person mints
    /// once per session of work; a banked pile of credentials goes stale within a month.
    public static let deckLifetime: Double = 30 * 24 * 3600

    /// - Parameter secret: at least 16 bytes (the server generates 32 random bytes on first run
    ///   and keeps them in the database, or takes a configured one).
    public init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    /// A fresh credential minted at `now` (seconds since 1970) for `scope`.
    public func mint(_ scope: ParticipantCredential.Scope, now: Double) -> String {
        var generator = SystemRandomNumberGenerator()
        let millis = UInt64(max(0, now * 1000)) & 0xFFFF_FFFF_FFFF
        let (letter, deck): (String, UInt64) =
            switch scope {
            case .device: ("b", 0)
            case .deck(let id): ("d", UInt64(truncatingIfNeeded: id) & 0xFFFF_FFFF)
            }
        return sign(body: letter + Hex.string(deck, width: 8) + Hex.string(millis, width: 12) + Hex.string(generator.next() as UInt64, width: 16))
    }

    /// `body` with its signature appended. Bodies of any other shape than a minted one (tests
    /// sign readable ones such as `alice` with a configured secret) are device credentials
    /// without a mint time, so without expiry; the server itself signs only minted bodies.
    public func sign(body: String) -> String {
        body + "-" + mac("credential:", body)
    }

    /// What a presented credential is.
    public enum Check: Sendable, Equatable {
        case valid(ParticipantCredential)
        /// Signed by this server, but past its lifetime.
        case expired
        /// Malformed, forged, altered, signed with another secret, or of the retired format.
        case unknown
    }

    /// Checks `token` at `now`: its signature (compared in constant time), then its lifetime.
    public func check(_ token: String, now: Double) -> Check {
        guard Participant.isValidId(token), let dash = token.lastIndex(of: "-") else { return .unknown }
        let body = String(token[..<dash])
        let given = Array(token.utf8[token.utf8.index(after: dash)...])
        let want = Array(mac("credential:", body).utf8)
        guard !body.isEmpty, given.count == want.count else { return .unknown }
        var difference: UInt8 = 0
        for (a, b) in zip(given, want) { difference |= a ^ b }
        guard difference == 0 else { return .unknown }
        let utf8 = Array(body.utf8)
        guard utf8.count == 37, utf8[0] == UInt8(ascii: "b") || utf8[0] == UInt8(ascii: "d"),
            let deck = UInt64(String(decoding: utf8[1..<9], as: UTF8.self), radix: 16),
            let millis = UInt64(String(decoding: utf8[9..<21], as: UTF8.self), radix: 16)
        else {
            return .valid(ParticipantCredential(scope: .device, mintedAt: nil, body: body))
        }
        let mintedAt = Double(millis) / 1000
        let device = utf8[0] == UInt8(ascii: "b")
        if now - mintedAt > (device ? Self.deviceLifetime : Self.deckLifetime) { return .expired }
        return .valid(ParticipantCredential(scope: device ? .device : .deck(Int64(deck)), mintedAt: mintedAt, body: body))
    }

    /// The identity `credential` acts as in deck `deckId`: `q` and the first 128 bits of
    /// HMAC-SHA256(secret, "identity:" + deck + ":" + body) as hex. The same credential gives the
    /// same identity in a deck every time and unlinkable ones in two decks; nothing leads back
    /// from an identity to its credential. Nil when the credential was minted for another deck.
    public func identity(of credential: ParticipantCredential, deckId: Int64) -> ParticipantIdentity? {
        if case .deck(let id) = credential.scope, id != deckId & 0xFFFF_FFFF { return nil }
        return ParticipantIdentity(id: "q" + mac("identity:\(deckId):", credential.body, bytes: 16), mintedAt: credential.mintedAt)
    }

    /// How owners and exports name a stored participant of deck `deckId`. Identities are shown as
    /// they are; ids stored before identities existed (retired credentials, shared by every deck
    /// they swiped) as `x` and 80 bits of HMAC-SHA256(secret, "pseudonym:" + deck + ":" + id), so
    /// an export never shows a former credential nor links one person across two decks.
    public func pseudonym(of stored: String, deckId: Int64) -> String {
        Self.isIdentity(stored) ? stored : "x" + mac("pseudonym:\(deckId):", stored, bytes: 10)
    }

    /// Whether `id` has the shape of a derived identity (`q` and 32 hex digits).
    public static func isIdentity(_ id: String) -> Bool {
        let utf8 = Array(id.utf8)
        return utf8.count == 33 && utf8[0] == UInt8(ascii: "q") && utf8.dropFirst().allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The first `bytes` bytes of HMAC-SHA256(secret, context + body), as hex digits.
    private func mac(_ context: String, _ body: String, bytes: Int = 12) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: Array(context.utf8))
        hmac.update(data: Array(body.utf8))
        return Hex.string(hmac.finalize().prefix(bytes))
    }
}
