import Foundation

/// What an owner password must be, checked where a password is chosen (`swipedeck owner add`,
/// `swipedeck owner password`, the change-password page), never at sign-in (an older password
/// still signs in until it is changed).
///
/// Rules, each with the sentence shown when broken:
/// - at least `minLength` (10) and at most `maxLength` (200) characters (bcrypt reads 72 bytes;
///   longer ones still work);
/// - not the owner's name, and not one of `CommonPasswords.list` — compared lower-cased, also
///   after dropping digits and punctuation at either end, so `Password2024!` counts as
///   `password`;
/// - not the owner's name inside it, nor the product's (`swipedeck`);
/// - at least `minDistinct` (5) different characters, and not a shorter piece repeated
///   (`abcabcabca`, `carolcarol`, `passwordpassword`): such a password is as strong as its piece.
/// Pure.
public enum PasswordPolicy {
    /// Fewest characters. 10: with the sign-in limits, guessing is slow; length is what helps most.
    public static let minLength = 10
    /// Most characters. 200: a bound on work and storage, far beyond any pass phrase.
    public static let maxLength = 200
    /// Fewest different characters. 5: `aaaaaaaaab`-like passwords are guessed first.
    public static let minDistinct = 5

    /// Why `password` is refused for the owner `name`, as a sentence; nil when it is acceptable.
    public static func problem(_ password: String, name: String? = nil) -> String? {
        if password.count < minLength { return "Use at least \(minLength) characters." }
        if password.count > maxLength { return "Use at most \(maxLength) characters." }
        let lower = password.lowercased()
        if let name, lower == name.lowercased() { return "Use a password other than your username." }
        if Set(lower).count < minDistinct { return "Use at least \(minDistinct) different characters." }
        if isRepetition(Array(lower)) {
            return "Do not repeat a shorter piece: the password is only as strong as the piece."
        }
        if let name, name.count >= 3, lower.contains(name.lowercased()) {
            return "Leave your username out of your password."
        }
        if lower.contains("swipedeck") { return "Leave the name of this app out of your password." }
        let core = lower.trimmingCharacters(in: CharacterSet.letters.inverted)
        if CommonPasswords.list.contains(lower) || (!core.isEmpty && CommonPasswords.list.contains(core))
            || (name.map { !core.isEmpty && core == $0.lowercased() } ?? false)
        {
            return "This password is among the most common ones (or one with digits added); choose another."
        }
        return nil
    }

    /// Whether `s` is a shorter piece written again and again (the last time possibly cut short).
    static func isRepetition(_ s: [Character]) -> Bool {
        for period in stride(from: 1, through: s.count / 2, by: 1)
        where (period..<s.count).allSatisfy({ s[$0] == s[$0 - period] }) {
            return true
        }
        return false
    }
}
