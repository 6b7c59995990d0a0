import Crypto
import Foundation

/// Random tokens and their stored form. Session cookies and API tokens are 256 random bits;
/// the database keeps only their SHA-256, so a copy of the database signs nobody in.
public enum Secret {
    /// 32 random bytes as 64 hex digits, after `prefix`.
    public static func token(prefix: String = "") -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + (0..<4).map { _ in Hex.string(generator.next() as UInt64, width: 16) }.joined()
    }

    /// Compares every byte, so timing does not reveal a matching prefix.
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = x.count ^ y.count
        for i in 0..<max(x.count, y.count) {
            difference |= Int((i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0))
        }
        return difference == 0
    }

    /// SHA-256 of the UTF-8 bytes, 64 hex digits.
    public static func sha256(_ text: String) -> String {
        Hex.string(SHA256.hash(data: Data(text.utf8)))
    }

    /// SHA-256 of raw bytes, 64 hex digits (image names).
    public static func sha256(bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// A readable password of 20 characters from an alphabet without look-alikes (~110 bits).
    public static func password() -> String {
        let alphabet = Array("abcdefghijkmnpqrstuvwxyzACDEFGHJKLMNPQRTUVWXYZ2345679")
        var generator = SystemRandomNumberGenerator()
        return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }
}
