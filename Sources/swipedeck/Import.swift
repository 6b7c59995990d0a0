import ArgumentParser
import Foundation
import SwipedeckServer

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Load a deck from a JSON file (a deck object, as POST /api/v1/decks takes) or a CSV file (header: title,subtitle,body,image,link,accent).")

    @Argument(help: "A .json or .csv file.") var file: String
    @Option(help: "SQLite file (env SWIPEDECK_DB).") var db: String?
    @Option(help: "CSV only: deck slug (default: the file name).") var slug: String?
    @Option(help: "CSV only: deck title (default: the slug).") var title: String?
    @Option(help: "CSV only: physics profile.") var profile = "standard"

    func run() throws {
        let path = db ?? ProcessInfo.processInfo.environment["SWIPEDECK_DB"] ?? "swipedeck.sqlite"
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let input: DeckInput
        if file.lowercased().hasSuffix(".csv") {
            let name = slug ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent.lowercased()
            input = try DeckCSV.parse(String(decoding: data, as: UTF8.self), slug: name, title: title ?? name, profile: profile)
        } else {
            do {
                input = try JSONDecoder().decode(DeckInput.self, from: data)
            } catch {
                throw ValidationError("\(file) is not a deck JSON: \(error)")
            }
        }
        let database = try AppDatabase(path: path)
        let (deck, cards) = try input.validated(now: Date().timeIntervalSince1970)
        let total = cards.count
        let showProgress = total >= 5000
        let stored = try database.importDeck(deck, cards: cards) { done in
            if showProgress {
                FileHandle.standardError.write(Data("\rimported \(done)/\(total) cards (\(done * 100 / max(total, 1))%)".utf8))
            }
        }
        if showProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        print("Imported deck '\(stored.slug)' with \(total) cards into \(path). Open /d/\(stored.slug)")
    }
}
