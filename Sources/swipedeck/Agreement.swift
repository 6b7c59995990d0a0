import ArgumentParser
import Foundation
import SwipedeckServer

/// `swipedeck agreement`: the deck's agreement statistics on a counts table given as JSON, so
/// other tools (and the reference test against statsmodels and `krippendorff`) can check them.
struct AgreementCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agreement",
        abstract:
            "Fleiss' kappa and Krippendorff's alpha of a counts table: JSON in ({\"table\":[[2,1],[0,3]]}: one row per "
            + "card, one count per category), JSON out.")

    @Argument(help: "Input file; standard input when omitted.") var file: String?
    @Flag(help: "Also print the bootstrap 95 % intervals (1,000 seeded resamples of the cards).")
    var intervals = false

    struct Input: Decodable { var table: [[Int]] }

    struct Output: Encodable {
        var fleissKappa: FleissKappa?
        var krippendorffAlpha: Double?
        var cardAgreement: [Double?]
        var fleissKappaInterval: ConfidenceRange?
        var krippendorffAlphaInterval: ConfidenceRange?
    }

    func run() throws {
        let data: Data
        if let file {
            guard let read = FileManager.default.contents(atPath: file) else {
                throw ValidationError("Cannot read \(file).")
            }
            data = read
        } else {
            data = FileHandle.standardInput.readDataToEndOfFile()
        }
        let table: [[Int]]
        do {
            table = try JSONDecoder().decode(Input.self, from: data).table
        } catch {
            throw ValidationError("The input is not {\"table\": [[counts]]}: \(error.localizedDescription)")
        }
        guard let width = table.first?.count, table.allSatisfy({ $0.count == width && $0.allSatisfy { $0 >= 0 } })
        else {
            throw ValidationError("Every row of the table needs the same number of counts, none negative.")
        }
        var out = Output(
            fleissKappa: Agreement.fleissKappa(table), krippendorffAlpha: Agreement.krippendorffAlpha(table),
            cardAgreement: table.map(Agreement.cardAgreement))
        if intervals {
            out.fleissKappaInterval = Agreement.interval(of: { Agreement.fleissKappa($0)?.value }, over: table)
            out.krippendorffAlphaInterval = Agreement.interval(of: Agreement.krippendorffAlpha, over: table)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        FileHandle.standardOutput.write(try encoder.encode(out) + Data("\n".utf8))
    }
}
