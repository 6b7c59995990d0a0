import Crypto
import Foundation

/// What a stored secret is for: the participant-signing secret, a deck's access secret (the
/// `unlisted` link's key and the `allowList` signature key), a webhook's signing secret. Each
/// purpose derives apart, so one stored value never gives two purposes the same secret.
public enum SecretPurpose: String, Sendable, Hashable, CaseIterable {
    case participantSigning = "participant-signing"
    case deckAccess = "deck-access"
    case webhook = "webhook"
    /// A deck's presenter link (`PresenterLink`): derived from the deck and the link's generation, never stored.
    case presenter = "presenter"
}

/// The server's secret key: 256 bits kept outside the database (a key file, by default
/// `<data-dir>/secret.key`, or `SWIPEDECK_SECRET_KEY`), without which no secret the database
/// holds can be used. A backup, `swipedeck copy` or a stolen database file therefore carries no
/// usable secret: no participant credential can be forged, no secret link or allow-list
/// signature made, no webhook delivery signed.
///
/// The database stores each secret in one of two forms, and `reveal` gives the secret itself:
/// - a **seed** (any stored value without the sealed prefix: what the server stores for every
///   secret made since secrets left the database): the secret is derived as
///   HMAC-SHA256(key, purpose + ":" + seed), 64 hex digits (`whsec_` before them for a webhook);
/// - **sealed** (`sealed:1:` + base64 of AES-GCM nonce, ciphertext and tag, the purpose as
///   associated data): a secret kept as it was — those a database held in clear before, so
///   the credentials, links and signatures already made with them stay valid — and every secret
///   after a key rotation (`swipedeck key rotate` reseals each under the new key).
public struct SecretKey: Sendable, Hashable {
    /// The key's 32 bytes.
    let bytes: [UInt8]

    /// The prefix of a sealed secret.
    public static let sealedPrefix = "sealed:1:"

    /// - Parameter bytes: exactly 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// A key from its text form: 64 hex digits (surrounding whitespace ignored).
    public init?(hex text: String) {
        let digits = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        for i in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[i..<i + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.init(bytes: bytes)
    }

    /// A fresh random key.
    public static func random() -> SecretKey {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<4).flatMap { _ in withUnsafeBytes(of: (generator.next() as UInt64)) { Array($0) } }
        // 32 bytes by construction.
        return SecretKey(bytes: bytes)!
    }

    /// The key's text form: 64 hex digits.
    public var hex: String { Hex.string(bytes) }

    /// What the database keeps to recognise the key (and refuse another at start-up): the first
    /// 128 bits of HMAC-SHA256(key, "swipedeck secret key check") as hex. It reveals nothing of the key.
    public var check: String {
        Hex.string(
            HMAC<SHA256>.authenticationCode(for: Array("swipedeck secret key check".utf8), using: symmetric).prefix(16))
    }

    /// A stored secret could not be opened: sealed under another key, or altered.
    public struct Unreadable: Error, CustomStringConvertible {
        public let purpose: SecretPurpose
        public var description: String {
            "A stored \(purpose.rawValue) secret cannot be opened with this secret key (sealed under another key, or altered)."
        }
    }

    /// The secret `stored` stands for (`SecretKey` above: derived from a seed, or unsealed).
    /// - Throws: `Unreadable` for a sealed value this key did not seal.
    public func reveal(_ stored: String, for purpose: SecretPurpose) throws(Unreadable) -> String {
        guard stored.hasPrefix(Self.sealedPrefix) else { return derive(stored, for: purpose) }
        // A malformed box, another key's or an altered one are one refusal: the secret cannot be had.
        guard let data = Data(base64Encoded: String(stored.dropFirst(Self.sealedPrefix.count))),
            let box = try? AES.GCM.SealedBox(combined: data),
            let plain = try? AES.GCM.open(box, using: symmetric, authenticating: Array(purpose.rawValue.utf8)),
            let text = String(data: plain, encoding: .utf8)
        else { throw Unreadable(purpose: purpose) }
        return text
    }

    /// The access secret of `deck` (its `unlisted` link's key, its `allowList` signature key);
    /// nil when it has none.
    public func accessSecret(of deck: Deck) throws(Unreadable) -> String? {
        deck.accessSecret.isEmpty ? nil : try reveal(deck.accessSecret, for: .deckAccess)
    }

    /// `secret` sealed under this key for `purpose` (a fresh random nonce each time).
    public func seal(_ secret: String, for purpose: SecretPurpose) -> String {
        // AES-GCM with a 32-byte key and a random nonce cannot fail.
        let box = try! AES.GCM.seal(Array(secret.utf8), using: symmetric, authenticating: Array(purpose.rawValue.utf8))
        return Self.sealedPrefix + (box.combined ?? Data()).base64EncodedString()
    }

    /// The secret a seed stands for.
    func derive(_ seed: String, for purpose: SecretPurpose) -> String {
        let mac = Hex.string(
            HMAC<SHA256>.authenticationCode(for: Array("\(purpose.rawValue):\(seed)".utf8), using: symmetric))
        return purpose == .webhook ? "whsec_" + mac : mac
    }

    private var symmetric: SymmetricKey { SymmetricKey(data: bytes) }
}
