import Foundation

/// Cards pasted or uploaded as CSV (header row with a `title` column) or JSON (an array of
/// cards, or a deck object with `cards`), checked row by row before anything is written.
struct CardImport {
    struct Row {
        let number: Int
        let title: String
        let subtitle: String
        let image: String
        let error: String?
        let ok: Bool
    }

    /// Every row with its error (if any), and the cards of the rows without one.
    let rows: [Row]
    let cards: [NewCard]
    /// A problem with the whole text (not CSV or JSON, no title column); nil when rows were read.
    let problem: String?

    var errorCount: Int { rows.filter { !$0.ok }.count }

    /// Most rows one import takes.
    static let maxRows = 10_000

    init(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var inputs: [DeckInput.CardInput] = []
        var problem: String?
        if trimmed.isEmpty {
            problem = "Paste a CSV or JSON file, or choose one."
        } else if trimmed.hasPrefix("[") || trimmed.hasPrefix("{") {
            let data = Data(trimmed.utf8)
            // Two shapes are tried in turn; a paste that is neither gets the sentence below, which
            // names both (the decoder's own message would name only the last shape tried).
            if let list = try? JSONDecoder().decode([DeckInput.CardInput].self, from: data) {
                inputs = list
            } else if let deck = try? JSONDecoder().decode(DeckInput.self, from: data) {
                inputs = deck.cards
            } else {
                problem = "This JSON is neither a list of cards ([{\"title\": …}]) nor a deck with \"cards\"."
            }
        } else {
            do {
                inputs = try DeckCSV.parse(trimmed, slug: "import", title: "import", profile: Deck.defaultProfile).cards
            } catch let error as ApiError {
                problem =
                    error.message
                    + " The first line must name the columns, e.g. title,subtitle,body,images,link,accent,answer."
            } catch {
                problem = "This is not a CSV file."
            }
        }
        if inputs.count > Self.maxRows {
            problem = "At most \(Self.maxRows) cards at a time; this has \(inputs.count)."
            inputs = []
        }
        var rows: [Row] = []
        var cards: [NewCard] = []
        for (i, input) in inputs.enumerated() {
            do {
                cards.append(try input.validated(position: i, label: "row \(i + 1)"))
                rows.append(
                    Row(
                        number: i + 1, title: input.title, subtitle: input.subtitle ?? "",
                        image: input.images?.first ?? input.image ?? "", error: nil, ok: true))
            } catch {
                rows.append(
                    Row(
                        number: i + 1, title: input.title, subtitle: input.subtitle ?? "",
                        image: input.images?.first ?? input.image ?? "", error: error.message, ok: false))
            }
        }
        if problem == nil && inputs.isEmpty { problem = "No cards found: the file has a header but no rows." }
        self.rows = rows
        self.cards = cards
        self.problem = problem
    }
}
