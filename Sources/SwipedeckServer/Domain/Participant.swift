/// An anonymous person (browser cookie) or a program (API `participant` field).
public struct Participant: Sendable, Hashable, Codable {
    /// 1–64 characters of `[A-Za-z0-9_-]`.
    public var id: String
    /// `browser` or `api`.
    public var kind: String
    public var createdAt: Double

    /// Whether `s` is a well-formed participant id.
    public static func isValidId(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64 && s.utf8.allSatisfy { b in
            (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 95
        }
    }
}
