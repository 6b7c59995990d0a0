import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Watches Swift's concurrency pool during a test run, from a thread of its own, and reports every
/// stall: a time in which a task made ready did not start.
///
/// Every `probeInterval` it makes a task ready and times how long the task takes to start. A pool
/// whose threads are all held by a blocking call or a long loop starts nothing, and everything
/// waiting on it — timers, streams, polls, other tests — waits too. A probe later than
/// `stallThreshold` is a stall: printed at once to standard error, with what the pool's threads
/// were running (gdb, where installed) and, when it ends, the process's CPU use over it (threads
/// that were *blocked* use little, threads that were *busy* use a core each). A stall that reaches
/// `failThreshold` is also written to the report file, which fails the run — so a failure in CI
/// says what held the pool.
///
/// It runs when `SWIPEDECK_POOL_WATCHDOG` names a report file (`make swift-test` sets it and fails
/// when the file is not empty afterwards); `SWIPEDECK_POOL_STALL_SECONDS` sets `failThreshold`.
/// The tests' common helpers start it (`PoolWatchdog.startIfConfigured()`), so it is running
/// within the first second of a run.
public final class PoolWatchdog: Sendable {
    /// Time between two probes.
    public static let probeInterval = 0.1
    /// A probe later than this is a stall, printed with the pool threads' stacks: 5 s. The
    /// suite's first seconds, when every test starts at once on 2 cores, come near it (5–6 s
    /// measured); a blocking call or a long loop goes far past (40–60 s before the fix).
    public static let stallThreshold = 5.0
    /// A stall this long fails the run. Default 10 s: two thirds of the 15 s the stream tests wait
    /// for an event, twice what the busiest moment of a healthy run takes.
    public let failThreshold: Double
    /// The stall report (appended to).
    public let reportPath: String
    private let worst = Mutex(0.0)
    private let stalls = Atomic<Int>(0)
    /// Thread dumps taken so far: at most `maxDumps`, each takes a second or two.
    private let dumps = Atomic<Int>(0)
    static let maxDumps = 3
    /// Longest a thread dump may take (gdb reading a debug build's symbols takes a few seconds).
    static let dumpSeconds = 30.0

    init(reportPath: String, failThreshold: Double) {
        self.reportPath = reportPath
        self.failThreshold = failThreshold
    }

    /// The watchdog of this run, started on first use; nil when the environment asks for none.
    public static let shared: PoolWatchdog? = {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment["SWIPEDECK_POOL_WATCHDOG"], !path.isEmpty else { return nil }
        let threshold = environment["SWIPEDECK_POOL_STALL_SECONDS"].flatMap(Double.init) ?? 10
        let watchdog = PoolWatchdog(reportPath: path, failThreshold: max(threshold, stallThreshold))
        let thread = Thread { watchdog.watch() }
        thread.name = "pool-watchdog"
        thread.start()
        return watchdog
    }()

    /// Starts the run's watchdog if `SWIPEDECK_POOL_WATCHDOG` asks for one (once; cheap after).
    public static func startIfConfigured() {
        _ = shared
    }

    /// The longest a probe has waited so far, in seconds.
    public var worstDelay: Double { worst.withLock { $0 } }

    private func watch() {
        while true {
            let started = Self.monotonic()
            let cpuBefore = Self.processCPUSeconds()
            let ran = Atomic<Bool>(false)
            Task.detached { ran.store(true, ordering: .releasing) }
            // What was said of this stall so far: written to the report too once it fails the run.
            var said: String?
            var failed = false
            // gdb stops the whole process while it reads the threads: that time is no pool's.
            var frozen = 0.0
            while !ran.load(ordering: .acquiring) {
                usleep(10_000)
                let waited = Self.monotonic() - started - frozen
                if said == nil && waited > Self.stallThreshold {
                    said = stallBegan(waited: waited)
                    frozen = Self.monotonic() - started - waited
                }
                if let text = said, !failed && waited > failThreshold {
                    failed = true
                    report(
                        text
                            + "\npool watchdog: this stall has lasted \(Self.seconds(waited)), over \(Self.seconds(failThreshold)): the run fails."
                    )
                }
            }
            let delay = Self.monotonic() - started - frozen
            worst.withLock { $0 = max($0, delay) }
            if said != nil {
                let cpu = Self.processCPUSeconds() - cpuBefore
                let dump = frozen > 0.5 ? " (not counting the \(Self.seconds(frozen)) gdb held the process)" : ""
                let share = cpu / delay
                let verdict =
                    share < 0.5 ? "its pool threads were blocked, not busy" : "busy, or blocked beside other work"
                let text =
                    "pool watchdog: the stall ended after \(Self.seconds(delay))\(dump); the process used "
                    + "\(Int((100 * share).rounded())) % of one core meanwhile (\(verdict))."
                if failed { report(text) } else { warn(text) }
            }
            usleep(useconds_t(Self.probeInterval * 1_000_000))
        }
    }

    /// Says on standard error that a stall began, with the pool threads' stacks; returns what it said.
    private func stallBegan(waited: Double) -> String {
        let count = stalls.add(1, ordering: .relaxed).newValue
        var text =
            "pool watchdog: stall \(count): no task has started on Swift's concurrency pool for "
            + "\(Self.seconds(waited)) (\(ISO8601DateFormatter().string(from: Date())))."
        if dumps.add(1, ordering: .relaxed).newValue <= Self.maxDumps, let dump = Self.poolThreads() {
            text += "\nWhat the pool's threads are running:\n" + dump
        }
        warn(text)
        return text
    }

    private func warn(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes `text` to the report file (which fails the run) and to standard error.
    private func report(_ text: String) {
        warn(text)
        guard let handle = FileHandle(forWritingAtPath: reportPath) ?? Self.create(reportPath) else { return }
        handle.seekToEndOfFile()
        handle.write(Data((text + "\n").utf8))
        handle.closeFile()
    }

    private static func create(_ path: String) -> FileHandle? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
    }

    /// The stacks of the threads running pool jobs, from gdb attached to this process; nil
    /// without gdb (or when it cannot attach).
    static func poolThreads() -> String? {
        let gdb = ["/usr/bin/gdb", "/usr/local/bin/gdb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let gdb else { return nil }
        // gdb stops every thread of this process while it reads them, this one too: it writes to a
        // file, never to a pipe that this (stopped) thread would have to drain.
        let dumpPath = FileManager.default.temporaryDirectory.appendingPathComponent("pool-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: dumpPath.path, contents: nil),
            let dumpFile = FileHandle(forWritingAtPath: dumpPath.path)
        else { return nil }
        defer {
            // Best effort: a leftover dump in /tmp is harmless.
            try? FileManager.default.removeItem(at: dumpPath)
        }
        // gdb stops the whole process while it reads the threads, this thread too, so what bounds it
        // runs outside: a shell that gives gdb `dumpSeconds` (reading a debug build's symbols takes
        // a few) and then continues the process whatever became of gdb. Symbols from this machine
        // only: asked for debuginfod's servers, with no network, gdb would hang on every library.
        let pid = String(getpid())
        let script =
            "timeout -s KILL \(Int(dumpSeconds)) \(gdb) -p \(pid) -batch -nx -iex 'set debuginfod enabled off'"
            + " -ex 'thread apply all bt 40'; kill -CONT \(pid)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = ProcessInfo.processInfo.environment.merging(["DEBUGINFOD_URLS": ""]) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = dumpFile
        process.standardError = FileHandle.nullDevice
        do { try ChildProcess.launching.withLock { _ in try process.run() } } catch { return nil }
        // This thread is the watchdog's own, never a pool thread: waiting here holds no pool work.
        process.waitUntilExit()
        try? dumpFile.close()  // the dump is read from its path below; a failed close loses nothing
        guard let data = FileManager.default.contents(atPath: dumpPath.path) else { return nil }
        let threads = String(decoding: data, as: UTF8.self).components(separatedBy: "\nThread ")
        // A pool thread runs jobs through the Swift runtime; keep those stacks, demangled by gdb.
        let pool = threads.filter { $0.contains("swift_job_run") || $0.contains("runJobInEstablishedExecutorContext") }
        return pool.isEmpty ? nil : pool.map { "Thread " + $0 }.joined(separator: "\n")
    }

    static func seconds(_ value: Double) -> String {
        String(format: "%.1f s", value)
    }

    static func monotonic() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
