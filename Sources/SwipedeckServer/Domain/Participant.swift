/// An anonymous person (browser cookie) or a program (API `participant` field).
public struct Participant: Sendable, Hashable, Codable {
    /// 1–64 characters of `[A-Za-z0-9_-]`.
    public var id: String
    public var kind: Kind
    public var createdAt: Double

    /// Who a participant is, from the input of their first swipe; the raw value is the stored text.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Someone swiping in the deck page (drag, button or key).
        case browser
        /// A program posting swipes.
        case api

        /// The kind of a participant whose first swipe came by `input`.
        public init(firstInput input: SwipeInput) {
            self = input == .api ? .api : .browser
        }
    }

    /// Whether `s` is a well-formed participant id.
    public static func isValidId(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 64
            && s.utf8.allSatisfy { b in
                (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 95
            }
    }
}
