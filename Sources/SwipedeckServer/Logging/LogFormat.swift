/// How log lines are written (`--log-format`, `SWIPEDECK_LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// swift-log's plain lines on standard error (the default).
    case text
    /// One JSON object per line on standard error (`JSONLogHandler`), plus a request id
    /// (`X-Request-Id`) and one access line per request (`RequestLogMiddleware`), for log collectors.
    case json
}
