/// A room's code: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L), read
/// case-insensitively; the link is `/r/{code}`.
public enum RoomCode {
    /// 31 characters: digits 2–9 and the letters but I, L and O.
    public static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    /// Characters in a code: 31⁶ ≈ 887 million codes, so a guess hits one of 10,000 open
    /// rooms about once in 88,000 tries (and a room is read by its members only).
    public static let length = 6

    /// A fresh random code.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }

    public static func random() -> String {
        var g = SystemRandomNumberGenerator()
        return random(using: &g)
    }

    /// A code as a person typed it into a form: any case, with spaces, dashes, or the `+` a GET
    /// form sends for a space (the query is read as a URI's, not a form's); nil when it cannot be one.
    public static func typed(_ text: String) -> String? {
        normalized(text.filter { !$0.isWhitespace && $0 != "-" && $0 != "+" })
    }

    /// `text` as a code (upper-cased), or nil when it cannot be one.
    public static func normalized(_ text: String) -> String? {
        let upper = text.uppercased()
        guard upper.count == length, upper.allSatisfy({ alphabet.contains($0) }) else { return nil }
        return upper
    }
}
