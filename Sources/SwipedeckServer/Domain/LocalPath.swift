/// Whether a string is a path on this server, safe to put in a `Location` header or an
/// `href`/`src`: never another site, however a browser or a proxy reads it.
///
/// Browsers are lenient with URLs: they drop tabs and newlines anywhere in them, read `\` as `/`,
/// and take `//host` (and so `/\host`, `/<TAB>/host`, `\\host`) as "another host, same scheme".
/// A local path is therefore accepted only when, as written and after percent-decoding (repeated
/// while it changes, up to `decodingRounds` times, so `%255C` cannot hide a `%5C`), it:
/// - starts with `/`;
/// - holds no `//` anywhere, no `\`;
/// - holds no control character (U+0000–U+001F, U+007F–U+009F) and no whitespace;
/// - is at most `maxLength` characters as written.
/// Pure and total.
public enum LocalPath {
    /// Percent-decoding rounds checked. Default 3: a value is decoded once by the form or query
    /// parser before it gets here, and nothing in the app decodes twice more; a string still
    /// changing after three rounds is refused as deliberately obscured.
    public static let decodingRounds = 3

    /// Whether `s` is a safe in-app path of at most `maxLength` characters.
    public static func isSafe(_ s: String, maxLength: Int = 500) -> Bool {
        guard s.count <= maxLength else { return false }
        var form = s
        for _ in 0...decodingRounds {
            guard isPlainSafe(form) else { return false }
            let decoded = percentDecoded(form)
            if decoded == form { return true }
            form = decoded
        }
        return false
    }

    /// The rules on one form of the string, without decoding.
    static func isPlainSafe(_ s: String) -> Bool {
        guard s.hasPrefix("/"), !s.contains("//"), !s.contains("\\") else { return false }
        return !s.unicodeScalars.contains { scalar in
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.properties.isWhitespace
        }
    }

    /// `%XX` sequences replaced by their byte; invalid sequences kept as written; bytes that do
    /// not form UTF-8 become U+FFFD (which the rules then see as an ordinary character).
    static func percentDecoded(_ s: String) -> String {
        let bytes = Array(s.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x25, i + 2 < bytes.count, let high = hexValue(bytes[i + 1]),
                let low = hexValue(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
