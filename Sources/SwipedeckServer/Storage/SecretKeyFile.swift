import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why the server cannot have its secret key, as a sentence naming what to do.
public struct SecretKeyProblem: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// The secret key's file: 64 hex digits and a newline, readable by its owner only (0600).
public enum SecretKeyFile {
    /// The key in the file at `path`.
    /// - Throws: `SecretKeyProblem` when it cannot be read or is not 64 hex digits.
    public static func load(_ path: String) throws(SecretKeyProblem) -> SecretKey {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SecretKeyProblem(description: "The secret key file \(path) cannot be read.")
        }
        guard let key = SecretKey(hex: String(decoding: data, as: UTF8.self)) else {
            throw SecretKeyProblem(
                description: "The secret key file \(path) does not hold a key: it must hold 64 hex digits.")
        }
        return key
    }

    /// The key in the file at `path`, or a new random key written there when there is no file
    /// (its folder made first). Written whole into a temporary file, then linked to its name,
    /// which fails if another server made the file first (then that one's key is read): two
    /// servers starting together on one data folder end with one key.
    /// - Returns: the key, and whether this call made it.
    public static func loadOrCreate(_ path: String) throws(SecretKeyProblem) -> (key: SecretKey, created: Bool) {
        if RegularFiles.kind(path) != .missing { return (try load(path), false) }
        let key = SecretKey.random()
        do {
            try save(key, to: path)
            return (key, true)
        } catch {
            if RegularFiles.kind(path) != .missing { return (try load(path), false) }
            throw error
        }
    }

    /// Writes `key` into a new file at `path` (mode 0600; never over an existing file or link).
    /// - Throws: `SecretKeyProblem` when the file exists or cannot be written.
    public static func save(_ key: SecretKey, to path: String) throws(SecretKeyProblem) {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw SecretKeyProblem(description: "The folder of the secret key file \(path) cannot be made.")
            }
        }
        let temporary = path + ".tmp-\(UUID().uuidString)"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SecretKeyProblem(description: "The secret key file \(path) cannot be written (errno \(errno)).")
        }
        defer { unlink(temporary) }
        let text = Array((key.hex + "\n").utf8)
        let wrote = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard wrote == text.count, synced else {
            throw SecretKeyProblem(description: "The secret key file \(path) cannot be written (errno \(errno)).")
        }
        // link(2) never replaces: a file (or link) already at `path` stays, and this fails.
        guard link(temporary, path) == 0 else {
            throw SecretKeyProblem(description: "The secret key file \(path) already exists.")
        }
    }
}

/// The secret key a server runs with, made ready against its database at start-up.
public enum SecretKeys {
    /// The configured key (`config.secretKey`, else the file `config.secretKeyPath`, made when
    /// missing), checked against the database: a database of an older version, whose secrets are in
    /// clear, has each sealed under it now (so every credential, link and signature made with them
    /// stays valid), once; a database whose secrets are kept under another key stops the start.
    /// - Throws: `SecretKeyProblem` with the sentence to print.
    public static func prepare(_ config: AppConfiguration, store: any Store, logger: Logger) async throws -> SecretKey {
        let key: SecretKey
        let stored = try await store.secretKeyCheck()
        if let given = config.secretKey {
            key = given
        } else if stored != nil || config.secretKeyFile != nil {
            // A database that has a key, or a file that was named: never make a new key silently.
            guard RegularFiles.kind(config.secretKeyPath) != .missing || stored == nil else {
                throw SecretKeyProblem(
                    description:
                        "This database's secrets are kept under a secret key, and its file \(config.secretKeyPath) is missing: put the key's file back (or name it with --secret-key-file, or give SWIPEDECK_SECRET_KEY), or run `swipedeck key reset` to make new secrets (every participant credential, secret link, allow-list key and webhook secret changes)."
                )
            }
            key = try SecretKeyFile.load(config.secretKeyPath)
        } else {
            let (loaded, created) = try SecretKeyFile.loadOrCreate(config.secretKeyPath)
            key = loaded
            if created {
                logger.notice(
                    "made the secret key: keep a copy apart from your backups (without it the database's secrets cannot be used)",
                    metadata: ["file": "\(config.secretKeyPath)"])
            }
        }
        do {
            let sealed = try await store.rewriteSecrets(expecting: .absent, check: key.check) { purpose, secret in
                key.seal(secret, for: purpose)
            }
            if let sealed, sealed > 0 {
                logger.notice(
                    "sealed the database's secrets under the secret key; issued credentials stay valid",
                    metadata: ["secrets": "\(sealed)"])
            }
        } catch is SecretKeyMismatch {
            throw SecretKeyProblem(
                description: config.secretKey != nil
                    ? "SWIPEDECK_SECRET_KEY is not the key this database's secrets are kept under: give that key, or run `swipedeck key reset` to make new secrets (every participant credential, secret link, allow-list key and webhook secret changes)."
                    : "The secret key in \(config.secretKeyPath) is not the key this database's secrets are kept under: give that key's file (--secret-key-file), or run `swipedeck key reset` to make new secrets (every participant credential, secret link, allow-list key and webhook secret changes)."
            )
        }
        return key
    }
}
