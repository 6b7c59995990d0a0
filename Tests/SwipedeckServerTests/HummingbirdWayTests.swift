import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import SwipedeckServer

/// Hummingbird's idioms (issue 27): models answered through the context's one `responseEncoder`,
/// errors as `HTTPResponseError`s, the owner pages behind one sign-in middleware, and faults
/// (a missing template, an unencodable value, a database that fails under a live stream)
/// logged and answered honestly instead of hidden.
@Suite("Hummingbird's way: one encoder, errors that answer, one sign-in guard, honest faults")
struct HummingbirdWayTests {
    /// A renderer over `templates` (name → source) in a folder of their own.
    static func renderer(_ templates: [String: String]) async throws -> PageRenderer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swipedeck-templates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, source) in templates {
            try source.write(to: folder.appendingPathComponent(name + ".mustache"), atomically: true, encoding: .utf8)
        }
        let assets = try await StaticAssets.shared(
            publicDirectory: AppConfiguration().resourceRoot + "/Public", generated: [:])
        return try await PageRenderer(templatesDirectory: folder.path, assets: assets)
    }

    /// A value JSON cannot hold (NaN is not a JSON number).
    struct Unencodable: ResponseEncodable {
        let value = Double.nan
    }

    /// A router with the app's `ErrorMiddleware`, whose routes `add` registers, tested with `logs`.
    static func withRouter(
        _ renderer: PageRenderer, logs: LogLines, _ add: (Router<AppRequestContext>) -> Void,
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: ErrorMiddleware(renderer: renderer))
        add(router)
        let app = Application(router: router, logger: logs.logger)
        try await app.test(.router, body)
    }

    @Test("a model that cannot be encoded is a logged 500 internal, not a 200 with {}")
    func encodingFailure() async throws {
        let logs = LogLines()
        let renderer = try await Self.renderer(["error": "<p>{{message}}</p>"])
        let route: (Router<AppRequestContext>) -> Void = { $0.get("/api/v1/broken") { _, _ in Unencodable() } }
        try await Self.withRouter(renderer, logs: logs, route) { client in
            let r = try await client.get("/api/v1/broken")
            #expect(r.status == .internalServerError)
            #expect(r.text.contains(#""code":"internal""#), "\(r.text)")
            #expect(r.text != "{}")
        }
        #expect(!logs.errors(containing: "internal error").isEmpty)
    }

    @Test("a missing template is a logged 500 error page, not a 200 'Template missing'")
    func missingTemplate() async throws {
        let logs = LogLines()
        let renderer = try await Self.renderer(["error": "<h1>{{status}}</h1><p>{{message}}</p>"])
        let route: (Router<AppRequestContext>) -> Void = {
            $0.get("/page") { _, _ in try renderer.page("absent", [:]) }
        }
        try await Self.withRouter(renderer, logs: logs, route) { client in
            let r = try await client.get("/page")
            #expect(r.status == .internalServerError)
            #expect(r.text.contains("<h1>500</h1>"), "\(r.text)")
            #expect(!r.text.contains("Template missing"))
        }
        #expect(logs.errors(containing: "no template named absent").count == 1)
    }

    @Test("without the error page's own template, an error is still its status and sentence, and logged")
    func missingErrorTemplate() async throws {
        let logs = LogLines()
        let renderer = try await Self.renderer([:])
        let route: (Router<AppRequestContext>) -> Void = {
            $0.get("/gone") { _, _ -> Response in throw ApiError.notFound("thing") }
        }
        try await Self.withRouter(renderer, logs: logs, route) { client in
            let r = try await client.get("/gone")
            #expect(r.status == .notFound)
            #expect(r.text.contains("No such thing."), "\(r.text)")
        }
        #expect(logs.errors(containing: "error page not rendered").count == 1)
    }

    @Test("API errors answer themselves (HTTPResponseError): status, code, Retry-After; pages get the HTML page")
    func errorsAnswer() async throws {
        let logs = LogLines()
        let renderer = try await Self.renderer(["error": "<h1>{{status}}</h1><p>{{message}}</p>"])
        try await Self.withRouter(
            renderer, logs: logs,
            { router in
                router.get("/api/v1/slow") { _, _ -> Response in throw ApiError.rateLimited(retryAfter: 7) }
                router.get("/slow") { _, _ -> Response in throw ApiError.rateLimited(retryAfter: 7) }
            }
        ) { client in
            let api = try await client.get("/api/v1/slow")
            #expect(api.status == .tooManyRequests)
            #expect(api.headers[.retryAfter] == "7")
            #expect(api.headers[.contentType] == "application/json; charset=utf-8")
            let body = #"{"error":{"code":"rate_limited","message":"Too many requests; retry in 7 s."}}"#
            #expect(String(buffer: api.body) == body)
            let page = try await client.get("/slow")
            #expect(page.status == .tooManyRequests)
            #expect(page.headers[.retryAfter] == "7")
            #expect(String(buffer: page.body).hasPrefix("<h1>429</h1>"))
        }
    }

    /// The keys of the outermost object of `json`, in the order written.
    static func topLevelKeys(_ json: String) -> [String] {
        var keys: [String] = []
        var depth = 0
        var inString = false
        var escaped = false
        var current = ""
        var lastString = ""
        for c in json {
            if inString {
                if escaped {
                    escaped = false
                    current.append(c)
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    inString = false
                    lastString = current
                } else {
                    current.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                inString = true
                current = ""
            case "{", "[": depth += 1
            case "}", "]": depth -= 1
            case ":": if depth == 1 { keys.append(lastString) }
            default: break
            }
        }
        return keys
    }

    @Test("API models are written by the one configured encoder: keys sorted, slashes as written")
    func oneEncoder() async throws {
        try await withApp { client, _ in
            let profile = try await client.get("/api/v1/profiles/standard")
            #expect(profile.status == .ok)
            let keys = Self.topLevelKeys(profile.text)
            #expect(keys.count > 5)
            #expect(keys == keys.sorted(), "\(keys)")
            let created = try await client.createDeck(#"{"slug":"slashes","title":"a/b","cards":[{"title":"c/d"}]}"#)
            #expect(created.status == .created)
            #expect(created.text.contains(#""title":"a/b""#), "\(created.text)")
            let keysOfDeck = Self.topLevelKeys(created.text)
            #expect(keysOfDeck == keysOfDeck.sorted(), "\(keysOfDeck)")
        }
    }

    /// Every owner page route (method, path) but signing in and out, with sample parameters.
    static let ownerRoutes: [(HTTPRequest.Method, String)] = [
        (.get, "/owner"), (.get, "/owner/tokens"), (.post, "/owner/tokens"), (.post, "/owner/tokens/1/revoke"),
        (.get, "/owner/password"), (.post, "/owner/password"),
        (.get, "/owner/decks/new"), (.post, "/owner/decks"), (.get, "/owner/decks/sample"),
        (.post, "/owner/decks/sample/settings"),
        (.get, "/owner/decks/sample/results"), (.post, "/owner/decks/sample/participants/p/exclude"),
        (.post, "/owner/decks/sample/participants/p/include"), (.post, "/owner/decks/sample/clusters"),
        (.post, "/owner/decks/sample/cards"), (.get, "/owner/decks/sample/cards/1"),
        (.post, "/owner/decks/sample/cards/1"),
        (.post, "/owner/decks/sample/cards/1/archive"), (.post, "/owner/decks/sample/cards/1/restore"),
        (.post, "/owner/decks/sample/cards/1/up"), (.post, "/owner/decks/sample/cards/1/down"),
        (.post, "/owner/decks/sample/import"), (.post, "/owner/decks/sample/import/confirm"),
        (.get, "/owner/decks/sample/share"), (.get, "/owner/decks/sample/invite.svg"),
        (.get, "/owner/decks/sample/codes"), (.post, "/owner/decks/sample/codes"),
        (.post, "/owner/decks/sample/expected"),
        (.get, "/owner/decks/sample/webhooks"), (.post, "/owner/decks/sample/webhooks"),
        (.post, "/owner/decks/sample/webhooks/1/disable"),
        (.post, "/owner/decks/sample/presenter-link"), (.get, "/owner/decks/sample/presenter.svg"),
        // The big screen is an owner page outside /owner (its address is the deck's; a presenter
        // link opens it too: PresenterLinkTests).
        (.get, "/d/sample/present"), (.get, "/d/sample/present/state"), (.get, "/d/sample/present/remote"),
        (.get, "/d/sample/present/live"), (.post, "/d/sample/present"),
    ]

    @Test("every owner page route sends anybody without an owner session (nobody, the admin token) to the sign-in page")
    func ownerPagesNeedASession() async throws {
        try await withApp { client, _ in
            for (method, path) in Self.ownerRoutes {
                for headers: HTTPFields in [[:], admin] {
                    let r = try await client.execute(uri: path, method: method, headers: headers, body: nil)
                    #expect(r.status == .seeOther, "\(method) \(path): \(r.status)")
                    let next = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
                    #expect(r.headers[.location] == "/owner/sign-in?next=\(next)", "\(method) \(path)")
                }
            }
            // Signing in stays open to everybody.
            #expect(try await client.get("/owner/sign-in").status == .ok)
        }
    }

    @Test(
        "the list above names every /owner route the page controllers register (a new one must be added, and guarded)")
    func ownerRoutesListed() throws {
        let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SwipedeckServer/Pages")
        let registration = try NSRegularExpression(pattern: #"\.(get|post)\("(/owner[^"]*)""#)
        let listed = Set(Self.ownerRoutes.map { "\($0.0) \($0.1)" })
        var found = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: pages.path) where file.hasSuffix(".swift") {
            let source = try String(contentsOf: pages.appendingPathComponent(file), encoding: .utf8)
            for match in registration.matches(in: source, range: NSRange(source.startIndex..., in: source)) {
                let method = String(source[Range(match.range(at: 1), in: source)!]).uppercased()
                let path = String(source[Range(match.range(at: 2), in: source)!])
                    .replacingOccurrences(of: ":deck", with: "sample").replacingOccurrences(of: ":id", with: "1")
                    .replacingOccurrences(of: ":participant", with: "p").replacingOccurrences(of: ":card", with: "1")
                if path == "/owner/sign-in" || path == "/owner/sign-out" { continue }
                found += 1
                #expect(listed.contains("\(method) \(path)"), "\(file): \(method) \(path) is not in ownerRoutes")
            }
        }
        #expect(found >= 15)
    }
}
