/// Places counted in total and per key, each capped: what the connection caps (per peer address)
/// and the live-stream caps (per client address) both count. A value kept under a lock by its owner.
public struct KeyedSlots: Sendable {
    /// Why a place was not given.
    public enum Refusal: Sendable, Equatable {
        /// All `maxTotal` places are taken.
        case total
        /// This key holds `maxPerKey` places.
        case perKey
    }

    private(set) var total = 0
    private var byKey: [String: Int] = [:]

    /// Takes a place for `key` (nil: counted in the total only), or refuses and takes nothing.
    mutating func take(_ key: String?, maxTotal: Int, maxPerKey: Int) -> Refusal? {
        if total >= maxTotal { return .total }
        if let key, byKey[key, default: 0] >= maxPerKey { return .perKey }
        total += 1
        if let key { byKey[key, default: 0] += 1 }
        return nil
    }

    /// Gives back a place `take` gave for `key`.
    mutating func give(_ key: String?) {
        total -= 1
        guard let key, let n = byKey[key] else { return }
        byKey[key] = n > 1 ? n - 1 : nil
    }

    /// Places `key` holds now.
    func count(_ key: String) -> Int { byKey[key, default: 0] }
}
