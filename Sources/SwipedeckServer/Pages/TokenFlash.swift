import Foundation
import Hummingbird
import Synchronization

/// A just-created API token held in memory between the form's POST and the page it redirects
/// to: the browser carries only a random key in a short-lived cookie, the page takes the token
/// once. Kept for `lifetime` seconds at most; lost on a restart (the owner creates another).
final class TokenFlash: Sendable {
    /// The cookie naming the held token; scoped to the tokens page.
    static let cookieName = "sd_token_flash"
    /// How long a token waits for its page, seconds: one redirect takes well under a second;
    /// a minute covers a slow phone and still forgets a token nobody came to read.
    static let lifetime: Double = 60
    /// Most tokens held at once; more are dropped oldest first (each owner's page reads its own at once).
    static let capacity = 256

    private struct Held {
        let token: String
        let ownerId: Int64
        let expires: Double
    }

    private let held = Mutex<[String: Held]>([:])

    /// Holds `token` for `ownerId`; returns the key to put in the cookie.
    func put(_ token: String, ownerId: Int64, now: Double) -> String {
        let key = Secret.token()
        held.withLock { h in
            h = h.filter { $0.value.expires > now }
            if h.count >= Self.capacity, let oldest = h.min(by: { $0.value.expires < $1.value.expires }) {
                h[oldest.key] = nil
            }
            h[key] = Held(token: token, ownerId: ownerId, expires: now + Self.lifetime)
        }
        return key
    }

    /// The token held under `key` for `ownerId`, removed; nil when absent, expired or another owner's.
    func take(_ key: String, ownerId: Int64, now: Double) -> String? {
        held.withLock { h in
            guard let entry = h.removeValue(forKey: key), entry.ownerId == ownerId, entry.expires > now else {
                return nil
            }
            return entry.token
        }
    }

    /// The cookie carrying `key` (an empty key clears it).
    static func cookie(_ key: String) -> Cookie { cookie(key, name: cookieName, path: "/owner/tokens") }

    /// The cookie `name` carrying `key` to the page at `path` (an empty key clears it); other
    /// pages showing a secret once (a webhook's) hold it the same way.
    static func cookie(_ key: String, name: String, path: String) -> Cookie {
        Cookie(
            name: name, value: key, maxAge: key.isEmpty ? 0 : Int(lifetime), path: path, httpOnly: true,
            sameSite: .strict)
    }
}
