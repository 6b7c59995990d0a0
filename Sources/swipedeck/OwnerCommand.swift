import ArgumentParser
import Foundation
import SwipedeckServer

/// `swipedeck owner add NAME` / `swipedeck owner password NAME` / `swipedeck owner list`.
struct OwnerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "owner",
        abstract: "Create and list owner accounts (people who build decks and read results), and set their passwords.",
        subcommands: [Add.self, Password.self, List.self])

    /// The password to set: generated (and printed once by the caller), or the first line of
    /// standard input, checked against `PasswordPolicy`.
    /// - Returns: the password and whether it was generated.
    static func choosePassword(fromStdin: Bool, name: String) throws -> (password: String, generated: Bool) {
        guard fromStdin else { return (Secret.password(), true) }
        guard let line = readLine(strippingNewline: true) else {
            throw ValidationError("Standard input had no line to read the password from.")
        }
        if let problem = PasswordPolicy.problem(line, name: name) {
            throw ValidationError("The password on standard input was refused: \(problem)")
        }
        return (line, false)
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Create an owner. Prints a generated password once, or reads one line from stdin with --password-stdin."
        )

        @Argument(help: "Username: 1–64 characters of letters, digits, '.', '_', '-'.") var name: String
        @Flag(help: "Read the password (10–200 characters, not a common one) from the first line of standard input.")
        var passwordStdin = false
        @OptionGroup var db: DatabaseOption

        func run() async throws {
            guard Owner.isValidName(name) else {
                throw ValidationError("'\(name)' cannot be a username: use 1–64 letters, digits, '.', '_' or '-'.")
            }
            let (password, _) = try OwnerCommand.choosePassword(fromStdin: passwordStdin, name: name)
            let database = try await db.open()
            defer { Task { await database.close() } }
            let path = db.shown
            let hash = try await PasswordHasher().hash(password)
            let owner: Owner
            let adopted: [String]
            do {
                (owner, adopted) = try await database.createOwner(
                    name: name, passwordHash: hash, now: Date().timeIntervalSince1970)
            } catch StoreError.ownerNameTaken {
                throw ValidationError("An owner named '\(name)' already exists in \(path). Pick another name.")
            }
            var out = "Created owner '\(owner.name)' in \(path).\n"
            if !passwordStdin { out += "Password (shown once): \(password)\n" }
            if !adopted.isEmpty {
                out += "They now own the decks that had no owner: \(adopted.joined(separator: ", ")).\n"
            }
            out += "Sign in at /owner/sign-in on the running server.\n"
            FileHandle.standardOutput.write(Data(out.utf8))
        }
    }

    struct Password: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set an owner's password and sign them out everywhere. Prints a generated password once, "
                + "or reads one line from stdin with --password-stdin.")

        @Argument(help: "The owner's username.") var name: String
        @Flag(
            help: "Read the new password (10–200 characters, not a common one) from the first line of standard input.")
        var passwordStdin = false
        @OptionGroup var db: DatabaseOption

        func run() async throws {
            let (password, generated) = try OwnerCommand.choosePassword(fromStdin: passwordStdin, name: name)
            let database = try await db.open()
            defer { Task { await database.close() } }
            let path = db.shown
            guard let owner = try await database.owner(named: name) else {
                throw ValidationError("There is no owner named '\(name)' in \(path). See: swipedeck owner list")
            }
            let hash = try await PasswordHasher().hash(password)
            try await database.setPassword(
                ownerId: owner.id, passwordHash: hash, keeping: nil, now: Date().timeIntervalSince1970)
            var out = "Set a new password for '\(owner.name)' in \(path); their sessions have ended.\n"
            if generated { out += "Password (shown once): \(password)\n" }
            FileHandle.standardOutput.write(Data(out.utf8))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List owners.")
        @OptionGroup var db: DatabaseOption

        func run() async throws {
            let database = try await db.open()
            let owners = try await database.owners()
            await database.close()
            let path = db.shown
            if owners.isEmpty {
                print("No owners in \(path). Create one with: swipedeck owner add NAME")
                return
            }
            for o in owners { print(o.name) }
        }
    }
}
