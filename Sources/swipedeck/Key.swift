import ArgumentParser
import Foundation
import SwipedeckServer

/// Where the secret key comes from, for `serve` and `key`: `--secret-key-file`, else
/// `SWIPEDECK_SECRET_KEY` (or the file `SWIPEDECK_SECRET_KEY_FILE` names), else
/// `<data folder>/secret.key`.
struct SecretKeyOption: ParsableArguments {
    @Option(
        help:
            "File holding the secret key the database's secrets are kept under, 64 hex digits (env SWIPEDECK_SECRET_KEY or SWIPEDECK_SECRET_KEY_FILE); default <data folder>/secret.key, made on first start."
    )
    var secretKeyFile: String?

    /// Sets `config.secretKey` or `config.secretKeyFile`.
    /// - Throws: a sentence when `SWIPEDECK_SECRET_KEY` is not 64 hex digits, or both forms are set.
    func apply(to config: inout AppConfiguration, env: EnvironmentSettings) throws {
        if let secretKeyFile {
            config.secretKeyFile = secretKeyFile
        } else if let text = try env.secret("SWIPEDECK_SECRET_KEY") {
            guard let key = SecretKey(hex: text) else {
                throw ValidationError(
                    "SWIPEDECK_SECRET_KEY must be 64 hex digits (for example from `openssl rand -hex 32`).")
            }
            config.secretKey = key
        }
    }
}

/// `swipedeck key`: the secret key kept outside the database (`SecretKey`).
struct KeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "The secret key the database's secrets are kept under: move them to a new key, or replace them.",
        subcommands: [Rotate.self, Reset.self])

    /// `swipedeck key rotate --new-key-file PATH`: every stored secret resealed under a new key.
    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Reseal every stored secret under a new key written to a new file; credentials, links and webhook secrets stay as they are. Stop the servers first."
        )

        @OptionGroup var db: DatabaseOption
        @OptionGroup var key: SecretKeyOption
        @Option(help: "The server's data folder (its --data-dir); default <database>-data.") var dataDir: String?
        @Option(help: "The new key's file (must not exist yet).") var newKeyFile: String

        func run() async throws {
            var config = AppConfiguration()
            config.database = try db.location
            config.dataDirectory = dataDir ?? EnvironmentSettings().string("SWIPEDECK_DATA_DIR")
            try key.apply(to: &config, env: EnvironmentSettings())
            let current: SecretKey
            if let given = config.secretKey {
                current = given
            } else {
                do {
                    current = try SecretKeyFile.load(config.secretKeyPath)
                } catch {
                    throw ValidationError(error.description)
                }
            }
            let store = try await db.open()
            defer { Task { await store.close() } }
            let fresh = SecretKey.random()
            do {
                try SecretKeyFile.save(fresh, to: newKeyFile)
            } catch {
                throw ValidationError(error.description)
            }
            let count: Int?
            do {
                count = try await store.rewriteSecrets(expecting: .check(current.check), check: fresh.check) {
                    purpose, stored in
                    fresh.seal(try current.reveal(stored, for: purpose), for: purpose)
                }
            } catch {
                // Nothing was rewritten: the new file would only mislead (a leftover one is refused next time, named).
                try? FileManager.default.removeItem(atPath: newKeyFile)
                if error is SecretKeyMismatch || error is SecretKey.Unreadable {
                    throw ValidationError(
                        "The current key (\(config.secretKey == nil ? config.secretKeyPath : "SWIPEDECK_SECRET_KEY")) is not the key this database's secrets are kept under; nothing was changed."
                    )
                }
                throw error
            }
            print(
                "Resealed \(count ?? 0) secrets under the new key in \(newKeyFile). Start every server with --secret-key-file \(newKeyFile) (or move it to \(config.secretKeyPath)); the former key opens nothing in this database any more."
            )
        }
    }

    /// `swipedeck key reset`: new secrets under a new key, for a lost key.
    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Replace every stored secret with a new one under a new key (when the key is lost): every participant credential, secret link, allow-list key and webhook secret changes. Stop the servers first."
        )

        @OptionGroup var db: DatabaseOption
        @Option(help: "The server's data folder (its --data-dir); default <database>-data.") var dataDir: String?
        @Option(help: "The new key's file (must not exist yet); default <data folder>/secret.key.") var newKeyFile:
            String?

        func run() async throws {
            var config = AppConfiguration()
            config.database = try db.location
            config.dataDirectory = dataDir ?? EnvironmentSettings().string("SWIPEDECK_DATA_DIR")
            let path = newKeyFile ?? config.secretKeyPath
            let store = try await db.open()
            defer { Task { await store.close() } }
            let fresh = SecretKey.random()
            do {
                try SecretKeyFile.save(fresh, to: path)
            } catch {
                throw ValidationError(error.description + " Name a new file with --new-key-file.")
            }
            let count = try await store.rewriteSecrets(expecting: .any, check: fresh.check) { purpose, _ in
                purpose == .webhook ? Secret.token(prefix: "whsec_") : Secret.token()
            }
            print(
                "Replaced \(count ?? 0) secrets under the new key in \(path): participants join again, owners share their decks' new links and allow-list keys (the share page), and webhooks need their receivers given the new secrets (register them again)."
            )
        }
    }
}
