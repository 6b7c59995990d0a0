import ArgumentParser
import Foundation
import SwipedeckServer

struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Load a deck from a JSON file (a deck object, as POST /api/v1/decks takes) or a CSV file (header: title,subtitle,body,image,images,link,accent,answer)."
    )

    @Argument(help: "A .json or .csv file.") var file: String
    @OptionGroup var db: DatabaseOption
    @Option(help: "CSV only: deck slug (default: the file name).") var slug: String?
    @Option(help: "CSV only: deck title (default: the slug).") var title: String?
    @Option(help: "CSV only: physics profile.") var profile = Deck.defaultProfile

    func run() async throws {
        do {
            try await importFile()
        } catch {
            guard let error = ApiError.of(error) else { throw error }
            throw ValidationError(Self.sentence(error, file: file, slug: slug))
        }
    }

    /// What went wrong and how to fix it, for a person at a terminal.
    static func sentence(_ error: ApiError, file: String, slug: String?) -> String {
        switch error {
        case .slugTaken:
            return
                "A deck with this slug already exists. Import under another one with --slug NAME (CSV), or change \"slug\" in the JSON."
        case .invalidField("invalid_csv_header", _):
            return
                "\(file) has no 'title' column. Its first line must name the columns, e.g. title,subtitle,body,images,link,accent,answer."
        case .invalidField("invalid_slug", _):
            return "'\(slug ?? file)' cannot be a slug: use 1–64 lower-case letters, digits and '-' (pass --slug NAME)."
        default:
            return "\(file) was not imported: \(error.message)"
        }
    }

    func importFile() async throws {
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw ValidationError(
                "Cannot read \(file): check the path (it is relative to \(FileManager.default.currentDirectoryPath)).")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let input: DeckInput
        if file.lowercased().hasSuffix(".csv") {
            let name = slug ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent.lowercased()
            input = try DeckCSV.parse(
                String(decoding: data, as: UTF8.self), slug: name, title: title ?? name, profile: profile)
        } else {
            do {
                input = try JSONDecoder().decode(DeckInput.self, from: data)
            } catch {
                let detail = (error as? DecodingError).map(RequestDecoding.describe) ?? "it is not valid JSON"
                throw ValidationError(
                    "\(file) is not a deck in JSON (\(detail)). It needs \"slug\", \"title\" and \"cards\": [{\"title\": …}]."
                )
            }
        }
        let (deck, cards) = try input.validated(now: Date().timeIntervalSince1970)
        let total = cards.count
        let showProgress = total >= 5000
        let database = try await db.open()
        defer { Task { await database.close() } }
        let stored = try await database.importDeck(deck, cards: cards) { done in
            if showProgress {
                FileHandle.standardError.write(
                    Data("\rimported \(done)/\(total) cards (\(done * 100 / max(total, 1))%)".utf8))
            }
        }
        if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        print("Imported deck '\(stored.slug)' with \(total) cards into \(db.shown). Open /d/\(stored.slug)")
    }
}
