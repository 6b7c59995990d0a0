extension QRCode {
    /// The symbol as a standalone SVG document: a white background rectangle and one black `<path>`
    /// covering the dark modules (each horizontal run as one rectangle).
    ///
    /// The `viewBox` is in module units, `size + 2 × quietZone` on each side with the symbol offset by
    /// `quietZone`; `width` and `height` (CSS pixels) are that times `moduleSize`, which CSS may override.
    /// `shape-rendering="crispEdges"` keeps module edges sharp. Colours are presentation attributes
    /// (no `style` attribute or element, no script), so a `style-src 'self'` policy allows the image.
    /// `role="img"` and a `<title>` (with &, <, > and " escaped) give it an accessible name.
    ///
    /// - Parameters:
    ///   - moduleSize: CSS pixels per module for the intrinsic size; values below 1 count as 1.
    ///   - quietZone: light margin in modules; the standard asks for at least 4. Negative counts as 0.
    ///   - title: the accessible name, e.g. "QR code for https://…".
    public func svg(moduleSize: Int = 8, quietZone: Int = 4, title: String) -> String {
        let margin = max(0, quietZone)
        let side = size + 2 * margin
        let pixels = side * max(1, moduleSize)
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && self[x, y] { x += 1 }
                path += "M\(start + margin) \(y + margin)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(pixels)" \
            height="\(pixels)" shape-rendering="crispEdges" role="img"><title>\(Self.escapeXML(title))</title>\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }

    /// `text` with &, <, > and " replaced by entities, safe in XML text and double-quoted attributes.
    static func escapeXML(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
