import Foundation

@testable import SwipedeckServer

// Tiny real images made once with Pillow 12 (Image.new + save), kept as base64; each with the
// format and size the sniffer must read from it. No suite lives here.

/// A real image file and what it is.
struct ImageFixture: Sendable, CustomStringConvertible {
    let label: String
    let bytes: [UInt8]
    let format: ImageFormat
    let width: Int
    let height: Int

    var description: String { label }
}

enum ImageFixtures {
    /// PNG, 260 × 3 (a width over one byte), RGB.
    static let png = ImageFixture(
        label: "png",
        bytes: decode(
            "iVBORw0KGgoAAAANSUhEUgAAAQQAAAADCAIAAAD6GOZRAAAAJUlEQVR42mNkYKjQYGAYRaNoFLEw2DCMglEwChhGM8MoGAVw"
                + "AABJcylyjFoOgQAAAABJRU5ErkJggg=="
        ), format: .png, width: 260, height: 3)

    /// Baseline JFIF JPEG, 17 × 9, quality 50.
    static let jpeg = ImageFixture(
        label: "jpeg",
        bytes: decode(
            "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1R"
                + "V19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj"
                + "Y2NjY2NjY2NjY2NjY2P/wAARCAAJABEDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAA"
                + "AgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6"
                + "Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG"
                + "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREA"
                + "AgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5"
                + "OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPE"
                + "xcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwCva2dj9lk/0W4+4f4F9PrRJZ2P2WP/AEW4"
                + "++P4F9D710Nr/wAesn+4f5UP/wAesf8Avj+RrB4iXN/wTijipeyW+3cwfsdj/wA+tx/3wv8AjRXQ0UvrEv6Zr9al5/ef/9k="
        ), format: .jpeg, width: 17, height: 9)

    /// Lossy WebP (`VP8 ` chunk), 21 × 11.
    static let webpLossy = ImageFixture(
        label: "webpLossy",
        bytes: decode(
            "UklGRoQAAABXRUJQVlA4IHgAAABwAgCdASoVAAsAAsBMJbACdMoMh8CAAsznePNgAP7dv/x6Wv6Nf50fv30WDkkKyhVkRnSU"
                + "+f+xH3cLooe33IWVgeWiRvfm2rDIh3oFf2YX5kavB06X8hx/qf2012iNRPEMKmN+84NPG6Pt9n+pvIUTNfv6mdIAAAA="
        ), format: .webp, width: 21, height: 11)

    /// Lossless WebP (`VP8L` chunk), 33 × 7.
    static let webpLossless = ImageFixture(
        label: "webpLossless",
        bytes: decode(
            "UklGRioAAABXRUJQVlA4TB4AAAAvIIABALmM6H/sIqL/ASEBYZj/3yR1UAYvJgAplwk="
        ), format: .webp, width: 33, height: 7)

    /// Extended WebP (`VP8X` + `ALPH` + `VP8 `), 19 × 13, with alpha.
    static let webpExtended = ImageFixture(
        label: "webpExtended",
        bytes: decode(
            "UklGRt4AAABXRUJQVlA4WAoAAAAQAAAAEgAADAAAQUxQSB8AAAABD/Co/4iIoKBtG6ZvEEuyTMcgov8EkzTVdkx7m/53AFZQ"
                + "OCCYAAAA0AQAnQEqEwANAD7RYqZNKCYjojAIAQAaCWwAnTKEdxcgF8AfqB1f4TcF+AZ2TNgA/u+jVbGzNVd1R481eYd3lmOs"
                + "6t6E/0yLny8exbdycmqGgDKA3W1krApgleqTZNsl6H88qxAfMfWh3ESbEB82Jg2ud+RJ/fqeDan8akiZ39/xZARY/kPBZLsc"
                + "3o53ToaiyF8TNR9+gAA="
        ), format: .webp, width: 19, height: 13)

    /// GIF87a with a global colour table, 3 × 2.
    static let gif = ImageFixture(
        label: "gif",
        bytes: decode(
            "R0lGODdhAwACAIIAAAAAZjMAZjMzZjMAmQAzmQAAAAAAAAAAACwAAAAAAwACAAAICQABBBhAQICAgAA7"
        ), format: .gif, width: 3, height: 2)

    static let all = [png, jpeg, webpLossy, webpLossless, webpExtended, gif]

    static func decode(_ base64: String) -> [UInt8] {
        [UInt8](Data(base64Encoded: base64)!)
    }
}
