import ArgumentParser
import Foundation

/// The process environment, read strictly: a variable that is set but cannot be used is a
/// start-up error in a sentence naming it, never silently ignored.
struct EnvironmentSettings {
    let values: [String: String]

    init(_ values: [String: String] = ProcessInfo.processInfo.environment) {
        self.values = values
    }

    /// The variable's text, nil when unset.
    func string(_ name: String) -> String? { values[name] }

    /// A number (`Double`), nil when unset.
    func double(_ name: String, example: String) throws -> Double? {
        guard let text = values[name] else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, value >= 0 else {
            throw ValidationError("\(name) is '\(text)': it must be a number of 0 or more, such as \(example).")
        }
        return value
    }

    /// A whole number, nil when unset.
    func int(_ name: String, example: String) throws -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw ValidationError("\(name) is '\(text)': it must be a whole number of 0 or more, such as \(example).")
        }
        return value
    }

    /// A switch: `1`, `true` or `yes` (on), `0`, `false` or `no` (off); nil when unset.
    func flag(_ name: String) throws -> Bool? {
        guard let text = values[name] else { return nil }
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "1", "true", "yes": return true
        case "0", "false", "no": return false
        default: throw ValidationError("\(name) is '\(text)': it must be 1 (on) or 0 (off).")
        }
    }

    /// One of an enum's raw values (compared in lower case), nil when unset.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws -> T?
    where T.RawValue == String {
        guard let text = values[name] else { return nil }
        guard let value = T(rawValue: text.lowercased()) else {
            throw ValidationError(
                "\(name) is '\(text)': it must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return value
    }

    /// A secret from `NAME`, or from the file named by `NAME_FILE` (a mounted secret: systemd
    /// credentials, Docker or Kubernetes secrets), one trailing newline trimmed; nil when neither
    /// is set.
    /// - Throws: a sentence when both are set, or the file cannot be read or is empty.
    func secret(_ name: String) throws -> String? {
        let fileVariable = name + "_FILE"
        guard let path = values[fileVariable] else { return values[name] }
        if values[name] != nil {
            throw ValidationError("Both \(name) and \(fileVariable) are set: keep one of them.")
        }
        return try Self.readSecret(path: path, variable: fileVariable)
    }

    /// The file's text without its trailing line break(s).
    /// - Throws: a sentence naming `variable` when it is unreadable or holds nothing.
    static func readSecret(path: String, variable: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError(
                "\(variable) names \(path), which cannot be read: check the path and its permissions.")
        }
        var text = String(decoding: data, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        if text.isEmpty { throw ValidationError("\(variable) names \(path), which is empty: put the secret in it.") }
        return text
    }
}
