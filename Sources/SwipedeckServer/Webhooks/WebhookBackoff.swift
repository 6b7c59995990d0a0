/// When a failed delivery is tried again: exponential backoff with jitter, until
/// `giveUpAfter` from its creation.
///
/// The n-th failed attempt (n ≥ 1) waits `min(base × 2^(n-1), cap)`, of which the second half
/// is scaled by the jitter (`jitter` in 0…1: "equal jitter", so receivers that failed together
/// are not hit together again, and no wait is under half its step). Attempts then come at
/// about 2 s, 4 s, 8 s … 1 h, then hourly: some 35 in 24 h.
public struct WebhookBackoff: Sendable, Hashable {
    /// First wait, seconds. Default 2: a receiver restarting is back within seconds.
    public var base: Double = 2
    /// Longest wait, seconds. Default 3,600: an hour-long outage costs at most an hour's delay.
    public var cap: Double = 3600
    /// Seconds from a delivery's creation after which it is marked failed. Default 24 h (the
    /// issue's promise).
    public var giveUpAfter: Double = 24 * 3600

    public init() {}

    public init(base: Double, cap: Double, giveUpAfter: Double) {
        self.base = base
        self.cap = cap
        self.giveUpAfter = giveUpAfter
    }

    /// The wait after the `attempts`-th failed attempt, seconds, for a jitter in 0…1.
    public func delay(afterAttempts attempts: Int, jitter: Double) -> Double {
        let exponent = min(max(attempts - 1, 0), 40)
        let step = min(base * Double(1 << exponent), cap)
        return step / 2 + step / 2 * min(max(jitter, 0), 1)
    }

    /// When to try again after the `attempts`-th failure at `now`; nil (give up) when that is past
    /// `giveUpAfter` from `createdAt`.
    public func retryAt(afterAttempts attempts: Int, now: Double, createdAt: Double, jitter: Double) -> Double? {
        let at = now + delay(afterAttempts: attempts, jitter: jitter)
        return at <= createdAt + giveUpAfter ? at : nil
    }
}
