import Foundation
import Testing

@testable import SwipedeckServer

/// The comment stripper keeps every token of the scripts and stylesheets the server sends: esbuild
/// minifies each file as written and as stripped to the same bytes (minification drops comments
/// and whitespace and nothing else that matters here).
@Suite("Comments dropped from what is sent")
struct CommentStripperTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func esbuild(_ source: String, loader: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["esbuild", "--minify", "--loader=\(loader)", "--log-level=error"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(source.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "esbuild failed")
        return String(decoding: data, as: UTF8.self)
    }

    static func files(_ folder: String, _ ext: String) throws -> [URL] {
        let dir = root.appendingPathComponent(folder)
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil).filter {
            $0.pathExtension == ext
        }
    }

    @Test("every script in Public/js: the same program without its comments, and smaller")
    func scripts() throws {
        let scripts = try Self.files("Public/js", "js")
        #expect(scripts.count >= 8)
        for url in scripts {
            let source = try String(contentsOf: url, encoding: .utf8)
            let stripped = CommentStripper.javaScript(source)
            #expect(
                try Self.esbuild(stripped, loader: "js") == Self.esbuild(source, loader: "js"),
                "\(url.lastPathComponent)")
            #expect(
                !stripped.contains("// ") || url.lastPathComponent == "owner.js",
                "\(url.lastPathComponent) kept a comment")
            #expect(stripped.utf8.count < source.utf8.count, "\(url.lastPathComponent)")
        }
    }

    @Test("every stylesheet in Public/css: the same rules without comments")
    func stylesheets() throws {
        for url in try Self.files("Public/css", "css") {
            let source = try String(contentsOf: url, encoding: .utf8)
            let stripped = CommentStripper.css(source)
            #expect(
                try Self.esbuild(stripped, loader: "css") == Self.esbuild(source, loader: "css"),
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
