import ArgumentParser

/// `swipedeck`: parses arguments and calls into `SwipedeckServer` / `SwipePhysics`.
@main
struct Swipedeck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Swipe-to-decide card decks: a server, importer, exporter and trace classifier.",
        subcommands: [
            Serve.self, Import.self, Export.self, Classify.self, OwnerCommand.self, Seed.self, Copy.self, Backup.self,
            Restore.self, AgreementCommand.self, KeyCommand.self,
        ],
        defaultSubcommand: Serve.self)
}
