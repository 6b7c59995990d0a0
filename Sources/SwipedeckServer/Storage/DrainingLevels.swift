import Synchronization

/// Levels by key that rise by what is added and drain at `drainPerSecond`, never below 0: a
/// recent rate, read as "how many lately" (the join puzzles' pressure, `JoinDifficulty`).
/// `MemoryLevels` keeps them in this process; `PostgresStore.sharedLevels` in the database, so
/// every server raises and reads the same level.
public protocol DrainingLevels: Sendable {
    /// The levels of `keys` at `now` (seconds), in order; 0 for a key never raised.
    func levels(_ keys: [String], now: Double) async throws -> [Double]
    /// Adds `amount` to each of `keys` at `now`.
    func raise(_ keys: [String], by amount: Double, now: Double) async throws
}

/// `DrainingLevels` in this process (an SQLite file is served by one process). A key whose
/// level drained to 0 holds nothing, so the dictionary is swept of such keys when it grows.
public final class MemoryLevels: DrainingLevels {
    struct Level {
        var value: Double
        var updated: Double
    }

    public let drainPerSecond: Double
    private let stored = Mutex<[String: Level]>([:])

    public init(drainPerSecond: Double) {
        self.drainPerSecond = drainPerSecond
    }

    func drained(_ level: Level, now: Double) -> Double {
        max(0, level.value - max(0, now - level.updated) * drainPerSecond)
    }

    public func levels(_ keys: [String], now: Double) -> [Double] {
        stored.withLock { s in keys.map { key in s[key].map { drained($0, now: now) } ?? 0 } }
    }

    public func raise(_ keys: [String], by amount: Double, now: Double) {
        stored.withLock { s in
            if s.count > 100_000 { s = s.filter { drained($0.value, now: now) > 0 } }
            for key in keys {
                let before = s[key].map { drained($0, now: now) } ?? 0
                s[key] = Level(value: before + amount, updated: max(now, s[key]?.updated ?? now))
            }
        }
    }
}
