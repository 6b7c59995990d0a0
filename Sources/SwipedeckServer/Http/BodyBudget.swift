import Synchronization

/// The memory the request bodies being read may hold together (`--max-body-memory`): each JSON
/// body reserves its `Content-Length` (or the largest body allowed, when it has none) before it is
/// read and gives it back after. Without it, a few thousand connections each sending most of a
/// 2 MiB body and then nothing held gigabytes until the body timeout.
public final class BodyBudget: Sendable {
    private let available: Mutex<Int>

    /// - Parameter bytes: the memory all bodies being read may hold; 0 = unlimited.
    public init(bytes: Int) {
        available = Mutex(bytes > 0 ? bytes : .max)
    }

    /// Takes `bytes` from the budget; false (nothing taken) when fewer are left.
    func reserve(_ bytes: Int) -> Bool {
        available.withLock { left in
            guard left >= bytes else { return false }
            left -= bytes
            return true
        }
    }

    /// Gives back what `reserve` took.
    func release(_ bytes: Int) {
        available.withLock { $0 += bytes }
    }
}
