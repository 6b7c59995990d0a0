import Foundation
import Synchronization

/// Blocking work for the tests, kept off Swift's concurrency pool.
///
/// Swift Testing runs every test of the process at once on the cooperative pool, which has one
/// thread per core: two on a 2-core machine. A test that blocks one of them — waits for a child
/// process, sleeps a thread, reads a socket, or grinds through a long loop without suspending —
/// stalls every other test's tasks with it; with both held, timers, streams and polls of the
/// whole run stop (a live-results test once waited 57 s for an event due in 0.5 s). Such work
/// belongs here: on a thread of its own, awaited without holding a pool thread.
public enum OffPool {
    /// Runs `work` on a new thread and returns (or throws) what it did.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            // Big enough for a deep recursive walk (the default of a secondary thread is 512 KiB).
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}

/// A child process, awaited without blocking a pool thread (`Process.waitUntilExit` would).
public struct ChildProcess: Sendable {
    /// How it ended.
    public struct Ending: Sendable {
        /// The exit status (or the signal that ended it).
        public var status: Int32
        /// What it wrote to standard output.
        public var output: Data
        /// What it wrote to standard error.
        public var errors: Data
        /// Standard output as text.
        public var text: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as text.
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// Runs `executable` with `arguments` (in `directory`, if given; with `environment` added to
    /// this process's), feeding it `input`, and returns how it ended. Output goes to temporary
    /// files, not pipes: a child that writes more than a pipe holds never waits for a reader.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        input: Data? = nil
    ) async throws -> Ending {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer {
            // Best effort: a leftover scratch folder in /tmp is harmless.
            try? FileManager.default.removeItem(at: scratch)
        }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        for url in [outURL, errURL, inURL] { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        if let input { try input.write(to: inURL) }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let inHandle = try FileHandle(forReadingFrom: inURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inHandle
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { ended in continuation.resume(returning: ended.terminationStatus) }
            do {
                try launching.withLock { _ in try process.run() }
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try out.close()
        try err.close()
        try inHandle.close()
        return Ending(status: status, output: try Data(contentsOf: outURL), errors: try Data(contentsOf: errURL))
    }

    /// Held while a child is launched: Foundation's `Process.run` on Linux crashed in a memmove when
    /// two tests launched children at the same instant (seen in the full run), so launches take turns;
    /// the children then run, and are awaited, side by side.
    public static let launching = Mutex<Void>(())

    /// The first `name` on `PATH`, or nil.
    public static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
