import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One server per SQLite file. Every server keeps its decks, the pace and the lock of a presented
/// deck in memory and hears another's edits only through PostgreSQL's notifications; a second
/// server on the same SQLite file would take swipes on a deck the first had locked. So `serve`
/// holds an exclusive `flock` on `<database>.serve-lock` for the life of the process (the kernel
/// releases it however the process ends, `kill -9` included) and a second `serve` of the file is
/// refused at start with a sentence. The other commands (`owner add`, `backup`, …) take no lock:
/// they are meant to run beside the server.
enum ServerLock {
    /// Takes the lock of the SQLite database at `path` (none for `:memory:`); the descriptor stays
    /// open until the process ends.
    /// - Throws: `ValidationError` when another process holds it.
    static func take(sqlite path: String) throws {
        guard path != ":memory:" else { return }
        let lockPath = path + ".serve-lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        // No lock file where the database cannot be made either: opening the store says why, in its words.
        guard descriptor >= 0 else { return }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: lockPath, encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            close(descriptor)
            // The pid is a courtesy: a file that cannot be read still refuses, without it.
            let who = holder.map { $0.isEmpty ? "" : " (process \($0))" } ?? ""
            throw ValidationError(
                "Another swipedeck server\(who) is serving \(path): one server per SQLite file. "
                    + "Several servers need PostgreSQL (--db postgres://…).")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
    }
}
