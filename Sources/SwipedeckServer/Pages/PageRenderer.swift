import Foundation
import Hummingbird
import Logging
import Mustache
import SwipePhysics
import Synchronization

/// Renders `Templates/*.mustache` into HTML responses. Every data value goes through `{{ }}`
/// (HTML-escaped); the only triple-mustache is the profile JSON, which the server builds from
/// its own constants and escapes for a `<script>` block (`<`, `>`, `&` as \u escapes).
public struct PageRenderer: Sendable {
    let library: MustacheLibrary
    /// Rendered HTML of pages that are pure functions of immutable data (see `cachedPage`).
    let cache = RenderCache()

    /// Static files by URL: templates name them by their plain paths, pages get hashed URLs.
    let assets: StaticAssets

    /// The sub-path the app is served under (`AppConfiguration.basePath`; empty at the root).
    let basePath: String

    /// Loads every `*.mustache` in `templatesDirectory`, with the static paths they name
    /// (`/css/app.css`, `/js/deck.js`, …) replaced once by their hashed URLs.
    init(templatesDirectory: String, assets: StaticAssets, basePath: String = "") async throws {
        self.assets = assets
        self.basePath = basePath
        self.library = try await Self.library(templatesDirectory: templatesDirectory, assets: assets)
    }

    /// Every template of `templatesDirectory`, parsed with `assets`' hashed URLs: once per process
    /// for each folder and set of assets (the files do not change while the server runs; the tests
    /// build hundreds of apps on one checkout, and parsing the templates was most of the CPU an
    /// app's start-up takes).
    static func library(templatesDirectory: String, assets: StaticAssets) async throws -> MustacheLibrary {
        try await libraries.value(templatesDirectory + "\u{0}" + assets.fingerprint) {
            var library = MustacheLibrary()
            let folder = URL(fileURLWithPath: templatesDirectory, isDirectory: true)
            for file in try FileManager.default.contentsOfDirectory(atPath: templatesDirectory)
            where file.hasSuffix(".mustache") {
                let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                try library.register(
                    assets.rewriteReferences(in: source), named: String(file.dropLast(".mustache".count)))
            }
            return library
        }
    }

    private static let libraries = BuiltOnce<MustacheLibrary>()

    private static let rootRelativeAttribute = try! NSRegularExpression(
        pattern: #"(\s(?:href|src|action|formaction|data-[a-z-]+)=")/(?!/)"#)

    /// `html` as served under `basePath`: every root-relative attribute value (`href="/…"`, `src`,
    /// `action`, `data-…`, whether the template or a view wrote it) prefixed. Data cannot forge
    /// one: `{{ }}` escapes the quote that would open an attribute.
    func underBasePath(_ html: String) -> String {
        if basePath.isEmpty { return html }
        return Self.rootRelativeAttribute.stringByReplacingMatches(
            in: html, range: NSRange(html.startIndex..., in: html),
            withTemplate: "$1" + NSRegularExpression.escapedTemplate(for: basePath) + "/")
    }

    /// A template the renderer does not hold (a name spelled wrong, a file missing from
    /// `Templates/`): a fault on our side, which `ErrorMiddleware` logs and answers 500.
    struct MissingTemplate: Error, CustomStringConvertible {
        let name: String
        var description: String { "no template named \(name)" }
    }

    /// `template` rendered with `context`, under `basePath`.
    /// - Throws: `MissingTemplate`.
    func html(_ template: String, _ context: Any) throws -> String {
        guard let html = library.render(context, withTemplate: template) else { throw MissingTemplate(name: template) }
        return underBasePath(html)
    }

    /// Like `page`, for a page whose HTML depends only on `key` (which must name everything the
    /// context is made from: the deck's revision, the templates loaded once).
    /// Rendering Mustache was most of the deck page's cost.
    /// - Throws: `MissingTemplate`.
    func cachedPage(_ template: String, key: String, _ context: () -> [String: Any]) throws -> Response {
        let html: String
        if let hit = cache.get(key) {
            html = hit
        } else {
            html = try self.html(template, context())
            cache.set(key, html)
        }
        return Self.htmlResponse(html, status: .ok)
    }

    static func htmlResponse(_ html: String, status: HTTPResponse.Status) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A bounded map from key to HTML (emptied when full: a cache, not a store).
    final class RenderCache: Sendable {
        private let entries = Mutex<[String: String]>([:])
        static let capacity = 2048

        func get(_ key: String) -> String? { entries.withLock { $0[key] } }

        func set(_ key: String, _ html: String) {
            entries.withLock { e in
                if e.count >= Self.capacity { e.removeAll(keepingCapacity: true) }
                e[key] = html
            }
        }
    }

    /// Renders `template` with `context` as a 200 (or `status`) HTML response.
    /// - Throws: `MissingTemplate`.
    func page(_ template: String, _ context: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        Self.htmlResponse(try html(template, context), status: status)
    }

    /// The HTML error page for `status`, with `message` as its text. Without its template (a
    /// broken install) the same sentence in a bare page, and the fault logged.
    func errorPage(status: HTTPResponse.Status, message: String, logger: Logger) -> Response {
        let context: [String: Any] = [
            "kind": "error", "pageTitle": "\(status.code) \(status.reasonPhrase)", "status": status.code,
            "reason": status.reasonPhrase, "message": message,
        ]
        do {
            return try page("error", context, status: status)
        } catch {
            logger.error("error page not rendered", metadata: ["error": "\(error)"])
            let text = "\(status.code) \(status.reasonPhrase): \(message)"
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            return Self.htmlResponse("<!doctype html><title>\(status.code)</title><p>\(escaped)</p>\n", status: status)
        }
    }

    /// JSON safe inside `<script type="application/json">`: no `<`, `>` or `&` survive.
    static func scriptSafeJSON(_ value: some Encodable) -> String {
        // The values are the server's own constants (profiles: finite numbers; reason names: strings),
        // which always encode: `{}` could only stand for a programming error in a constant, which the
        // page and parity tests would show at once.
        let data = (try? JSONCoding.shared.encode(value)) ?? Data("{}".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 16)
        for b in data {
            switch b {
            case UInt8(ascii: "<"): out += Array("\\u003c".utf8)
            case UInt8(ascii: ">"): out += Array("\\u003e".utf8)
            case UInt8(ascii: "&"): out += Array("\\u0026".utf8)
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A profile's script-safe JSON, made once per profile: profiles are constants, and the deck
    /// page embeds one on every request (encoding it each time was a sixth of the page's cost).
    static func scriptSafeJSON(_ profile: SwipeProfile) -> String {
        if let cached = profileJSON.withLock({ $0[profile] }) { return cached }
        let json = scriptSafeJSON(ProfileBox(profile: profile))
        profileJSON.withLock { $0[profile] = json }
        return json
    }

    private struct ProfileBox: Encodable {
        let profile: SwipeProfile
        func encode(to encoder: any Encoder) throws { try profile.encode(to: encoder) }
    }

    private static let profileJSON = Mutex<[SwipeProfile: String]>([:])
}
