import Foundation
import Hummingbird
import Mustache

/// Renders `Templates/*.mustache` into HTML responses. Every data value goes through `{{ }}`
/// (HTML-escaped); the only triple-mustache is the profile JSON, which the server builds from
/// its own constants and escapes for a `<script>` block (`<`, `>`, `&` as \u escapes).
public struct PageRenderer: Sendable {
    let library: MustacheLibrary

    public init(templatesDirectory: String) async throws {
        library = try await MustacheLibrary(directory: templatesDirectory)
    }

    /// Renders `template` with `context` as a 200 (or `status`) HTML response.
    func page(_ template: String, _ context: [String: Any], status: HTTPResponse.Status = .ok) -> Response {
        let html = library.render(context, withTemplate: template) ?? "<!doctype html><title>Template missing</title>"
        return Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    func errorPage(status: HTTPResponse.Status, message: String, participantCookie: String?) -> Response {
        page("error", ["kind": "error", "pageTitle": "\(status.code) \(status.reasonPhrase)", "status": status.code, "reason": status.reasonPhrase, "message": message], status: status)
    }

    /// JSON safe inside `<script type="application/json">`: no `<`, `>` or `&` survive.
    static func scriptSafeJSON(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let s = String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
        return s.replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }
}
