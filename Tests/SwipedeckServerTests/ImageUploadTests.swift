import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import SwipedeckServer

/// `POST /api/v1/images` and `GET /images/{name}`: who may upload, what is stored (bytes, name,
/// row), what is refused and with which rule, and how stored images are served.
@Suite struct ImageUploadTests {
    @Test(arguments: ImageFixtures.all)
    func storesAndServesEachFormat(_ fixture: ImageFixture) async throws {
        try await withImageApp { client, env, folder in
            let owner = try await ownerSession(env)
            let r = try await client.upload(fixture.bytes, type: fixture.format.contentType, headers: owner)
            #expect(r.status == .created, "\(r.text)")
            let j = try r.json()
            let name = ImageName(hash: Secret.sha256(bytes: fixture.bytes), format: fixture.format)
            #expect(j["url"].string == "/images/\(name.fileName)")
            #expect(r.headers[.location] == name.url)
            #expect(j["contentType"].string == fixture.format.contentType)
            #expect(j["bytes"].int == fixture.bytes.count)
            #expect(j["width"].int == fixture.width)
            #expect(j["height"].int == fixture.height)
            #expect(j.object?.count == 5)
            #expect(FileManager.default.contents(atPath: folder + "/" + name.fileName) == Data(fixture.bytes))

            let row = try await env.row("SELECT * FROM images WHERE hash = ?", [name.hash])
            #expect(row?["contentType"] == fixture.format.contentType)
            #expect(row?["bytes"] == fixture.bytes.count)
            #expect(row?["width"] == fixture.width && row?["height"] == fixture.height)
            #expect(row?["ownerId"] == 1 as Int64)
            #expect(row?["createdAt"] == fixedTime)

            let served = try await client.get(name.url)
            #expect(served.status == .ok)
            #expect(Array(served.body.readableBytesView) == fixture.bytes)
            #expect(served.headers[.contentType] == fixture.format.contentType)
            #expect(served.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(served.headers[.xContentTypeOptions] == "nosniff")
            #expect(served.headers[.eTag] == "\"\(name.hash)\"")
            #expect(served.headers[.contentLength] == String(fixture.bytes.count))
            #expect(served.headers[.setCookie] == nil, "an image must not mint a participant cookie")
        }
    }

    @Test func headAndConditionalRequestsAnswerWithoutTheBody() async throws {
        try await withImageApp { client, env, _ in
            let url =
                try await client.upload(ImageFixtures.gif.bytes, type: "image/gif", headers: ownerSession(env)).json()[
                    "url"
                ].string ?? ""
            let head = try await client.execute(uri: url, method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
            #expect(head.headers[.contentLength] == String(ImageFixtures.gif.bytes.count))
            #expect(head.headers[.contentType] == "image/gif")
            let etag = head.headers[.eTag] ?? ""
            for match in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
                let again = try await client.get(url, headers: [.ifNoneMatch: match])
                #expect(again.status == .notModified, "\(match)")
                #expect(again.body.readableBytes == 0)
                #expect(again.headers[.cacheControl] == ImagesController.cacheControl)
            }
            #expect(try await client.get(url, headers: [.ifNoneMatch: "\"other\""]).status == .ok)
        }
    }

    @Test func everyKindOfOwnerMayUploadAndNobodyElse() async throws {
        try await withImageApp { client, env, _ in
            let bytes = ImageFixtures.png.bytes
            expectAPIError(try await client.upload(bytes, type: "image/png"), .unauthorized, "unauthorized")
            expectAPIError(
                try await client.upload(bytes, type: "image/png", headers: [.authorization: "Bearer nope"]),
                .unauthorized, "unauthorized")
            expectAPIError(
                try await client.upload(bytes, type: "image/png", headers: [.cookie: "sd_owner=" + Secret.token()]),
                .unauthorized, "unauthorized")
            #expect(try await env.count("SELECT COUNT(*) FROM images") == 0)

            let database = try await env.openStore()
            let (owner, _) = try await database.createOwner(name: "robot-maker", passwordHash: "unused", now: fixedTime)
            let token = Secret.token(prefix: ApiTokenFormat.prefix)
            try await database.createApiToken(
                ownerId: owner.id, name: "ci", tokenHash: Secret.sha256(token), prefix: String(token.prefix(8)),
                now: fixedTime)
            let byToken = try await client.upload(
                ImageFixtures.webpLossless.bytes, type: "image/webp", headers: [.authorization: "Bearer \(token)"])
            #expect(byToken.status == .created, "\(byToken.text)")
            let byAdmin = try await client.upload(
                bytes, type: "image/png", headers: [.authorization: "Bearer \(adminToken)"])
            #expect(byAdmin.status == .created, "\(byAdmin.text)")
            #expect(try await env.count("SELECT COUNT(*) FROM images WHERE ownerId = ?", [owner.id]) == 1)
            #expect(try await env.count("SELECT COUNT(*) FROM images WHERE ownerId IS NULL") == 1)

            // A browser page of another site cannot post with the owner's cookie.
            let crossSite = try await client.upload(
                bytes, type: "image/png",
                headers: merged(try await ownerSession(env, name: "olive"), [.origin: "https://evil.example"]))
            expectAPIError(crossSite, .forbidden, "cross_origin")
        }
    }

    @Test func theSameBytesTwiceAreOneFileAndOneRow() async throws {
        try await withImageApp { client, env, folder in
            let first = try await client.upload(
                ImageFixtures.jpeg.bytes, type: "image/jpeg", headers: ownerSession(env))
            #expect(first.status == .created)
            let second = try await client.upload(
                ImageFixtures.jpeg.bytes, type: "image/jpeg", headers: [.authorization: "Bearer \(adminToken)"])
            #expect(second.status == .ok, "\(second.text)")
            #expect(second.text == first.text)
            #expect(second.headers[.location] == first.headers[.location])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: folder) == [
                    String(first.headers[.location]?.dropFirst(8) ?? "")
                ])
            #expect(try await env.count("SELECT COUNT(*) FROM images") == 1)
            // The first uploader's row is kept.
            #expect(try await env.count("SELECT COUNT(*) FROM images WHERE ownerId = 1") == 1)
        }
    }

    @Test func theBytesDecideTheTypeNotTheContentType() async throws {
        try await withImageApp { client, env, folder in
            for declared in ["image/jpeg", "application/octet-stream", "text/html"] {
                let r = try await client.upload(
                    ImageFixtures.png.bytes, type: declared, headers: ownerSession(env, name: "o-\(declared.count)"))
                #expect(r.status == .created || r.status == .ok, "\(declared): \(r.text)")
                #expect(try r.json()["contentType"].string == "image/png")
                #expect(try r.json()["url"].string?.hasSuffix(".png") == true)
            }
            let served = try await client.get(
                try FileManager.default.contentsOfDirectory(atPath: folder).map { "/images/" + $0 }.first ?? "")
            #expect(served.headers[.contentType] == "image/png")
        }
    }

    @Test func refusesWhatIsNotAnImageNamingTheRule() async throws {
        try await withImageApp { client, env, folder in
            let owner = try await ownerSession(env)
            let svg =
                "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><rect width=\"9\" height=\"9\"/></svg>"
            let svgAnswer = try await client.upload(Array(svg.utf8), type: "image/svg+xml", headers: owner)
            expectAPIError(svgAnswer, .unsupportedMediaType, "unsupported_image_type")
            #expect(svgAnswer.text.contains("SVG"))

            let html = try await client.upload(
                Array("<!doctype html><script>alert(1)</script>".utf8), type: "image/png", headers: owner)
            expectAPIError(html, .unsupportedMediaType, "unsupported_image_type")
            #expect(html.text.contains("an HTML page (sent as image/png)"), "\(html.text)")

            let truncated = try await client.upload(
                Array(ImageFixtures.png.bytes.prefix(60)), type: "image/png", headers: owner)
            expectAPIError(truncated, .unprocessableContent, "unreadable_image")
            #expect(truncated.text.contains("PNG"))

            expectAPIError(try await client.upload([], type: "image/png", headers: owner), .badRequest, "empty_image")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
            #expect(try await env.count("SELECT COUNT(*) FROM images") == 0)
        }
    }

    @Test("an image over the pixel cap is refused with image_too_many_pixels and a sentence, and nothing is stored")
    func refusesImagesPhonesCannotDecode() async throws {
        try await withImageApp { client, env, folder in
            let owner = try await ownerSession(env)
            for (bytes, type) in [
                (ImageSnifferTests.png(width: 7_000, height: 7_000), "image/png"),
                (ImageSnifferTests.gif(screen: (7_000, 7_000), frame: (1, 1)), "image/gif"),
            ] {
                let answer = try await client.upload(bytes, type: type, headers: owner)
                expectAPIError(answer, .unprocessableContent, "image_too_many_pixels")
                let message = try answer.json()["error"]["message"].string ?? ""
                #expect(message.contains("7000 × 7000 pixels") && message.contains("40000000"), "\(message)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
            #expect(try await env.count("SELECT COUNT(*) FROM images") == 0)
        }
        try await withImageApp({ $0.maxImagePixels = 1_000 }) { client, env, _ in
            let owner = try await ownerSession(env)
            // --max-image-pixels: the configured budget, not the default.
            #expect(
                try await client.upload(ImageFixtures.gif.bytes, type: "image/gif", headers: owner).status == .created)
            expectAPIError(
                try await client.upload(
                    ImageSnifferTests.png(width: 100, height: 11), type: "image/png", headers: owner),
                .unprocessableContent, "image_too_many_pixels")
        }
    }

    @Test func refusesBodiesOverTheLimit() async throws {
        try await withImageApp({ $0.maxImageBytes = 1_000 }) { client, env, folder in
            let owner = try await ownerSession(env)
            // 50 MB through the router: refused from its Content-Length before reading.
            let huge = try await client.upload(
                [UInt8](repeating: 0x89, count: 50_000_000), type: "image/png", headers: owner)
            expectAPIError(huge, .contentTooLarge, "body_too_large")
            var limitPlusOne = ImageFixtures.png.bytes
            limitPlusOne += [UInt8](repeating: 0, count: 1_001 - limitPlusOne.count)
            expectAPIError(
                try await client.upload(limitPlusOne, type: "image/png", headers: owner), .contentTooLarge,
                "body_too_large")
            // Exactly at the limit passes the size rule (trailing bytes after IEND are allowed).
            let atLimit = try await client.upload(Array(limitPlusOne.dropLast()), type: "image/png", headers: owner)
            #expect(atLimit.status == .created, "\(atLimit.text)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 1)
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func answersAChunkedOversizedUploadWithoutReadingItAll() async throws {
        let folder = temporaryImagesFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        var config = AppConfiguration()
        config.database = path
        config.adminToken = adminToken
        config.dataDirectory = folder
        config.maxImageBytes = 1_000_000
        var logger = Logger(label: "swipedeck-test")
        logger.logLevel = .warning
        let app = try await buildApplication(config, logger: logger, clock: { fixedTime })
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let (sentWhenAnswered, answer) = try await RawHTTPConnection.run { () throws -> (Int, String) in
                let connection = try RawHTTPConnection(port: port)
                let head =
                    "POST /api/v1/images HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(adminToken)\r\n"
                    + "Content-Type: image/png\r\nTransfer-Encoding: chunked\r\n\r\n"
                _ = connection.send(Array(head.utf8))
                let chunk = [UInt8](repeating: 0, count: 65_536)
                var sent = 0
                // 50 MiB of chunks, unless the server answers first.
                while sent < 50 * 1_048_576, !connection.hasAnswered(waitingMilliseconds: 0) {
                    let body =
                        sent == 0 ? ImageFixtures.png.bytes + chunk.dropFirst(ImageFixtures.png.bytes.count) : chunk
                    guard connection.send(Array("10000\r\n".utf8) + body + Array("\r\n".utf8)) else { break }
                    sent += chunk.count
                }
                return (sent, connection.receive())
            }
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer.prefix(300))")
            #expect(answer.contains("\"code\":\"body_too_large\""))
            // The answer came after about the 1 MB limit (plus what socket buffers hold), long before 50 MiB.
            #expect(
                sentWhenAnswered >= 1_000_000 && sentWhenAnswered < 20 * 1_048_576,
                "sent \(sentWhenAnswered) bytes before the answer")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/images").isEmpty)
    }

    @Test func servesOnlyExactStoredNames() async throws {
        try await withImageApp { client, env, folder in
            let url =
                try await client.upload(ImageFixtures.png.bytes, type: "image/png", headers: ownerSession(env)).json()[
                    "url"
                ].string ?? ""
            let hash = String(url.dropFirst(8).prefix(64))
            try Data("secret".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
            for path in [
                "/images/\(hash).jpg", "/images/\(hash).PNG", "/images/\(hash.uppercased()).png",
                "/images/\(hash).png.png",
                "/images/\(hash)", "/images/notes.txt", "/images/..%2Fnotes.txt",
                "/images/" + String(repeating: "0", count: 64) + ".png",
                "/images/",
            ] {
                let r = try await client.get(path)
                #expect(r.status == .notFound, "\(path): \(r.status) \(r.text.prefix(300))")
                #expect(!r.text.contains("secret"))
            }
            // Dot segments never reach the route: the static file middleware refuses them with 400.
            for path in [
                "/images/%2e%2e/%2e%2e/etc/passwd", "/images/../images/notes.txt", "/images/../../../etc/passwd",
            ] {
                let r = try await client.get(path)
                #expect(r.status == .badRequest, "\(path): \(r.status)")
                #expect(!r.text.contains("secret") && !r.text.contains("root:"))
            }
            #expect(try await client.get(url).status == .ok)
        }
    }

    @Test(.sqliteOnly) func defaultFolderIsBesideTheDatabase() async throws {
        try await withApp { _, env in
            let folder = env.dbPath + "-data/images"
            defer { try? FileManager.default.removeItem(atPath: env.dbPath + "-data") }
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
        }
        #expect(AppConfiguration().imagesDirectory == "swipedeck.sqlite-data/images")
    }

    @Test func aCardCanShowAnUploadedImage() async throws {
        try await withImageApp { client, env, _ in
            let url =
                try await client.upload(
                    ImageFixtures.webpExtended.bytes, type: "image/webp", headers: ownerSession(env)
                ).json()["url"].string ?? ""
            let deck = try jsonString(["slug": "pics", "title": "Pics", "cards": [["title": "One", "image": url]]])
            let created = try await client.createDeck(deck)
            #expect(created.status == .created, "\(created.text)")
            #expect(try await env.row("SELECT image FROM cards WHERE title = 'One'")?["image"] == url)
        }
    }
}

// MARK: - Helpers

/// A fresh path for a temporary images folder (created by the app).
func temporaryImagesFolder() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("swipedeck-images-\(UUID().uuidString)").path
}

/// `withApp` with images stored in a fresh temporary folder (removed afterwards), passed as `folder`.
func withImageApp(
    _ configure: (inout AppConfiguration) -> Void = { _ in },
    _ body: @Sendable (_ client: any TestClientProtocol, _ env: TestEnv, _ folder: String) async throws -> Void
) async throws {
    let data = temporaryImagesFolder()
    defer { try? FileManager.default.removeItem(atPath: data) }
    try await withApp({ config in
        config.dataDirectory = data
        configure(&config)
    }) { client, env in try await body(client, env, data + "/images") }
}

/// A signed-in owner's session cookie (the owner is created, named `name`, on first use).
func ownerSession(_ env: TestEnv, name: String = "olive") async throws -> HTTPFields {
    let database = try await env.openStore()
    var owner = try await database.owner(named: name)
    if owner == nil { owner = try await database.createOwner(name: name, passwordHash: "unused", now: fixedTime).0 }
    let id = try #require(owner?.id)
    let token = Secret.token()
    try await database.startSession(ownerId: id, tokenHash: Secret.sha256(token), now: fixedTime, lifetime: 3_600)
    return [.cookie: "\(OwnerMiddleware.cookieName)=\(token)"]
}

extension TestClientProtocol {
    /// `POST /api/v1/images` with `bytes` as the body and `type` as its Content-Type.
    func upload(_ bytes: [UInt8], type: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(
            uri: "/api/v1/images", method: .post, headers: merged([.contentType: type], headers),
            body: ByteBuffer(bytes: bytes))
    }
}
