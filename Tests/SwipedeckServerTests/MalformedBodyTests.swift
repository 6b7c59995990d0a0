import Foundation
import HummingbirdTesting
import Logging
import Testing

@testable import SwipedeckServer

/// Request framing the HTTP/1.1 parser refuses after the head arrived: a 400 JSON error with a
/// code, never a 500 (NIO's `HTTPParserError` surfaced from the body stream into the handler,
/// and `ErrorMiddleware` logged it as an internal error).
@Suite struct MalformedBodyTests {
    /// Sends `head` + `body` on a raw socket to a live server and returns everything it answered.
    static func exchange(_ raw: String) async throws -> String {
        let path = temporaryDatabasePath()
        defer { removeDatabase(at: path) }
        let folder = temporaryImagesFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var config = AppConfiguration()
        config.database = path
        config.adminToken = adminToken
        config.dataDirectory = folder
        config.seedSampleDeck = false
        var logger = Logger(label: "swipedeck-test")
        logger.logLevel = .critical
        let app = try await buildApplication(config, logger: logger, clock: { fixedTime })
        return try await app.test(.live) { client in
            let port = try #require(client.port)
            return try await RawHTTPConnection.run { () throws -> String in
                let connection = try RawHTTPConnection(port: port)
                _ = connection.send(Array(raw.utf8))
                return connection.receive()
            }
        }
    }

    static let chunkedHead = "Host: localhost\r\nAuthorization: Bearer \(adminToken)\r\nTransfer-Encoding: chunked\r\n"

    @Test(arguments: [
        ("a chunk size that is not hex", "zz\r\n{}\r\n0\r\n\r\n"),
        ("a chunk without its CRLF", "2\r\n{}XX5\r\nhello\r\n0\r\n\r\n"),
        ("a chunk size past 64 bits", "fffffffffffffffffff\r\n{}\r\n0\r\n\r\n"),
    ])
    func aDamagedChunkedJsonBodyIs400MalformedBody(_ label: String, _ body: String) async throws {
        let answer = try await Self.exchange(
            "POST /api/v1/decks HTTP/1.1\r\n" + Self.chunkedHead + "Content-Type: application/json\r\n\r\n" + body)
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(label): \(answer.prefix(400))")
        #expect(answer.contains(#""code":"malformed_body""#), "\(label): \(answer.prefix(400))")
        #expect(!answer.contains(" 500 "), "\(label)")
    }

    @Test func aDamagedChunkedImageUploadIs400MalformedBody() async throws {
        let answer = try await Self.exchange(
            "POST /api/v1/images HTTP/1.1\r\n" + Self.chunkedHead + "Content-Type: image/png\r\n\r\n"
                + "4\r\nPNGX\r\nnot hex\r\n")
        #expect(answer.hasPrefix("HTTP/1.1 400"), "\(answer.prefix(400))")
        #expect(answer.contains(#""code":"malformed_body""#), "\(answer.prefix(400))")
    }

    @Test func theErrorMapsTheParserErrorTo400() {
        #expect(ApiError.malformedBody.status == .badRequest)
        #expect(ApiError.malformedBody.code == "malformed_body")
    }
}
