/// A person with an account who builds decks and reads their results.
public struct Owner: Sendable, Hashable, Codable {
    /// Row id (the store assigns it when the owner is created).
    public var id: Int64
    /// 1–64 characters of `[A-Za-z0-9._-]`, unique.
    public var name: String
    /// bcrypt hash (cost `AppConfiguration.passwordCost`) of the password; never the password.
    public var passwordHash: String
    /// Seconds since 1970.
    public var createdAt: Double

    /// Whether `s` is a well-formed owner name.
    public static func isValidName(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy { b in
                (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 46 || b == 95
            }
    }

    /// Whether `s` passes `PasswordPolicy` (10–200 characters, not a common password).
    public static func isAcceptablePassword(_ s: String) -> Bool {
        PasswordPolicy.problem(s) == nil
    }
}
