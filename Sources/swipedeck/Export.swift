import ArgumentParser
import Foundation
import SwipedeckServer

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write a deck's results to stdout.")

    @Argument(help: "Deck slug.") var deck: String
    @Option(help: "csv or json.") var format = "csv"
    @Option(help: "SQLite file (env SWIPEDECK_DB).") var db: String?

    func run() async throws {
        let path = db ?? ProcessInfo.processInfo.environment["SWIPEDECK_DB"] ?? "swipedeck.sqlite"
        let database = try AppDatabase(path: path)
        guard let d = try await database.deck(slug: deck) else { throw ValidationError("No deck '\(deck)' in \(path).") }
        let report = try await database.results(for: d)
        switch format {
        case "csv": print(ResultsCSV.render(report), terminator: "")
        case "json":
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try enc.encode(report), as: UTF8.self))
        default: throw ValidationError("--format must be csv or json")
        }
    }
}
