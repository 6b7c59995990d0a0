import ArgumentParser
import Foundation
import SwipedeckServer

/// `swipedeck owner add NAME` / `swipedeck owner list`.
struct OwnerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "owner", abstract: "Create and list owner accounts (people who build decks and read results).",
        subcommands: [Add.self, List.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an owner. Prints a generated password once, or reads one line from stdin with --password-stdin.")

        @Argument(help: "Username: 1–64 characters of letters, digits, '.', '_', '-'.") var name: String
        @Flag(help: "Read the password (10–200 characters) from the first line of standard input.") var passwordStdin = false
        @OptionGroup var db: DatabaseOption

        func run() async throws {
            guard Owner.isValidName(name) else {
                throw ValidationError("'\(name)' cannot be a username: use 1–64 letters, digits, '.', '_' or '-'.")
            }
            var password = Secret.password()
            if passwordStdin {
                guard let line = readLine(strippingNewline: true), Owner.isAcceptablePassword(line) else {
                    throw ValidationError("The password on standard input must be 10–200 characters on one line.")
                }
                password = line
            }
            let database = try await db.open()
            defer { Task { await database.close() } }
            let path = db.shown
            let hash = try await PasswordHasher().hash(password)
            let owner: Owner
            let adopted: [String]
            do {
                (owner, adopted) = try await database.createOwner(name: name, passwordHash: hash, now: Date().timeIntervalSince1970)
            } catch ApiError.ownerNameTaken {
                throw ValidationError("An owner named '\(name)' already exists in \(path). Pick another name.")
            }
            var out = "Created owner '\(owner.name)' in \(path).\n"
            if !passwordStdin { out += "Password (shown once): \(password)\n" }
            if !adopted.isEmpty { out += "They now own the decks that had no owner: \(adopted.joined(separator: ", ")).\n" }
            out += "Sign in at /owner/sign-in on the running server.\n"
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
