import Foundation
import TestSupport
import Testing

@testable import SwipedeckServer

/// The comment stripper keeps every token of the scripts and stylesheets the server sends: esbuild
/// minifies each file as written and as stripped to the same bytes (minification drops comments
/// and whitespace and nothing else that matters here).
@Suite("Comments dropped from what is sent")
struct CommentStripperTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// esbuild's minified form of `source`, run as a child process awaited off the concurrency pool.
    static func esbuild(_ source: String, loader: String) async throws -> String {
        let esbuild = try #require(ChildProcess.find("esbuild"), "esbuild is not installed; `make test` installs it")
        let ended = try await ChildProcess.run(
            esbuild, ["--minify", "--loader=\(loader)", "--log-level=error"], input: Data(source.utf8))
        #expect(ended.status == 0, "esbuild failed: \(ended.errorText)")
        return ended.text
    }

    static func files(_ folder: String, _ ext: String) throws -> [URL] {
        let dir = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil).filter {
            $0.pathExtension == ext
        }
    }

    @Test("every script in Public/js: the same program without its comments, and smaller")
    func scripts() async throws {
        let scripts = try Self.files("Public/js", "js")
        #expect(scripts.count >= 8)
        for url in scripts {
            let source = try String(contentsOf: url, encoding: .utf8)
            let stripped = CommentStripper.javaScript(source)
            #expect(
                try await Self.esbuild(stripped, loader: "js") == Self.esbuild(source, loader: "js"),
                "\(url.lastPathComponent)")
            #expect(
                !stripped.contains("// ") || url.lastPathComponent == "owner.js",
                "\(url.lastPathComponent) kept a comment")
            #expect(stripped.utf8.count < source.utf8.count, "\(url.lastPathComponent)")
        }
    }

    @Test("every stylesheet in Public/css: the same rules without comments")
    func stylesheets() async throws {
        for url in try Self.files("Public/css", "css") {
            let source = try String(contentsOf: url, encoding: .utf8)
            let stripped = CommentStripper.css(source)
            #expect(
                try await Self.esbuild(stripped, loader: "css") == Self.esbuild(source, loader: "css"),
                "\(url.lastPathComponent)")
            #expect(!stripped.contains("/*"), "\(url.lastPathComponent)")
        }
    }

    @Test("strings, templates and regular expressions that look like comments survive")
    func lookalikes() {
        let js = """
            const a = '// not a comment'; // one
            const b = "/* nor this */";
            const c = `x ${a /* inner */ + `y // z`} // w`;
            const d = x.replace(/\\/\\/[^*]/g, '') / 2; /* two
            lines */ const e = 1;
            /*! kept */
            """
        let out = CommentStripper.javaScript(js)
        #expect(out.contains("'// not a comment';"))
        #expect(!out.contains("one") && !out.contains("inner") && !out.contains("two"))
        #expect(out.contains("\"/* nor this */\""))
        #expect(out.contains("`y // z`} // w`"))
        #expect(out.contains("/\\/\\/[^*]/g, '') / 2;"))
        #expect(out.contains("\n const e = 1;"))
        #expect(out.contains("/*! kept */"))
        #expect(CommentStripper.css("a { content: \"/* x */\"; } /* y */ b {}") == "a { content: \"/* x */\"; }  b {}")
    }
}
