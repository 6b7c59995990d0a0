import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import NIOCore
import Testing

@testable import SwipedeckServer

/// Issue 37, item 5 (row 37): backups carry no keys. The database keeps seeds (or sealed values)
/// that are useless without the secret key kept outside it; a database of an older version has
/// its secrets sealed on first start, and every credential, link and signature made before keeps
/// working. On both engines.
@Suite("The secret key: no usable secret in the database")
struct SecretKeyTests {
    @Test("a seed derives a secret per purpose; a sealed secret opens with its key only")
    func sealAndDerive() throws {
        let key = try #require(SecretKey(hex: String(repeating: "0f", count: 32)))
        let other = SecretKey.random()
        #expect(key.hex == String(repeating: "0f", count: 32) && key.check.count == 32 && key.check != other.check)
        #expect(SecretKey(hex: "0f0f") == nil && SecretKey(hex: String(repeating: "zz", count: 32)) == nil)
        // A seed: derived, 64 hex digits, apart per purpose and per key.
        let link = try key.reveal("seed-1", for: .deckAccess)
        let signing = try key.reveal("seed-1", for: .participantSigning)
        let otherLink = try other.reveal("seed-1", for: .deckAccess)
        #expect(link.count == 64 && link != "seed-1" && link != signing && link != otherLink)
        #expect(try key.reveal("seed-1", for: .webhook).hasPrefix("whsec_"))
        // Sealed: opens to the secret with its key and purpose; not with another key or purpose.
        let sealed = key.seal("legacy-link-key", for: .deckAccess)
        #expect(sealed.hasPrefix(SecretKey.sealedPrefix) && !sealed.contains("legacy"))
        #expect(try key.reveal(sealed, for: .deckAccess) == "legacy-link-key")
        #expect(throws: SecretKey.Unreadable.self) { try other.reveal(sealed, for: .deckAccess) }
        #expect(throws: SecretKey.Unreadable.self) { try key.reveal(sealed, for: .webhook) }
        #expect(throws: SecretKey.Unreadable.self) { try key.reveal(SecretKey.sealedPrefix + "AAAA", for: .webhook) }
    }

    /// Builds the app on `location` with `configure`, runs `body`; the database stays.
    static func withAppOn(
        _ location: String, data: String, _ configure: (inout AppConfiguration) -> Void = { _ in },
        _ body: @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        var config = AppConfiguration()
        config.database = location
        config.adminToken = adminToken
        config.dataDirectory = data
        config.passwordCost = 4
        config.seedSampleDeck = false
        configure(&config)
        var logger = Logger(label: "swipedeck-test")
        logger.logLevel = .warning
        let app = try await buildApplication(config, logger: logger, clock: { fixedTime })
        try await app.test(.router, body)
    }

    /// A scratch data folder, removed by the caller.
    static func dataFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("swipedeck-key-\(UUID().uuidString)").path
    }

    /// Every stored value a backup of `location` carries in the three places secrets live.
    static func storedSecrets(_ env: TestEnv) async throws -> [String] {
        var values: [String] = []
        for row in try await env.rows("SELECT value FROM settings WHERE key = 'participantSecret'") {
            values.append(row["value"] ?? "")
        }
        for row in try await env.rows("SELECT accessSecret FROM decks WHERE accessSecret <> ''") {
            values.append(row["accessSecret"] ?? "")
        }
        for row in try await env.rows("SELECT secret FROM webhooks") { values.append(row["secret"] ?? "") }
        return values
    }

    @Test(
        "an older database's secrets are sealed on first start: credentials, links, signatures and hooks keep working, and no copy holds one"
    )
    func legacySecretsSealed() async throws {
        let location = try await TestDatabase.fresh()
        let data = Self.dataFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let env = TestEnv(location: location)
        let legacy = (
            participant: "legacy-participant-secret-0123456789", link: "legacy-link-key-0123456789",
            allow: "legacy-allow-key-0123456789", hook: "whsec_legacy-hook-secret-0123456789"
        )
        // The database as a version that kept secrets in clear left it.
        let store = try await openStore(location)
        _ = try await store.setting("participantSecret", orCreate: { legacy.participant })
        var ids: [String: Int64] = [:]
        for (slug, access, secret) in [
            ("open", DeckAccessMode.link, ""), ("priv", .unlisted, legacy.link), ("allow", .allowList, legacy.allow),
        ] {
            var (deck, cards) = try DeckInput(
                slug: slug, title: slug, cards: [DeckInput.CardInput(title: "a"), DeckInput.CardInput(title: "b")]
            ).validated(now: fixedTime)
            deck.access = access
            deck.accessSecret = secret
            deck.countedInputs = Set(CountedInput.allCases)
            ids[slug] = try await store.importDeck(deck, cards: cards).id
        }
        let hook = try await store.addWebhook(
            deckId: try #require(ids["open"]), url: "https://hooks.example/in", events: [.deckDecided],
            secret: legacy.hook, by: nil, now: fixedTime)
        await store.close()
        let oldSigner = ParticipantSigner(secret: legacy.participant)
        let issued = oldSigner.mint(.deck(try #require(ids["open"]), .open), now: fixedTime - 60)

        let key = SecretKey.random()
        do {
            try await Self.withAppOn(location, data: data, { $0.secretKey = key }) { client in
                // A credential issued before still acts, the secret link and a signed id still admit.
                let cards = try await client.get("/api/v1/decks/open/cards?participant=\(issued)")
                let card = try #require(try cards.json()["cards"][0]["id"].int)
                let swiped = try await client.postJSON(
                    "/api/v1/decks/open/swipes",
                    try swipeBody(card: Int64(card), direction: "right", input: "api", trace: nil)
                        .replacingOccurrences(of: pid("alice"), with: issued))
                #expect(swiped.status == .created, "\(swiped.text)")
                #expect(try await client.get("/d/priv?k=\(legacy.link)").status == .seeOther)
                let sig = ParticipantSigner.externalSignature(pid: "ada@example.org", accessSecret: legacy.allow)
                #expect(try await client.get("/d/allow?pid=ada@example.org&sig=\(sig)").status == .seeOther)
                let info = try await client.get("/api/v1/decks/priv/access", headers: admin)
                #expect(try info.json()["link"].string == "/d/priv?k=\(legacy.link)")
            }
            // What the database (and so any backup or copy) holds: sealed values, none of the secrets.
            let stored = try await Self.storedSecrets(env)
            #expect(stored.count == 4 && stored.allSatisfy { $0.hasPrefix(SecretKey.sealedPrefix) }, "\(stored)")
            for secret in [legacy.participant, legacy.link, legacy.allow, legacy.hook] {
                #expect(!stored.contains { $0.contains(secret) })
            }
            let check = try await env.row("SELECT value FROM settings WHERE key = ?", [SecretKeyCheck.settingKey])
            #expect(check?["value"] == key.check)
            let reader = try await env.openStore()
            let openId = try #require(ids["open"])
            let hooks = try await reader.webhooks(deckId: openId)
            let sealedHook = try #require(hooks.first { $0.id == hook.id })
            #expect(try key.reveal(sealedHook.secret, for: .webhook) == legacy.hook)
            if !TestDatabase.onPostgres {
                // SQLite overwrote the former values' bytes: not in the file's free space, nor in its log.
                let bytes = [env.dbPath, env.dbPath + "-wal"].compactMap { FileManager.default.contents(atPath: $0) }
                    .reduce(Data(), +)
                for secret in [legacy.participant, legacy.link, legacy.allow, legacy.hook] {
                    #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(secret) is still in the file")
                }
            }
            // Started again with the same key: nothing more to seal, all still works.
            try await Self.withAppOn(location, data: data, { $0.secretKey = key }) { client in
                let again = try await client.get("/d/priv?k=\(legacy.link)")
                #expect(again.status == .seeOther)
            }
            // Another key cannot read them: the start stops with a sentence.
            do {
                try await Self.withAppOn(location, data: data, { $0.secretKey = SecretKey.random() }) { _ in }
                Issue.record("started with another key")
            } catch let problem as SecretKeyProblem {
                #expect(problem.description.contains("not the key this database's secrets are kept under"))
            }
        } catch {
            await env.closeStores()
            await TestDatabase.drop(location)
            throw error
        }
        await env.closeStores()
        await TestDatabase.drop(location)
    }

    @Test(
        "a new database keeps seeds only: what a backup holds forges no credential and opens no link; the key file is made once, 0600, and then required"
    )
    func backupHoldsNoUsableSecret() async throws {
        let location = try await TestDatabase.fresh()
        let data = Self.dataFolder()
        defer { try? FileManager.default.removeItem(atPath: data) }
        let env = TestEnv(location: location)
        do {
            try await Self.withAppOn(location, data: data) { client in
                #expect(
                    try await client.createDeck(#"{"slug":"priv","title":"P","cards":[{"title":"a"}]}"#).status
                        == .created)
                #expect(try await client.patchJSON("/api/v1/decks/priv", #"{"access":"unlisted"}"#).status == .ok)
                let link = try #require(
                    try await client.get("/api/v1/decks/priv/access", headers: admin).json()["link"].string)
                #expect(try await client.get(link).status == .seeOther, "the link the owner shares admits")
                let hook = try await client.postJSON(
                    "/api/v1/decks/priv/webhooks", #"{"url":"https://93.184.216.34/in","events":["deck.decided"]}"#,
                    headers: admin)
                let hookSecret = try #require(try hook.json()["secret"].string)
                let minted = try await client.postJSON(
                    "/api/v1/decks/priv/participants", #"{"key":"\#(link.split(separator: "=").last ?? "")"}"#)
                #expect(minted.status == .created, "\(minted.text)")

                // An attacker with a backup: the stored values sign nothing and open nothing.
                let stored = try await Self.storedSecrets(env)
                #expect(stored.count == 3 && !stored.contains(hookSecret) && !stored.contains { link.hasSuffix($0) })
                let seed = try #require(
                    try await env.row("SELECT value FROM settings WHERE key = 'participantSecret'")?["value"] as String?
                )
                let deckId = try #require(
                    try await env.row("SELECT id FROM decks WHERE slug = 'priv'")?.value(at: 0) as Int64?)
                for admission in [ParticipantCredential.Admission.secretLink, .code] {
                    let forged = ParticipantSigner(secret: seed).mint(
                        .deck(deckId, admission), subject: "ZZZZ2222", now: fixedTime)
                    expectAPIError(
                        try await client.get("/api/v1/decks/priv/history?participant=\(forged)"), .forbidden,
                        "unknown_participant")
                }
                let storedLink = try #require(
                    try await env.row("SELECT accessSecret FROM decks WHERE slug = 'priv'")?["accessSecret"] as String?)
                #expect(try await client.get("/d/priv?k=\(storedLink)").status == .forbidden)
            }
            // The key file: made on the first start, the owner's only, 64 hex digits.
            let path = data + "/secret.key"
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(
                SecretKey(hex: text)?.check
                    == (try await env.row("SELECT value FROM settings WHERE key = ?", [SecretKeyCheck.settingKey]))?[
                        "value"])
            // Without it the server does not start (it never makes a new key for sealed secrets).
            try FileManager.default.removeItem(atPath: path)
            do {
                try await Self.withAppOn(location, data: data) { _ in }
                Issue.record("started without the key file")
            } catch let problem as SecretKeyProblem {
                #expect(problem.description.contains("is missing"), "\(problem)")
            }
            #expect(!FileManager.default.fileExists(atPath: path))
        } catch {
            await env.closeStores()
            await TestDatabase.drop(location)
            throw error
        }
        await env.closeStores()
        await TestDatabase.drop(location)
    }
}
