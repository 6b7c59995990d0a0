import Crypto
import Foundation
import NIOCore

/// The static files of `Public/` (and generated ones, such as the per-profile stack stylesheets),
/// loaded once at start-up under content-hashed URLs. After start-up a lookup is a dictionary read:
/// no file-system access per request.
///
/// Scripts and stylesheets are sent without their comments (`CommentStripper`). References
/// between assets are rewritten to hashed URLs before hashing, so a changed image
/// changes the hash of the stylesheet naming it: stylesheets' absolute paths (`/img/empty.svg`,
/// written relative to the stylesheet), templates' absolute paths, scripts' relative module imports (`from './physics.js'`). A file is hashed
/// after the files it names; an import cycle leaves the files in it unrewritten.
struct StaticAssets: Sendable {
    /// Path prefixes served from this table; every other path goes to the router.
    static let prefixes = ["/css/", "/js/", "/img/"]
    /// Single files served from this table.
    static let files: Set<String> = ["/openapi.json"]

    private let byPath: [String: StaticAsset]
    private let byHashedPath: [String: StaticAsset]

    /// - Parameters:
    ///   - publicDirectory: the folder whose files are served at `/` + their relative path.
    ///   - generated: more assets as URL path → text (they may be named by the files).
    init(publicDirectory: String, generated: [String: String] = [:]) throws {
        var sources = try Self.readFiles(under: publicDirectory)
        for (path, text) in generated { sources[path] = Data(text.utf8) }
        var done: [String: StaticAsset] = [:]
        // Files that name no other asset first, then whatever names only finished ones.
        var pending = Set(sources.keys)
        while !pending.isEmpty {
            let ready = pending.filter { Self.references(of: $0, in: sources[$0]!).isSubset(of: Set(done.keys)) }
            // A cycle: take the rest as they are.
            let batch = ready.isEmpty ? pending : ready
            for path in batch.sorted() {
                let bytes = Self.rewritten(path, sources[path]!, hashed: done)
                done[path] = Self.asset(path: path, bytes: bytes)
            }
            pending.subtract(batch)
        }
        byPath = done
        byHashedPath = Dictionary(uniqueKeysWithValues: done.values.map { ($0.hashedPath, $0) })
    }

    /// The assets of `publicDirectory` and `generated`, built once per process for each (the
    /// files do not change while the server runs; tests build many apps on one checkout).
    static func shared(publicDirectory: String, generated: [String: String] = [:]) async throws -> StaticAssets {
        let key =
            publicDirectory + "\u{0}"
            + generated.keys.sorted().map { $0 + "\u{0}" + generated[$0]! }.joined(separator: "\u{0}")
        return try await built.value(key) { try StaticAssets(publicDirectory: publicDirectory, generated: generated) }
    }

    private static let built = BuiltOnce<StaticAssets>()

    /// Every path with its hashed URL: equal for two tables that serve the same files.
    var fingerprint: String {
        byPath.map { $0.key + "=" + $0.value.hashedPath }.sorted().joined(separator: "\u{0}")
    }

    /// Whether `path` belongs to the static table's namespace (an asset or a 404 of one).
    static func isStaticPath(_ path: String) -> Bool {
        files.contains(path) || prefixes.contains { path.hasPrefix($0) }
    }

    /// The asset at `path`, and whether `path` is its hashed URL.
    func lookup(_ path: String) -> (asset: StaticAsset, hashed: Bool)? {
        if let asset = byHashedPath[path] { return (asset, true) }
        if let asset = byPath[path] { return (asset, false) }
        return nil
    }

    /// The hashed URL of the asset at `path`; any other path (a card image elsewhere, an https URL)
    /// unchanged.
    func url(for path: String) -> String {
        byPath[path]?.hashedPath ?? path
    }

    /// `text` with every absolute asset path it names replaced by the asset's hashed URL.
    func rewriteReferences(in text: String) -> String {
        Self.replacing(Self.absolutePath, in: text) { match in byPath[match].map { $0.hashedPath } }
    }

    // MARK: Loading

    private static let absolutePath = try! NSRegularExpression(
        pattern: #"/(?:css|js|img)/[A-Za-z0-9_./-]+|/openapi\.json"#)
    private static let moduleImport = try! NSRegularExpression(
        pattern: #"(?<=from\s|import\s|import\()\s*['"]\./([A-Za-z0-9_-]+\.js)['"]"#)

    private static func readFiles(under directory: String) throws -> [String: Data] {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [:] }
        var files: [String: Data] = [:]
        // An entry whose kind cannot be read is skipped like a folder: only regular files are served.
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let relative = url.standardizedFileURL.path.dropFirst(root.path.count)
            let path = relative.hasPrefix("/") ? String(relative) : "/" + relative
            if isStaticPath(path) { files[path] = try Data(contentsOf: url) }
        }
        return files
    }

    /// The asset paths a file names (absolute ones in stylesheets, sibling modules in scripts).
    private static func references(of path: String, in bytes: Data) -> Set<String> {
        guard let text = String(data: bytes, encoding: .utf8) else { return [] }
        if path.hasSuffix(".css") {
            return Set(matches(absolutePath, in: text).filter { $0 != path })
        }
        if path.hasSuffix(".js") {
            let folder = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
            return Set(matches(moduleImport, in: text, group: 1).map { "\(folder)/\($0)" })
        }
        return []
    }

    private static func rewritten(_ path: String, _ bytes: Data, hashed: [String: StaticAsset]) -> Data {
        guard path.hasSuffix(".css") || path.hasSuffix(".js"), let source = String(data: bytes, encoding: .utf8) else {
            return bytes
        }
        let text = path.hasSuffix(".css") ? CommentStripper.css(source) : CommentStripper.javaScript(source)
        if path.hasSuffix(".css") {
            // Relative to the stylesheet's folder (`../img/…` from `/css/`), so a server under a
            // sub-path (`--base-path`) serves the same stylesheet.
            let up = String(repeating: "../", count: path.split(separator: "/").count - 1)
            return Data(replacing(absolutePath, in: text) { hashed[$0].map { up + $0.hashedPath.dropFirst() } }.utf8)
        }
        let folder = path[..<(path.lastIndex(of: "/") ?? path.startIndex)]
        let out = replacing(moduleImport, in: text) { match in
            let name = match.trimmingCharacters(in: CharacterSet(charactersIn: " '\""))
            guard name.hasPrefix("./"), let asset = hashed["\(folder)/\(name.dropFirst(2))"] else { return nil }
            let quote = match.contains("'") ? "'" : "\""
            return match.prefix { $0 == " " } + quote + "./" + asset.hashedPath.split(separator: "/").last! + quote
        }
        return Data(out.utf8)
    }

    private static func asset(path: String, bytes: Data) -> StaticAsset {
        let digest = Hex.string(SHA256.hash(data: bytes).prefix(5))
        let dot = path.lastIndex(of: ".").flatMap { $0 > (path.lastIndex(of: "/") ?? path.startIndex) ? $0 : nil }
        let hashedPath = dot.map { path[..<$0] + "." + digest + path[$0...] } ?? path + "." + digest
        let type = StaticContentType.of(path)
        let body = ByteBuffer(bytes: bytes)
        return StaticAsset(
            path: path, hashedPath: hashedPath, contentType: type.header, body: body,
            gzipped: type.compresses ? Gzip.compress(body) : nil, etag: "\"\(digest)\"")
    }

    // MARK: Regular expressions

    private static func matches(_ regex: NSRegularExpression, in text: String, group: Int = 0) -> [String] {
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap {
            Range($0.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    /// `text` with each match replaced by `replacement(match)`, or left when that is nil.
    private static func replacing(_ regex: NSRegularExpression, in text: String, _ replacement: (String) -> String?)
        -> String
    {
        var out = ""
        var last = text.startIndex
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            out += text[last..<range.lowerBound]
            let found = String(text[range])
            out += replacement(found) ?? found
            last = range.upperBound
        }
        return out + text[last...]
    }
}
