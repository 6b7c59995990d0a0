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
    private let secret: [UInt8]

    /// - Parameter secret: at least 16 bytes (the server generates 32 random bytes on first run
    ///   and keeps them in the database, or takes a configured one).
    public init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    /// A fresh signed id minted at `now` (seconds since 1970).
    public func mint(now: Double) -> String {
        var generator = SystemRandomNumberGenerator()
        let millis = UInt64(max(0, now * 1000)) & 0xFFFF_FFFF_FFFF
        let random = String(format: "%016llx", generator.next() as UInt64) + String(format: "%04x", UInt16.random(in: 0...UInt16.max, using: &generator))
        return sign(body: "p" + String(format: "%012llx", millis) + random)
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

    private func mac(_ body: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(("participant:" + body).utf8), using: SymmetricKey(data: secret))
        return code.prefix(12).map { String(format: "%02x", $0) }.joined()
    }
}
