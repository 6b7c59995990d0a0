import NIOPosix
import Synchronization

/// Values built once per process for each key, however many ask at once: the first to ask starts
/// the build on NIO's blocking pool (building reads files and parses or compresses them: CPU and
/// disk that must not hold a concurrency thread), and everyone asking meanwhile or later awaits
/// that same build. The tests build hundreds of apps on one checkout, most of them at the same
/// instant; a cache filled only after each build would have them all build at once.
final class BuiltOnce<Value: Sendable>: Sendable {
    private let builds = Mutex<[String: Task<Value, any Error>]>([:])

    /// The value for `key`, built by `build` if nobody has started it yet. A build that threw
    /// throws again for its key (the files it read are the same).
    func value(_ key: String, _ build: @escaping @Sendable () throws -> Value) async throws -> Value {
        let task = builds.withLock { builds in
            if let started = builds[key] { return started }
            let started = Task { try await NIOThreadPool.singleton.runIfActive(build) }
            builds[key] = started
            return started
        }
        return try await task.value
    }
}
