import Foundation
import TestSupport
import Testing

/// Nothing holds a thread of Swift's concurrency pool waiting: not the product, not a test helper.
///
/// The pool has one thread per core (two on a 2-core machine, where CI runs). A call that blocks
/// one — waiting for a child process or a pipe, sleeping a thread, a semaphore — stalls every task
/// queued behind it; a few at once stalled the live-results tests for a minute in the full run.
/// Blocking work belongs on a thread of its own: `OffPool.run`, `ChildProcess.run` (Tests/TestSupport),
/// `RawHTTPConnection.run`, or NIO's blocking pool in the product (`NIOThreadPool.singleton`).
/// This suite reads the sources for the blocking calls; the pool watchdog (`PoolWatchdog`, run by
/// `make swift-test`) catches at run time what a reading cannot, such as a long loop that never
/// suspends.
@Suite("Pool hygiene")
struct PoolHygieneTests {
    /// The repository read: this checkout, or the one `SWIPEDECK_HYGIENE_ROOT` names (to show the
    /// reading fails on an older tree: `git worktree add /tmp/old 05b04be` and point it there).
    static let root =
        ProcessInfo.processInfo.environment["SWIPEDECK_HYGIENE_ROOT"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Calls that block the calling thread until something else happens.
    static let blocking = [
        "waitUntilExit", "readDataToEndOfFile", "DispatchSemaphore", "Thread.sleep", "usleep(", "DispatchGroup()",
    ]

    /// Where blocking calls may stand: the helpers that run them on a thread of their own.
    static let allowed: Set<String> = [
        "Tests/TestSupport/OffPool.swift", "Tests/TestSupport/PoolWatchdog.swift",
        "Tests/SwipedeckServerTests/RawHTTPConnection.swift",
        // This file names the calls it looks for.
        "Tests/SwipedeckServerTests/PoolHygieneTests.swift",
        // A synchronous command (`swipedeck agreement`) reading its input on the main thread, no pool's.
        "Sources/swipedeck/Agreement.swift",
    ]

    /// A source file: its path relative to the repository, and its text.
    struct SourceFile: Sendable {
        let path: String
        let text: String
    }

    /// Every `.swift` file under `folder` (relative to the repository), as (relative path, text).
    static func sources(_ folder: String) throws -> [SourceFile] {
        let base = root.appendingPathComponent(folder)
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: base.path])
        }
        var found: [SourceFile] = []
        for case let url as URL in walker where url.pathExtension == "swift" {
            let relative = String(url.path.dropFirst(root.path.count + 1))
            found.append(SourceFile(path: relative, text: try String(contentsOf: url, encoding: .utf8)))
        }
        return found
    }

    /// The lines of `text` that call one of `calls`, comments left out, as "path:line: text".
    static func offending(_ path: String, _ text: String, _ calls: [String]) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { number, line in
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { return nil }
            let uncommented = code.components(separatedBy: "//").first ?? code
            guard calls.contains(where: { uncommented.contains($0) }) else { return nil }
            return "\(path):\(number + 1): \(code)"
        }
    }

    @Test("no test helper blocks a pool thread: blocking calls only in the helpers that run them off the pool")
    func testsDoNotBlock() async throws {
        // A second of string scanning in a debug build: off the pool, as the suite asks of others.
        let files = try await OffPool.run { try Self.sources("Tests") }
        #expect(files.count > 50, "the walk found the test sources")
        let found = try await OffPool.run {
            files.filter { !Self.allowed.contains($0.path) }.flatMap { Self.offending($0.path, $0.text, Self.blocking) }
        }
        #expect(found.isEmpty, "blocking calls on the pool:\n\(found.joined(separator: "\n"))")
    }

    @Test("the product never blocks a pool thread either (no thread sleeps, semaphores, process waits or future waits)")
    func productDoesNotBlock() async throws {
        let files = try await OffPool.run { try Self.sources("Sources") }
        #expect(files.count > 50, "the walk found the sources")
        // `.wait()` blocks on an NIO future; the product awaits `.get()` instead.
        let found = try await OffPool.run {
            files.filter { !Self.allowed.contains($0.path) }.flatMap {
                Self.offending($0.path, $0.text, Self.blocking + [".wait()"])
            }
        }
        #expect(found.isEmpty, "blocking calls in the product:\n\(found.joined(separator: "\n"))")
    }

    @Test("the reading finds what it looks for")
    func readingFinds() {
        let sample = "let a = 1\n// Thread.sleep in a comment\nprocess.waitUntilExit()\nfuture.wait()  // here\n"
        #expect(Self.offending("x.swift", sample, Self.blocking) == ["x.swift:3: process.waitUntilExit()"])
        #expect(Self.offending("x.swift", sample, [".wait()"]) == ["x.swift:4: future.wait()  // here"])
    }
}
