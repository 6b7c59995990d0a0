import Synchronization

/// Decides whether a sign-in attempt may have its password checked, and keeps the budgets.
///
/// Design (each line answers an attack):
/// - **Taken before bcrypt, refunded on success.** Both limits below count failures, but a token
///   is taken *before* the password is checked: 60 parallel wrong passwords cannot all pass a
///   peek and each burn a bcrypt. A correct password gives its tokens back.
/// - **Per (client address, name)**: `perAddressAndName`, default a burst of 10 failures, then one
///   every 5 s. Guessing one owner's password from one address is slow; an attacker at another
///   address spends only *their own* budget for that name, so they can never lock the name for
///   its owner (whose key holds the owner's own address). The name is compared lower-cased.
/// - **Per client address**: `perAddress`, default a burst of 50 failures, then one a second.
///   It bounds one address spraying many names (made-up or real), and is wide enough that a few
///   mistyped passwords, or a handful of cheap made-up names, behind a school's single NAT
///   address lock nobody out (before: 11 failures, with any names, locked every owner there).
/// - **At most `maxConcurrentChecks` bcrypt verifications at once** (default 4, two per core of
///   a small server); an attempt finding them all busy is refused at once (429, retry in 1 s)
///   instead of queueing CPU work, and gives its tokens back (it was not checked).
/// - **A flood against one name leaves room for the others**: a name with a failed check in the
///   last `contestedSeconds` (60 s, from any address) is *contested*, and its attempts may take
///   all but `reservedChecks` of the slots (a quarter, at least one); attempts for other names
///   may take every slot. Rotating addresses against victor then keeps victor's sign-ins busy,
///   never mallory's.
/// - Unknown names are checked too (against a dummy hash, by the caller), so they take a token
///   and cost the same time as known ones: timing tells no names.
///
/// Time is passed in; a rate of 0 disables a limit (tests).
public final class SignInGuard: Sendable {
    public let perAddress: RateLimiter
    public let perAddressAndName: RateLimiter
    /// Most password checks running at once. Default 4: two per core of a small server, so a
    /// storm of sign-ins leaves the other cores' work (and the owner's own sign-in) room.
    public let maxConcurrentChecks: Int
    private let running = Mutex(0)
    /// Slots only uncontested names may take: a quarter of `maxConcurrentChecks`, at least 1
    /// (none when there is a single slot).
    public var reservedChecks: Int { maxConcurrentChecks > 1 ? max(1, maxConcurrentChecks / 4) : 0 }
    /// Seconds a failed check keeps its name contested: 60, a flood's pace is far faster.
    public static let contestedSeconds = 60.0
    /// Names (lower-cased, first 64 characters) by their last failed check's time.
    private let lastFailure = Mutex([String: Double]())
    private let peakRunning = Atomic<Int>(0)

    /// The outcome of `check`.
    public enum Verdict: Sendable, Equatable {
        /// Not checked: a limit is spent or the checks are all busy; retry after the seconds.
        case refused(retryAfter: Int)
        /// Checked: whether the password matched.
        case checked(Bool)
    }

    public init(
        perAddress: RateLimiter = RateLimiter(ratePerSecond: 1, burst: 50),
        perAddressAndName: RateLimiter = RateLimiter(ratePerSecond: 0.2, burst: 10),
        maxConcurrentChecks: Int = 4
    ) {
        self.perAddress = perAddress
        self.perAddressAndName = perAddressAndName
        self.maxConcurrentChecks = maxConcurrentChecks
    }

    /// The most checks that ran at once so far (the tests read it).
    public var peakConcurrentChecks: Int { peakRunning.load(ordering: .relaxed) }

    /// Takes a token from both limits and a check slot, runs `verify` (the bcrypt check), then
    /// frees the slot and, when it returned true, refunds both tokens. When `verify` throws, the
    /// tokens stay taken and the slot is freed.
    public func check(address: String, name: String, now: Double, _ verify: () async throws -> Bool) async throws
        -> Verdict
    {
        let addressKey = "ip:" + address
        // Names are at most 64 characters; a longer one (no owner has it) is keyed by its first 64.
        let nameKey = "ipname:" + address + "\u{1F}" + String(name.lowercased().prefix(64))
        if let wait = perAddress.take(addressKey, now: now) { return .refused(retryAfter: wait) }
        if let wait = perAddressAndName.take(nameKey, now: now) {
            perAddress.refund(addressKey, now: now)
            return .refused(retryAfter: wait)
        }
        let nameOnly = String(name.lowercased().prefix(64))
        let contested = lastFailure.withLock { ($0[nameOnly] ?? -.infinity) > now - Self.contestedSeconds }
        let slots = contested ? maxConcurrentChecks - reservedChecks : maxConcurrentChecks
        let entered = running.withLock { count -> Bool in
            guard count < slots else { return false }
            count += 1
            _ = peakRunning.max(count, ordering: .relaxed)
            return true
        }
        guard entered else {
            perAddress.refund(addressKey, now: now)
            perAddressAndName.refund(nameKey, now: now)
            return .refused(retryAfter: 1)
        }
        defer { running.withLock { $0 -= 1 } }
        let matched = try await verify()
        if matched {
            perAddress.refund(addressKey, now: now)
            perAddressAndName.refund(nameKey, now: now)
        } else {
            lastFailure.withLock { failures in
                // Bounded: past 10,000 names, those no longer contested are forgotten.
                if failures.count > 10_000 { failures = failures.filter { $0.value > now - Self.contestedSeconds } }
                failures[nameOnly] = now
            }
        }
        return .checked(matched)
    }
}
