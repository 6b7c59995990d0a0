import ArgumentParser
import Foundation
import SwipedeckServer

struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write a deck's results to stdout.")

    @Argument(help: "Deck slug.") var deck: String
    @Option(help: "csv or json.") var format = "csv"
    @OptionGroup var db: DatabaseOption

    func run() async throws {
        let database = try await db.open()
        defer { Task { await database.close() } }
        guard let found = try await database.deck(slug: deck) else {
            throw ValidationError("No deck '\(deck)' in \(db.shown).")
        }
        let report = try await database.results(for: found)
        switch format {
        case "csv": print(ResultsCSV.render(report, names: DirectionNames(deck: found)), terminator: "")
        case "json":
            let enc = JSONEncoder()
            enc.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try enc.encode(report), as: UTF8.self))
        default: throw ValidationError("--format must be csv or json")
        }
    }
}
