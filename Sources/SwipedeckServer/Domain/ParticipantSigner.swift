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
        /// Minted for one deck (by its id) and refused on any other: an API client's, or a
        /// browser's admission to a deck that takes invited people only (`DeckAccessMode`).
        case deck(Int64, Admission)
    }

    /// What a deck credential was minted on (its body's first letter).
    public enum Admission: Character, Sendable, Hashable {
        /// Nothing: an open deck's API credential.
        case open = "d"
        /// The deck's secret link (`unlisted`).
        case secretLink = "u"
        /// A one-time code: the identity follows the code, not the credential.
        case code = "c"
        /// A signed external id: the identity follows the id, not the credential.
        case external = "e"
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
/// digits and a 64-bit subject as 16 hex digits: `b…` (a browser's device credential) or one of
/// the `Admission` letters (a credential for one deck), 62 characters in all, inside the 64 of
/// `Participant.isValidId`. The subject is random, except for a code or an external id, where it
/// is a keyed hash of it, so that one code (one external id) is one identity on any device.
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
    /// How far a credential's mint time may lie ahead of the checking server's clock, seconds:
    /// 5 minutes, for servers on one database whose clocks differ a little. A credential minted
    /// later than that is refused (`unknown`): this server never minted it, and a mint time far
    /// ahead would make it act for ever.
    public static let clockSkew: Double = 300

    /// - Parameter secret: at least 16 bytes (the server generates 32 random bytes on first run
    ///   and keeps them in the database, or takes a configured one).
    public init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    /// A fresh credential minted at `now` (seconds since 1970) for `scope`; `subject` is the code
    /// or external id of a `.code` / `.external` admission (ignored otherwise).
    public func mint(_ scope: ParticipantCredential.Scope, subject: String = "", now: Double) -> String {
        issue(scope, subject: subject, now: now).token
    }

    /// `mint`, with the credential the token stands for (what `check` would give back at `now`).
    public func issue(_ scope: ParticipantCredential.Scope, subject: String = "", now: Double) -> (
        token: String, credential: ParticipantCredential
    ) {
        var generator = SystemRandomNumberGenerator()
        let millis = UInt64(max(0, now * 1000)) & 0xFFFF_FFFF_FFFF
        let random = Hex.string(generator.next() as UInt64, width: 16)
        let body: String
        switch scope {
        case .device:
            body = "b" + Hex.string(0, width: 8) + Hex.string(millis, width: 12) + random
        case .deck(let id, let admission):
            let deck = Hex.string(UInt64(truncatingIfNeeded: id) & 0xFFFF_FFFF, width: 8)
            let tail =
                admission == .code || admission == .external
                ? mac("subject:\(id):\(admission.rawValue):", subject, bytes: 8) : random
            body = String(admission.rawValue) + deck + Hex.string(millis, width: 12) + tail
        }
        return (sign(body: body), ParticipantCredential(scope: scope, mintedAt: Double(millis) / 1000, body: body))
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
        /// Malformed, forged, altered, signed with another secret, of the retired format, or
        /// minted in the future (more than `clockSkew` ahead).
        case unknown
    }

    /// Checks `token` at `now`: its signature (compared in constant time), then its mint time,
    /// which must lie in the past (up to `clockSkew` ahead of `now`), then its lifetime.
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
        guard utf8.count == 37, let letter = body.first,
            letter == "b" || ParticipantCredential.Admission(rawValue: letter) != nil,
            let deck = UInt64(String(decoding: utf8[1..<9], as: UTF8.self), radix: 16),
            let millis = UInt64(String(decoding: utf8[9..<21], as: UTF8.self), radix: 16)
        else {
            return .valid(ParticipantCredential(scope: .device, mintedAt: nil, body: body))
        }
        let mintedAt = Double(millis) / 1000
        if mintedAt - now > Self.clockSkew { return .unknown }
        let admission = ParticipantCredential.Admission(rawValue: letter)
        if now - mintedAt > (admission == nil ? Self.deviceLifetime : Self.deckLifetime) { return .expired }
        let scope: ParticipantCredential.Scope = admission.map { .deck(Int64(deck), $0) } ?? .device
        return .valid(ParticipantCredential(scope: scope, mintedAt: mintedAt, body: body))
    }

    /// The identity `credential` acts as in deck `deckId`: `q` and the first 128 bits of
    /// HMAC-SHA256(secret, "identity:" + deck + ":" + body) as hex — of the letter and subject
    /// only for a code or an external id, so every credential minted on one code is one identity.
    /// The same credential gives the same identity in a deck every time and unlinkable ones in two
    /// decks; nothing leads back from an identity to its credential. Nil when the credential was
    /// minted for another deck.
    public func identity(of credential: ParticipantCredential, deckId: Int64) -> ParticipantIdentity? {
        var subject = credential.body
        if case .deck(let id, let admission) = credential.scope {
            if id != deckId & 0xFFFF_FFFF { return nil }
            if admission == .code || admission == .external {
                subject = String(admission.rawValue) + String(credential.body.suffix(16))
            }
        }
        return ParticipantIdentity(
            id: "q" + mac("identity:\(deckId):", subject, bytes: 16), mintedAt: credential.mintedAt)
    }

    /// The signature an `allowList` deck's link carries for external id `pid`: the first 32 hex
    /// digits of HMAC-SHA256(the deck's access secret, "pid:" + pid).
    public static func externalSignature(pid: String, accessSecret: String) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: Array(accessSecret.utf8)))
        hmac.update(data: Array(("pid:" + pid).utf8))
        return Hex.string(hmac.finalize().prefix(16))
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
        return utf8.count == 33 && utf8[0] == UInt8(ascii: "q")
            && utf8.dropFirst().allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The first `bytes` bytes of HMAC-SHA256(secret, context + body), as hex digits.
    private func mac(_ context: String, _ body: String, bytes: Int = 12) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: Array(context.utf8))
        hmac.update(data: Array(body.utf8))
        return Hex.string(hmac.finalize().prefix(bytes))
    }
}
