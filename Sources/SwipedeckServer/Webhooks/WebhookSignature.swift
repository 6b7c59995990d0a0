import Crypto
import Foundation

/// How a delivery proves it came from this server: `X-Swipedeck-Signature: sha256=<hex>`, the
/// lower-case hex HMAC-SHA256 keyed with the hook's secret (its UTF-8 bytes) of the
/// `X-Swipedeck-Timestamp` value, a `.`, and the body's bytes exactly as sent. The timestamp is
/// signed so a receiver can refuse an old delivery replayed (README § Webhooks).
public enum WebhookSignature {
    /// The value of `X-Swipedeck-Signature` for `body` sent at `timestamp` (whole seconds since 1970).
    public static func header(secret: String, timestamp: Int64, body: Data) -> String {
        var message = Data("\(timestamp).".utf8)
        message.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + Hex.string(mac)
    }

    /// A new hook secret: `whsec_` and 256 random bits in hex.
    static func newSecret() -> String { Secret.token(prefix: "whsec_") }
}

/// The body of a delivery: `{"id","event","deck","at","data"}` in that order, built the same
/// way on every attempt (the signature covers these bytes).
public enum WebhookBody {
    public static func encode(_ delivery: WebhookDelivery, deckSlug: String) -> Data {
        var body = Data("{\"id\":".utf8)
        body.append(json(delivery.id))
        body.append(Data(",\"event\":".utf8))
        body.append(json(delivery.event.rawValue))
        body.append(Data(",\"deck\":".utf8))
        body.append(json(deckSlug))
        body.append(Data(",\"at\":".utf8))
        body.append(json(delivery.at))
        body.append(Data(",\"data\":".utf8))
        body.append(delivery.data.isEmpty ? Data("{}".utf8) : delivery.data)
        body.append(Data("}".utf8))
        return body
    }

    private static func json<T: Encodable>(_ value: T) -> Data {
        // A string or a finite number always encodes; "null" stands for what never happens.
        (try? JSONCoding.shared.encode(value)) ?? Data("null".utf8)
    }
}
