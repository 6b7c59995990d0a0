import Foundation
import Logging

/// Writes each log message as one JSON object on one line of standard error:
/// `{"time":"2026-11-26T00:10:00.123Z","level":"info","label":"swipedeck","message":"…", …metadata}`.
/// Metadata keys become top-level fields (nested values as JSON); `time`, `level`, `label` and
/// `message` win over metadata of the same name.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    let label: String

    public init(label: String) {
        self.label = label
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        metadataProvider.map { fields.merge($0.get()) { _, new in new } }
        event.metadata.map { fields.merge($0) { _, new in new } }
        var object: [String: Any] = fields.mapValues(Self.json)
        // A log line's own time: the one place that reads the wall clock, by design.
        object["time"] = Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        // Encoding [String: String|Array|Dictionary] cannot fail; an empty line is never written.
        guard
            var line = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        line.append(10)
        FileHandle.standardError.write(line)
    }

    static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let s): return s
        case .stringConvertible(let c): return c.description
        case .array(let a): return a.map(json)
        case .dictionary(let d): return d.mapValues(json)
        }
    }
}
