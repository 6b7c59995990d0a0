import Foundation

/// Parses a deck from CSV: a header row naming columns (title required; subtitle, body, image,
/// images, link, accent, answer optional, any order), RFC 4180 quoting, one card per row. `images` holds
/// several images separated by spaces or newlines (paths and URLs have none), the cover first.
public enum DeckCSV {
    public static func parse(_ text: String, slug: String, title: String, profile: String) throws -> DeckInput {
        let rows = records(text)
        guard let header = rows.first?.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) else {
            throw ApiError.invalidField(code: "no_cards", message: "The CSV file is empty.")
        }
        guard let ti = header.firstIndex(of: "title") else {
            throw ApiError.invalidField(code: "invalid_csv_header", message: "The CSV header needs a 'title' column.")
        }
        func col(_ name: String, _ row: [String]) -> String? {
            guard let i = header.firstIndex(of: name), i < row.count, !row[i].isEmpty else { return nil }
            return row[i]
        }
        let cards = rows.dropFirst().filter { !($0.count == 1 && $0[0].isEmpty) }.map { row in
            DeckInput.CardInput(
                title: ti < row.count ? row[ti] : "", subtitle: col("subtitle", row), body: col("body", row),
                image: col("image", row),
                images: col("images", row).map { $0.split(whereSeparator: \.isWhitespace).map(String.init) },
                link: col("link", row), accent: col("accent", row), answer: col("answer", row))
        }
        return DeckInput(slug: slug, title: title, profile: profile, cards: cards)
    }

    /// RFC 4180 records: fields separated by commas, quoted fields may hold commas, quotes ("")
    /// and newlines; CRLF or LF line ends.
    static func records(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var it = Array(text.unicodeScalars)[...]
        while let c = it.popFirst() {
            if quoted {
                if c == "\"" {
                    if it.first == "\"" {
                        field.unicodeScalars.append("\"")
                        it.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
            } else if c == "\n" || c == "\r" {
                if c == "\r" && it.first == "\n" { it.removeFirst() }
                row.append(field)
                rows.append(row)
                row = []
                field = ""
            } else {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty {
            row.append(field)
            rows.append(row)
        }
        return rows
    }
}
