import Foundation
import Synchronization

/// Token buckets per key (participant or IP): `ratePerSecond` tokens refill each second up to
/// `burst`. Time is passed in. A rate of 0 disables the limiter.
public final class RateLimiter: Sendable {
    struct Bucket {
        var tokens: Double
        var updated: Double
    }

    public let ratePerSecond: Double
    public let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])

    public init(ratePerSecond: Double, burst: Double) {
        self.ratePerSecond = ratePerSecond
        self.burst = burst
    }

    /// The seconds to wait before `key` has a token again, without taking one; nil when it has one.
    public func peek(_ key: String, now: Double) -> Int? {
        if ratePerSecond <= 0 { return nil }
        return buckets.withLock { b in
            guard let bucket = b[key] else { return nil }
            let tokens = min(burst, bucket.tokens + (now - bucket.updated) * ratePerSecond)
            return tokens >= 1 ? nil : max(1, Int(((1 - tokens) / ratePerSecond).rounded(.up)))
        }
    }

    /// Takes `cost` tokens for `key` at time `now` (seconds). Returns nil when allowed, or the
    /// whole seconds to wait until they are there (nothing is taken then). `burst` overrides the
    /// limiter's own for this key (a deck's join limit).
    public func take(_ key: String, cost: Double = 1, burst: Double? = nil, now: Double) -> Int? {
        if ratePerSecond <= 0 { return nil }
        let burst = burst ?? self.burst
        return buckets.withLock { b in
            if b.count > 100_000 { b = b.filter { now - $0.value.updated < 60 } }
            var bucket = b[key] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * ratePerSecond)
            bucket.updated = now
            if bucket.tokens >= cost {
                bucket.tokens -= cost
                b[key] = bucket
                return nil
            }
            b[key] = bucket
            return max(1, Int(((min(cost, burst) - bucket.tokens) / ratePerSecond).rounded(.up)))
        }
    }
}

extension RateLimiter {
    /// Gives back a token taken from `key` (up to `burst`): for a limit counting only failures,
    /// taken before the attempt and returned when it succeeds. `burst` as for `take`.
    public func refund(_ key: String, burst: Double? = nil, now: Double) {
        if ratePerSecond <= 0 { return }
        let burst = burst ?? self.burst
        buckets.withLock { b in
            guard var bucket = b[key] else { return }
            bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) * ratePerSecond + 1)
            bucket.updated = now
            b[key] = bucket
        }
    }
}
