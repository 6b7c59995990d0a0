import Foundation

/// Reading a request's `Accept-Encoding`.
enum AcceptEncoding {
    /// Whether the client takes gzip: `gzip` (or `*`) listed with a quality above 0 (RFC 9110
    /// §12.5.3); an explicit `gzip` entry wins over `*`. Absent header: no.
    static func allowsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var star = false
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let coding = parts.first else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if coding == "gzip" || coding == "x-gzip" { return quality > 0 }
            if coding == "*" { star = quality > 0 }
        }
        return star
    }
}
