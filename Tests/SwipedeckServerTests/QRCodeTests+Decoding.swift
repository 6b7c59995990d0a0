import Foundation
import TestSupport
import Testing

@testable import SwipedeckServer

// How the QR code tests read symbols back: a real decoder, zbarimg (Debian zbar-tools), on a PBM
// raster of the modules or on the SVG rasterised by rsvg-convert (librsvg2-bin). A missing tool
// fails the test, naming the package; `make test` installs both.
extension QRCodeTests {
    /// Decodes `code` drawn as a plain PBM (P1, "1" is black), 4 pixels per module with a
    /// 4-module quiet zone.
    static func decodePBM(_ code: QRCode) async throws -> String? {
        let scale = 4
        let quietZone = 4
        let side = (code.size + 2 * quietZone) * scale
        let light = [UInt8](repeating: UInt8(ascii: "0"), count: scale)
        let dark = [UInt8](repeating: UInt8(ascii: "1"), count: scale)
        var pbm = Array("P1\n\(side) \(side)\n".utf8)
        for y in -quietZone..<code.size + quietZone {
            var row: [UInt8] = []
            for x in -quietZone..<code.size + quietZone { row += code[x, y] ? dark : light }
            row.append(UInt8(ascii: "\n"))
            for _ in 0..<scale { pbm += row }
        }
        return try await withTemporaryFile(extension: "pbm", contents: Data(pbm)) { try await zbarDecode($0) }
    }

    /// Decodes `code.svg` after rasterising it with rsvg-convert (at its intrinsic 8 px per module).
    static func decodeSVG(_ code: QRCode) async throws -> String? {
        let rsvgConvert = try #require(
            executable("rsvg-convert"),
            "rsvg-convert is not installed; `make test` installs it (Debian package librsvg2-bin)")
        return try await withTemporaryFile(extension: "svg", contents: Data(code.svg(title: "QR code").utf8)) {
            svgPath in
            try await withTemporaryFile(extension: "png", contents: Data()) { pngPath in
                let (status, _) = try await run(rsvgConvert, ["--format=png", "--output", pngPath, svgPath])
                try #require(status == 0, "rsvg-convert failed on the SVG")
                return try await zbarDecode(pngPath)
            }
        }
    }

    /// The text zbarimg reads from the image at `path`, or nil when it finds no code.
    static func zbarDecode(_ path: String) async throws -> String? {
        let zbarimg = try #require(
            executable("zbarimg"),
            "zbarimg is not installed; `make test` installs it (Debian package zbar-tools)")
        let (status, output) = try await run(zbarimg, ["--quiet", "--raw", path])
        guard status == 0 else { return nil }
        var text = String(decoding: output, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Runs `body` with the path of a new temporary file holding `contents`, removed afterwards.
    static func withTemporaryFile<Result>(
        extension fileExtension: String, contents: Data, _ body: (String) async throws -> Result
    ) async throws -> Result {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("swipedeck-qr-\(UUID().uuidString).\(fileExtension)").path
        // Foundation's write ends with an fsync, which a busy disk can hold for seconds: off the pool.
        try await OffPool.run { try contents.write(to: URL(fileURLWithPath: path)) }
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(path)
    }

    /// The path of the executable `name` on PATH (or in /usr/bin, /usr/local/bin), nil if absent.
    static func executable(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (directories + ["/usr/bin", "/usr/local/bin"]).map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` to completion, awaited off the concurrency pool; its standard error is
    /// discarded (zbarimg warns about D-Bus).
    static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: Data) {
        // zbarimg reads images through ImageMagick, whose OpenMP threads would otherwise spin on every core.
        let ended = try await ChildProcess.run(
            URL(fileURLWithPath: executable), arguments,
            environment: ["OMP_NUM_THREADS": "1", "MAGICK_THREAD_LIMIT": "1"])
        return (ended.status, ended.output)
    }
}
