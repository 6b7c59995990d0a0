/// The kinds of swipe a deck's ranking can count. Every live swipe falls in exactly one
/// `SwipeKind`; suspect kinds are never counted, so only these three can be chosen.
public enum CountedInput: String, Sendable, Hashable, Codable, CaseIterable {
    /// A drag (or an API swipe) whose trace the server re-validated and found human.
    case drag
    /// A button press or key press at a human pace.
    case button
    /// An API swipe without a trace (a program's decision).
    case api

    /// What a deck counts unless its owner says otherwise: validated drags plus buttons and keys
    /// (keyboard and switch users must count).
    public static let defaultSet: Set<CountedInput> = [.drag, .button]

    /// The kinds in declaration order, comma-separated (the stored form).
    public static func stored(_ set: Set<CountedInput>) -> String {
        allCases.filter(set.contains).map(\.rawValue).joined(separator: ",")
    }

    /// The set `stored` wrote; nil for a text that is empty or names an unknown kind (a column
    /// this server did not write, which must not be read as some default).
    public static func set(stored text: String) -> Set<CountedInput>? {
        var set = Set<CountedInput>()
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let kind = CountedInput(rawValue: String(name)) else { return nil }
            set.insert(kind)
        }
        return set.isEmpty ? nil : set
    }
}
