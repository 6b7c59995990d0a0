/// Drops comments from the scripts and stylesheets the server sends: the sources keep their
/// documentation, a phone does not download it (about a third of the compressed bytes). Code,
/// strings, template literals and regular expression literals pass through unchanged; a comment
/// becomes nothing, or a newline when it held one (so automatic semicolon insertion and line
/// structure do not change). Legal comments (`/*!`) are kept.
enum CommentStripper {
    /// `source` (a JavaScript module or classic script) without comments.
    static func javaScript(_ source: String) -> String {
        let text = Array(source.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        // Open template literals: the brace depth of each `${` in progress.
        var templates: [Int] = []
        var braces = 0
        // The last character of code, to tell a regular expression from a division.
        var previous: Unicode.Scalar = "\n"
        var previousWord = ""
        func at(_ k: Int) -> Unicode.Scalar? { k < text.count ? text[k] : nil }

        while i < text.count {
            let c = text[i]
            if c == "/" && at(i + 1) == "/" {
                while i < text.count && text[i] != "\n" { i += 1 }
                continue
            }
            if c == "/" && at(i + 1) == "*" && at(i + 2) != "!" {
                var newline = false
                i += 2
                while i < text.count && !(text[i] == "*" && at(i + 1) == "/") {
                    if text[i] == "\n" { newline = true }
                    i += 1
                }
                i += 2
                out.append(newline ? "\n" : " ")
                continue
            }
            if c == "'" || c == "\"" || (c == "/" && regexMayStart(after: previous, word: previousWord)) {
                i = copyQuoted(text, from: i, closer: c, into: &out)
                // After a literal, `/` divides.
                previous = "a"
                previousWord = ""
                continue
            }
            if c == "`" || (c == "}" && !templates.isEmpty && templates.last == braces) {
                if c == "}" { templates.removeLast() }
                // A template's text up to its end or its next `${`.
                out.append(c)
                i += 1
                while i < text.count && text[i] != "`" && !(text[i] == "$" && at(i + 1) == "{") {
                    if text[i] == "\\" {
                        out.append(text[i])
                        i += 1
                    }
                    if i < text.count {
                        out.append(text[i])
                        i += 1
                    }
                }
                if i < text.count && text[i] == "$" {
                    out.append("$")
                    out.append("{")
                    i += 2
                    braces += 1
                    templates.append(braces)
                } else if i < text.count {
                    out.append("`")
                    i += 1
                }
                previous = "a"
                previousWord = ""
                continue
            }
            if c == "{" { braces += 1 }
            if c == "}" { braces -= 1 }
            out.append(c)
            if !c.properties.isWhitespace {
                let isWord = c.properties.isAlphabetic || c == "_" || c == "$" || ("0"..."9").contains(c)
                previousWord = isWord ? (isWordScalar(previous) ? previousWord : "") + String(c) : ""
                previous = c
            }
            i += 1
        }
        return String(out)
    }

    /// `source` (a stylesheet) without comments; strings pass through.
    static func css(_ source: String) -> String {
        let text = Array(source.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < text.count {
            let c = text[i]
            if c == "/" && i + 1 < text.count && text[i + 1] == "*" && !(i + 2 < text.count && text[i + 2] == "!") {
                i += 2
                while i < text.count && !(text[i] == "*" && i + 1 < text.count && text[i + 1] == "/") { i += 1 }
                i += 2
                continue
            }
            if c == "'" || c == "\"" {
                i = copyQuoted(text, from: i, closer: c, into: &out)
                continue
            }
            out.append(c)
            i += 1
        }
        return String(out)
    }

    /// Keywords after which `/` starts a regular expression, not a division.
    private static let regexKeywords: Set<String> = [
        "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield",
        "await",
    ]

    private static func isWordScalar(_ c: Unicode.Scalar) -> Bool {
        c.properties.isAlphabetic || c == "_" || c == "$" || ("0"..."9").contains(c)
    }

    private static func regexMayStart(after previous: Unicode.Scalar, word: String) -> Bool {
        if isWordScalar(previous) { return regexKeywords.contains(word) }
        return !")]}".unicodeScalars.contains(previous)
    }

    /// Copies a quoted run (string or regular expression, with escapes; a regex's `[...]` class may
    /// hold its closer) from its opening character; returns the index after its closer.
    private static func copyQuoted(
        _ text: [Unicode.Scalar], from start: Int, closer: Unicode.Scalar, into out: inout String.UnicodeScalarView
    ) -> Int {
        var i = start
        out.append(text[i])
        i += 1
        var inClass = false
        while i < text.count {
            let c = text[i]
            out.append(c)
            i += 1
            if c == "\\" && i < text.count {
                out.append(text[i])
                i += 1
            } else if closer == "/" && c == "[" {
                inClass = true
            } else if closer == "/" && c == "]" {
                inClass = false
            } else if c == closer && !inClass {
                break
            } else if c == "\n" && closer != "/" {
                break
            }
        }
        return i
    }
}
