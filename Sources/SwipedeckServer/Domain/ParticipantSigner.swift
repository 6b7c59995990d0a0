import Crypto
import Foundation

/// Mints participant ids and recognises the ones this server minted.
///
/// A signed id is `<body>-<mac>`: `body` is `p`, the mint time in milliseconds since 1970 as 12
/// hex digits, and 80 random bits as 20 hex digits; `mac` is the first 96 bits of
/// HMAC-SHA256(secret, "participant:" + body) as 24 hex digits (58 characters in all, inside the
/// 64 of `Participant.isValidId`). Only a holder of the secret can make one, so a client cannot
/// name a participant into existence; checking needs no database read.
public struct ParticipantSigner: Sendable {
    /// The HMAC key's bytes (`SymmetricKey` is not `Sendable`: one is made per use, cheaply).
    private let secret: [UInt8]
    private static let context = Array("participant:".utf8)

    /// - Parameter secret: at least 16 bytes (the server generates 32 random bytes on first run
    ///   and keeps them in the database, or takes a configured one).
    public init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    /// A fresh signed id minted at `now` (seconds since 1970).
    public func mint(now: Double) -> String {
        var generator = SystemRandomNumberGenerator()
        let millis = UInt64(max(0, now * 1000)) & 0xFFFF_FFFF_FFFF
        let random = Hex.string(generator.next() as UInt64, width: 16) + Hex.string(UInt64(generator.next() as UInt16), width: 4)
        return sign(body: "p" + Hex.string(millis, width: 12) + random)
    }

    /// `body` with its signature appended. `body` must be 1–39 characters of `[A-Za-z0-9_]`
    /// (tests sign readable bodies such as `alice` with a configured secret).
    public func sign(body: String) -> String {
        body + "-" + mac(body)
    }

    /// Whether `id` carries a valid signature of this server (compared in constant time).
    public func verify(_ id: String) -> Bool {
        guard let dash = id.lastIndex(of: "-") else { return false }
        let body = String(id[..<dash])
        let given = Array(id.utf8[id.utf8.index(after: dash)...])
        let want = Array(mac(body).utf8)
        guard !body.isEmpty, given.count == want.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, want) { difference |= a ^ b }
        return difference == 0
    }

    /// When a minted id was minted (seconds since 1970); nil for ids whose body carries no time.
    public static func mintTime(of id: String) -> Double? {
        let utf8 = Array(id.utf8)
        guard utf8.count == 58, utf8[0] == UInt8(ascii: "p"), let millis = UInt64(String(decoding: utf8[1..<13], as: UTF8.self), radix: 16)
        else { return nil }
        return Double(millis) / 1000
    }

    /// The first 96 bits of HMAC-SHA256(secret, "participant:" + body), as 24 hex digits.
    private func mac(_ body: String) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        hmac.update(data: Self.context)
        hmac.update(data: Array(body.utf8))
        return Hex.string(hmac.finalize().prefix(12))
    }
}
