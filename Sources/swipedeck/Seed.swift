import ArgumentParser
import Foundation
import SwipedeckServer

/// `swipedeck seed`: the benchmarks' fast path to a large deck (see `SwipeSeeder`).
struct Seed: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Store N valid drag swipes in a deck as the API would (benchmarks; no HTTP).")

    @Argument(help: "Deck slug.") var deck: String
    @Option(help: "Swipes to store.") var swipes = 100_000
    @OptionGroup var db: DatabaseOption
    @Option(help: "Secret the server signs participant ids with (its --participant-secret).") var participantSecret:
        String
    @Option(help: "Participant and key prefix ([A-Za-z0-9], distinct per seeding of one database).") var prefix = "seed"
    @Option(help: "Swipes per transaction.") var batch = 5_000

    func run() async throws {
        let database = try await db.open()
        let seeder = SwipeSeeder(store: database, signer: ParticipantSigner(secret: participantSecret))
        let start = Date()
        let created = try await seeder.seed(
            slug: deck, count: swipes, run: prefix, batch: batch, now: start.timeIntervalSince1970,
            progress: { n in if n % 500_000 == 0 { FileHandle.standardError.write(Data("seeded \(n)\n".utf8)) } })
        let seconds = Date().timeIntervalSince(start)
        await database.close()
        print("seeded \(created) swipes into \(deck) in \(String(format: "%.1f", seconds)) s")
    }
}
