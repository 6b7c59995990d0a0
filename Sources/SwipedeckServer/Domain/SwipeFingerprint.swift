import SwipePhysics

/// The idempotency fingerprint of a swipe request (`Swipe.requestHash`): a replay under the same
/// `Idempotency-Key` must carry the same fingerprint, a reuse of the key for another request
/// does not (`SwipeRule`, rule 6).
///
/// It covers what the request decides — the deck, the acting participant, the card, the
/// direction, the input, `decisionMs` and the trace's numbers — and not how it was spelled: the
/// same swipe sent alone or as a batch item, with other whitespace or key order, is the same
/// request. The idempotency key itself is not part of it (it names the request).
///
/// FNV-1a 64-bit, in hex: cheap on the swipe path (no encoding, no allocation but the result);
/// it tells requests of one key apart, it is no protection against an adversary.
public enum SwipeFingerprint {
    /// The fingerprint of `r` on `deck` (its slug) by `participant` (the id the request names,
    /// else the browser's known credential, else "").
    public static func of(_ r: SwipeRequest, deck: String, participant: String) -> String {
        var h = FNV1a()
        h.text(deck)
        h.text(participant)
        h.integer(UInt64(bitPattern: r.card))
        h.text(r.direction)
        h.text(r.input ?? "")
        h.number(r.decisionMs)
        if let t = r.trace {
            for values in [t.t, t.x, t.y] {
                h.integer(UInt64(values.count))
                for v in values { h.number(v) }
            }
            for v in [t.w, t.h, t.vw, t.vh, t.gx, t.gy, t.ox, t.oy] { h.number(v) }
        } else {
            h.end()
        }
        return String(h.value, radix: 16)
    }

    /// FNV-1a over fields, each closed by a 0xff byte so that ("ab", "c") and ("a", "bc") differ.
    private struct FNV1a {
        /// The FNV-1a 64-bit offset basis.
        var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func byte(_ b: UInt8) {
            value ^= UInt64(b)
            // The FNV-1a 64-bit prime.
            value &*= 0x100_0000_01b3
        }

        mutating func end() { byte(0xff) }

        mutating func text(_ s: String) {
            for b in s.utf8 { byte(b) }
            end()
        }

        mutating func integer(_ n: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { byte(UInt8(truncatingIfNeeded: n >> UInt64(shift))) }
            end()
        }

        /// A double by its bits (so -0 and 0 differ, as they may in a trace); nil as an empty field.
        mutating func number(_ v: Double?) {
            if let v { integer(v.bitPattern) } else { end() }
        }
    }
}
