import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PostgresNIO
import Synchronization
import Testing

@testable import SwipedeckServer

/// Owner sign-in under attack: limits taken before bcrypt, a bound on concurrent checks, no
/// lock-out from elsewhere, unknown names as slow as known ones, the password policy and the
/// change-password page, safe `next` paths, live streams that close when access goes, and the
/// admin token stored as a hash.
@Suite("Owners: sign-in hardening")
struct OwnerHardeningTests {
    // MARK: SignInGuard

    @Test("an attacker's failures on a name from address A never refuse the owner's correct password from address B")
    func attackerElsewhereCannotLockTheName() async throws {
        let guardian = SignInGuard()
        for i in 0..<40 {
            let v = try await guardian.check(address: "203.0.113.9", name: "Ada", now: fixedTime) { false }
            if i >= 10 { #expect(v != .checked(false), "attempt \(i) from the attacker must be refused before bcrypt") }
        }
        // The attacker is held back on that name…
        #expect(
            try await guardian.check(address: "203.0.113.9", name: "ada", now: fixedTime) { true } != .checked(true))
        // …while the owner, elsewhere, signs in.
        #expect(
            try await guardian.check(address: "198.51.100.7", name: "ada", now: fixedTime) { true } == .checked(true))
    }

    @Test(
        "the limit is taken before the check and refunded on success; made-up names behind one address lock nobody out")
    func takenBeforeRefundedOnSuccess() async throws {
        let guardian = SignInGuard()
        let ran = Mutex(0)
        // 9 failures, a success (refunds its token), then 1 more failure still passes: 10 failures in all.
        for _ in 0..<9 {
            _ = try await guardian.check(address: "a", name: "bob", now: fixedTime) {
                ran.withLock { $0 += 1 }
                return false
            }
        }
        #expect(try await guardian.check(address: "a", name: "bob", now: fixedTime) { true } == .checked(true))
        #expect(try await guardian.check(address: "a", name: "bob", now: fixedTime) { false } == .checked(false))
        // The eleventh failure on that name is refused without running the check.
        let before = ran.withLock { $0 }
        #expect(
            try await guardian.check(address: "a", name: "bob", now: fixedTime) {
                ran.withLock { $0 += 1 }
                return false
            } == .refused(retryAfter: 5))
        #expect(ran.withLock { $0 } == before)
        // 11 cheap failures with made-up names from one address (a school's NAT) do not lock out an owner there.
        for i in 0..<11 { _ = try await guardian.check(address: "nat", name: "ghost\(i)", now: fixedTime) { false } }
        #expect(try await guardian.check(address: "nat", name: "carol", now: fixedTime) { true } == .checked(true))
    }

    @Test("at most maxConcurrentChecks checks run at once; one more is refused at once and refunded")
    func boundedConcurrentChecks() async throws {
        let guardian = SignInGuard(maxConcurrentChecks: 3)
        let gate = Gate()
        try await withThrowingTaskGroup(of: SignInGuard.Verdict.self) { group in
            for i in 0..<3 {
                group.addTask {
                    try await guardian.check(address: "x\(i)", name: "n", now: fixedTime) {
                        await gate.wait()
                        return false
                    }
                }
            }
            while await gate.arrived < 3 { try await Task.sleep(for: .milliseconds(5)) }
            #expect(
                try await guardian.check(address: "y", name: "n", now: fixedTime) { true } == .refused(retryAfter: 1))
            await gate.open()
            for try await verdict in group { #expect(verdict == .checked(false)) }
        }
        #expect(guardian.peakConcurrentChecks == 3)
        // The refused attempt took nothing: its address has its whole budget.
        #expect(try await guardian.check(address: "y", name: "n", now: fixedTime) { true } == .checked(true))
    }

    @Test("a flood against one name keeps a reserved check for other names: victor's busy slots never refuse mallory")
    func floodLeavesRoomForOthers() async throws {
        let guardian = SignInGuard(maxConcurrentChecks: 4)
        #expect(guardian.reservedChecks == 1)
        // victor's name is contested: a failed check.
        #expect(try await guardian.check(address: "a0", name: "Victor", now: fixedTime) { false } == .checked(false))
        let gate = Gate()
        try await withThrowingTaskGroup(of: SignInGuard.Verdict.self) { group in
            for i in 1...3 {
                group.addTask {
                    try await guardian.check(address: "a\(i)", name: "victor", now: fixedTime) {
                        await gate.wait()
                        return false
                    }
                }
            }
            while await gate.arrived < 3 { try await Task.sleep(for: .milliseconds(5)) }
            // A fourth flooding attempt finds the unreserved slots full…
            #expect(
                try await guardian.check(address: "a9", name: "victor", now: fixedTime) { false }
                    == .refused(retryAfter: 1))
            // …mallory takes the reserved one.
            #expect(try await guardian.check(address: "m", name: "mallory", now: fixedTime) { true } == .checked(true))
            await gate.open()
            for try await verdict in group { #expect(verdict == .checked(false)) }
        }
    }

    /// A one-shot gate the checks above wait at.
    actor Gate {
        var isOpen = false
        var arrived = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        func wait() async {
            arrived += 1
            if isOpen { return }
            await withCheckedContinuation { waiters.append($0) }
        }
        func open() {
            isOpen = true
            for w in waiters { w.resume() }
            waiters = []
        }
    }

    // MARK: Sign-in over HTTP

    /// Creates an owner whose password hash has bcrypt cost `cost` (the app's, for timing).
    static func addOwner(_ env: TestEnv, _ name: String, cost: UInt8) async throws {
        let database = try await env.openStore()
        _ = try await database.createOwner(
            name: name, passwordHash: try await PasswordHasher(cost: cost).hash("correct horse battery"), now: fixedTime
        )
        await database.close()
    }

    @Test(
        "60 parallel wrong passwords: the limits are taken before bcrypt, so at most 50 are checked (before: all 60 were)",
        .timeLimit(.minutes(3)))
    func parallelWrongPasswords() async throws {
        try await withApp({ $0.passwordCost = 10 }) { client, env in
            try await Self.addOwner(env, "dan", cost: 10)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for i in 0..<60 {
                    group.addTask {
                        try await client.postForm(
                            "/owner/sign-in", "name=dan\(i % 3 == 0 ? "" : "x\(i)")&password=wrong-guess-\(i)"
                        ).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            let checked = statuses.filter { $0 == .unauthorized }.count
            let refused = statuses.filter { $0 == .tooManyRequests }.count
            #expect(checked + refused == 60)
            // Whatever the machine's speed: the address's 50 tokens are taken before bcrypt, and dan's
            // own 10 (20 of the 60 name dan); how many more the concurrency cap refuses depends on timing.
            #expect(checked <= 50, "\(checked) wrong passwords were checked by bcrypt")
            #expect(refused >= 10)
        }
    }

    @Test("an unknown name costs a bcrypt check as a known one does", .timeLimit(.minutes(3)))
    func unknownNamesCostTheSame() async throws {
        try await withApp({ $0.passwordCost = 10 }) { client, env in
            try await Self.addOwner(env, "eve", cost: 10)
            func time(_ name: String, _ i: Int) async throws -> Double {
                let start = Date()
                let r = try await client.postForm("/owner/sign-in", "name=\(name)&password=not-it-\(i)-xyz")
                #expect(r.status == .unauthorized && r.text.contains("do not match"))
                return Date().timeIntervalSince(start)
            }
            // Interleaved, and the fastest of each kept: load from other tests only adds time.
            var known = Double.infinity
            var unknown = Double.infinity
            for i in 0..<5 {
                known = min(known, try await time("eve", i))
                unknown = min(unknown, try await time("nobody-here", i))
            }
            // Before: about 1 ms for an unknown name against 60-140 ms for a known one at cost 10.
            #expect(unknown > known * 0.3, "unknown name \(unknown) s, known \(known) s")
        }
    }

    @Test(
        "next after sign-in is an in-app path only: tabs, backslashes, // and their percent-encoded forms go to /owner")
    func nextIsLocal() async throws {
        for bad in [
            "/\t/evil.example", "/%09/evil.example", "/%2509/evil.example", "//evil.example", "/\\evil.example",
            "/%5Cevil.example",
            "/%5C%5Cevil.example", "/%2F%2Fevil.example", "/%2f/evil.example", "\\\\evil.example",
            "https://evil.example", "/ /evil",
            "/\n/evil.example", "/%0A/evil.example", "/%E2%80%A8/evil", "evil.example", "", "/d/x/\u{7F}",
        ] {
            #expect(OwnerSessionController.safeNext(bad) == "/owner", "\(bad.debugDescription)")
        }
        for good in ["/owner", "/d/x/results", "/owner/decks/trip?saved=1#cards", "/d/caf%C3%A9"] {
            #expect(OwnerSessionController.safeNext(good) == good)
        }
        try await withApp { client, env in
            try await OwnerAuthTests.addOwner(env, "fay")
            // The browser form sends next percent-encoded; the server decodes it once.
            for next in [
                "/%09/evil.example", "/%5C/evil.example", "//evil.example", "/%5C%5Cevil.example",
                "/%252F%252Fevil.example",
            ] {
                let encoded = next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let r = try await client.postForm(
                    "/owner/sign-in", "name=fay&password=correct+horse+battery&next=\(encoded)")
                #expect(
                    r.status == .seeOther && r.headers[.location] == "/owner", "\(next) → \(r.headers[.location] ?? "")"
                )
            }
            // A signed-in owner visiting the sign-in page with a bad next stays here too.
            let session = try await OwnerAuthTests.signIn(client, "fay")
            let page = try await client.get("/owner/sign-in?next=/%09/evil.example", headers: session)
            #expect(page.status == .seeOther && page.headers[.location] == "/owner")
        }
    }

    // MARK: Password policy, CLI-level store change, change-password page

    @Test(
        "the password policy: length, common passwords (also with digits added), the owner's name, repeated pieces, few characters"
    )
    func passwordPolicy() {
        #expect(PasswordPolicy.problem("short") != nil)
        #expect(PasswordPolicy.problem(String(repeating: "x", count: 201)) != nil)
        for common in [
            "1234567890", "qwertyuiop", "password123", "Password2024!", "iloveyou123", "1q2w3e4r5t", "aaaaaaaaaaaa",
            "monkey2024!!",
        ] {
            #expect(PasswordPolicy.problem(common) != nil, "\(common)")
        }
        #expect(PasswordPolicy.problem("grace.hopper", name: "Grace.Hopper") != nil)
        // What a field test got through: repeated pieces, the name inside, the app's name, few characters.
        for weak in ["abcabcabca", "passwordpassword", "carolcarol", "          a", "zzzzzzzzzy"] {
            #expect(PasswordPolicy.problem(weak) != nil, "\(weak)")
        }
        #expect(PasswordPolicy.problem("swipedeck1") != nil)
        #expect(PasswordPolicy.problem("c13943c13943", name: "carol") != nil)
        #expect(PasswordPolicy.problem("xx-carol-2026!", name: "carol") != nil)
        #expect(PasswordPolicy.problem("correct horse battery") == nil)
        #expect(PasswordPolicy.problem(Secret.password()) == nil)
        #expect(CommonPasswords.list.count >= 300)
    }

    @Test(
        "change password: CSRF token needed, current password checked, policy errors next to the field, other sessions end"
    )
    func changePassword() async throws {
        try await withApp { client, env in
            try await OwnerAuthTests.addOwner(env, "gus")
            let session = try await OwnerAuthTests.signIn(client, "gus")
            let other = try await OwnerAuthTests.signIn(client, "gus")
            let page = try await client.get("/owner/password", headers: session)
            #expect(page.status == .ok)
            #expect(
                page.text.contains(#"<label for="current">Current password</label>"#)
                    && page.text.contains(#"<label for="new">New password</label>"#))
            #expect(!page.text.contains("<script>") && !page.text.contains("style="))
            let csrf = OwnerAuthTests.csrf(page.text)
            // Without the form token: refused.
            #expect(
                try await client.postForm(
                    "/owner/password", "current=correct+horse+battery&new=a+much+better+one", headers: session
                ).status == .forbidden)
            // A common new password: 400, the sentence beside the new password field.
            let common = try await client.postForm(
                "/owner/password", "csrf=\(csrf)&current=correct+horse+battery&new=password123", headers: session)
            #expect(common.status == .badRequest)
            #expect(common.text.contains(#"id="new-error""#) && common.text.contains("most common"))
            let short = try await client.postForm(
                "/owner/password", "csrf=\(csrf)&current=correct+horse+battery&new=short", headers: session)
            #expect(short.status == .badRequest && short.text.contains("at least 10 characters"))
            // A wrong current password: 401, the sentence beside the current password field.
            let wrong = try await client.postForm(
                "/owner/password", "csrf=\(csrf)&current=nope-nope-nope&new=a+much+better+one", headers: session)
            #expect(wrong.status == .unauthorized && wrong.text.contains(#"id="current-error""#))
            // Right: changed; this session stays, the other ends; the new password signs in, the old one not.
            let ok = try await client.postForm(
                "/owner/password", "csrf=\(csrf)&current=correct+horse+battery&new=a+much+better+one", headers: session)
            #expect(ok.status == .seeOther && ok.headers[.location] == "/owner/password?changed=1")
            #expect(try await client.get("/owner", headers: session).status == .ok)
            #expect(try await client.get("/owner", headers: other).status == .seeOther)
            #expect(
                try await client.postForm("/owner/sign-in", "name=gus&password=correct+horse+battery").status
                    == .unauthorized)
            _ = try await OwnerAuthTests.signIn(client, "gus", password: "a much better one")
        }
    }

    @Test("setPassword replaces the hash and ends the owner's sessions but the one kept (both engines)")
    func storeSetPassword() async throws {
        try await withApp { _, env in
            try await OwnerAuthTests.addOwner(env, "hal")
            let store = try await env.openStore()
            let id = try #require(try await store.owner(named: "hal")?.id)
            try await store.startSession(ownerId: id, tokenHash: "keep", now: fixedTime, lifetime: 100)
            try await store.startSession(ownerId: id, tokenHash: "drop", now: fixedTime, lifetime: 100)
            try await store.setPassword(ownerId: id, passwordHash: "new-hash", keeping: "keep", now: fixedTime + 1)
            #expect(try await store.owner(named: "hal")?.passwordHash == "new-hash")
            #expect(try await store.sessionOwner(tokenHash: "keep", now: fixedTime + 2)?.id == id)
            #expect(try await store.sessionOwner(tokenHash: "drop", now: fixedTime + 2) == nil)
            try await store.setPassword(ownerId: id, passwordHash: "newer", keeping: nil, now: fixedTime + 3)
            #expect(try await store.sessionOwner(tokenHash: "keep", now: fixedTime + 4) == nil)
            await #expect(throws: StoreError.notFound(.owner)) {
                try await store.setPassword(ownerId: 9999, passwordHash: "x", keeping: nil, now: fixedTime)
            }
        }
    }

    // MARK: Card links and images

    @Test("card links and images: scheme-relative and backslash forms, even percent-encoded, are not local paths")
    func cardPathsAreLocal() async throws {
        try await withApp { client, _ in
            for bad in [
                "/\\evil.example", "//evil.example", "/%5Cevil.example", "/%2F%2Fevil.example", "/\t/evil.example",
                "/%09/evil",
            ] {
                for field in ["link", "image"] {
                    let body = try jsonString([
                        "slug": "p\(abs(bad.hashValue) % 100_000)", "title": "P",
                        "cards": [["title": "a", field: bad]],
                    ])
                    let r = try await client.createDeck(body)
                    expectAPIError(r, .badRequest, "invalid_\(field)")
                }
            }
            let ok = try jsonString([
                "slug": "fine", "title": "P", "cards": [["title": "a", "link": "/d/fine", "image": "/images/a.png"]],
            ])
            #expect(try await client.createDeck(ok).status == .created)
        }
    }

    // MARK: Live results lose access

    /// Opens the live stream with `headers`, reads its first event, runs `change`, then reads
    /// what follows after a swipe on the deck (which would send an update).
    static func streamAfter(
        port: Int, slug: String, card: Int64, headers: String, _ change: @escaping @Sendable () async throws -> Void
    ) async throws -> (first: String, after: String) {
        let first = try await RawHTTPConnection.run { () throws -> (RawHTTPConnection, String) in
            let stream = try RawHTTPConnection(port: port)
            _ = stream.send(
                Array("GET /api/v1/decks/\(slug)/results/live HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n".utf8))
            return (stream, stream.receive(until: "event: results"))
        }
        try await change()
        let swipe = try swipeBody(card: card, direction: "right", participant: "late-\(UUID().uuidString.prefix(8))")
        let after = try await RawHTTPConnection.run { () throws -> String in
            let poster = try RawHTTPConnection(port: port)
            _ = poster.send(
                Array(
                    ("POST /api/v1/decks/\(slug)/swipes HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(swipe.utf8.count)\r\n\r\n" + swipe).utf8))
            _ = poster.receive()
            _ = first.0.hasAnswered(waitingMilliseconds: 3_000)
            return first.0.receive()
        }
        return (first.1, after)
    }

    @Test(
        "a live stream closes without another event when the deck is made private, the session signed out or the token revoked",
        .timeLimit(.minutes(3)))
    func liveStreamsCloseWhenAccessGoes() async throws {
        try await withApp({ $0.liveInterval = .milliseconds(100) }, testing: .live) { client, env in
            let ids = try await client.makeDeck("open-sse", titles: ["a", "b"])
            let port = try #require(client.port)
            let patch: @Sendable (String) async throws -> Void = { json in
                let r = try await client.patchDeck("open-sse", json)
                #expect(r.status == .ok, "\(r.text)")
            }
            try await patch(#"{"resultsPublic":true}"#)
            // Anonymous viewer of public results: the deck goes private.
            let anonymous = try await Self.streamAfter(port: port, slug: "open-sse", card: ids[0], headers: "") {
                try await patch(#"{"resultsPublic":false}"#)
            }
            #expect(
                anonymous.first.hasPrefix("HTTP/1.1 200") && anonymous.first.contains("event: results"),
                "\(anonymous.first.prefix(300))")
            #expect(
                !anonymous.after.contains("event: results"),
                "an update reached a viewer who lost access: \(anonymous.after.prefix(300))")
            #expect(
                anonymous.after.contains("0\r\n\r\n"),
                "the stream did not end: \(anonymous.after.debugDescription.prefix(300))")

            // The deck's owner, by session: signs out elsewhere.
            try await OwnerAuthTests.addOwner(env, "ivy")
            let store = try await env.openStore()
            let ivy = try #require(try await store.owner(named: "ivy")?.id)
            let owned = try await client.execute(
                uri: "/api/v1/decks", method: .post,
                headers: merged(jsonType, try await OwnerAuthTests.signIn(client, "ivy")),
                body: ByteBuffer(string: #"{"slug":"ivys","title":"Ivy's","cards":[{"title":"a"}]}"#))
            #expect(owned.status == .created)
            let ivyCards = try await client.cardIds("ivys")
            let token = Secret.token()
            try await store.startSession(ownerId: ivy, tokenHash: Secret.sha256(token), now: fixedTime, lifetime: 3_600)
            let bySession = try await Self.streamAfter(
                port: port, slug: "ivys", card: ivyCards[0], headers: "Cookie: sd_owner=\(token)\r\n"
            ) {
                try await store.endSession(tokenHash: Secret.sha256(token), now: fixedTime)
            }
            #expect(bySession.first.contains("event: results"), "\(bySession.first.prefix(300))")
            #expect(
                !bySession.after.contains("event: results") && bySession.after.contains("0\r\n\r\n"),
                "\(bySession.after.prefix(300))")

            // By API token: revoked.
            let apiToken = Secret.token(prefix: ApiTokenFormat.prefix)
            try await store.createApiToken(
                ownerId: ivy, name: "t", tokenHash: Secret.sha256(apiToken), prefix: "sdt_", now: fixedTime)
            let tokenId = try #require(try await store.apiTokens(ownerId: ivy).first?.id)
            let byToken = try await Self.streamAfter(
                port: port, slug: "ivys", card: ivyCards[0], headers: "Authorization: Bearer \(apiToken)\r\n"
            ) {
                try await store.revokeApiToken(id: tokenId, ownerId: ivy, now: fixedTime)
            }
            #expect(byToken.first.contains("event: results"), "\(byToken.first.prefix(300))")
            #expect(
                !byToken.after.contains("event: results") && byToken.after.contains("0\r\n\r\n"),
                "\(byToken.after.prefix(300))")
        }
    }

    // MARK: Admin token

    @Test("a generated admin token is stored as its SHA-256 only")
    func generatedAdminTokenIsHashed() async throws {
        try await withApp({ $0.adminToken = nil }) { _, env in
            let rows = try await env.rows("SELECT key, value FROM settings ORDER BY key")
            let keys = rows.compactMap { $0["key"] as String? }
            #expect(keys.contains(AdminToken.settingKey) && !keys.contains(AdminToken.legacySettingKey), "\(keys)")
            let hash = try #require(rows.first { $0["key"] == AdminToken.settingKey }?["value"] as String?)
            #expect(hash.count == 64 && hash.allSatisfy(\.isHexDigit))
        }
    }

    /// Runs `sql` statements on the database at `location` (either engine).
    static func execute(_ location: String, _ statements: [String]) async throws {
        switch try StoreLocation(location) {
        case .sqlite(let path):
            let queue = try DatabaseQueueForTests.open(path)
            try await queue.write { db in for s in statements { try db.execute(sql: s) } }
        case .postgres(let place):
            try await TestDatabase.connect(place) { connection in
                for s in statements {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: s), logger: TestDatabase.logger).collect()
                }
            }
        }
    }

    @Test(
        "the migration turns a stored plaintext admin token into its hash, which then authorises the token (both engines)"
    )
    func migrationHashesAStoredPlaintextToken() async throws {
        let location = try await TestDatabase.fresh()
        let store = try await openStore(location)
        await store.close()
        let undo =
            TestDatabase.onPostgres
            ? "DELETE FROM schemaMigrations WHERE name = 'v2'"
            : "DELETE FROM grdb_migrations WHERE identifier = 'v6-admin-token-hash'"
        // The database as an older version left it: the token in the clear, the migration not applied.
        try await Self.execute(
            location,
            [
                "DELETE FROM settings", "INSERT INTO settings (key, value) VALUES ('adminToken', 'old-plain-token')",
                undo,
            ])
        var config = AppConfiguration()
        config.database = location
        config.participantSecret = participantSecret
        config.secretKey = testSecretKey
        config.passwordCost = 4
        var logger = Logger(label: "swipedeck-test")
        logger.logLevel = .warning
        let env = TestEnv(location: location)
        do {
            let app = try await buildApplication(config, logger: logger, clock: { fixedTime })
            try await app.test(.router) { client in
                let rows = try await env.rows("SELECT key, value FROM settings WHERE key LIKE 'admin%'")
                #expect(rows.count == 1)
                #expect(rows.first?["key"] == AdminToken.settingKey)
                #expect(rows.first?["value"] == Secret.sha256("old-plain-token"))
                let r = try await client.get(
                    "/api/v1/decks/getaways/results", headers: [.authorization: "Bearer old-plain-token"])
                #expect(r.status == .ok, "\(r.text.prefix(200))")
                expectAPIError(
                    try await client.get(
                        "/api/v1/decks/getaways/results",
                        headers: [.authorization: "Bearer \(Secret.sha256("old-plain-token"))"]), .unauthorized,
                    "unauthorized")
            }
        } catch {
            await TestDatabase.drop(location)
            throw error
        }
        await TestDatabase.drop(location)
    }

    @Test("swipedeck copy carries the admin token's hash, never the token")
    func copyCarriesNoPlaintextToken() async throws {
        let from = temporaryDatabasePath()
        let to = temporaryDatabasePath()
        defer {
            removeDatabase(at: from)
            removeDatabase(at: to)
        }
        let source = try AppDatabase(path: from)
        let token = Secret.token()
        _ = try await source.setting(AdminToken.settingKey, orCreate: { Secret.sha256(token) })
        let target = try AppDatabase(path: to)
        _ = try await StoreCopier(source: source, target: target).run()
        let copied = try await target.setting(AdminToken.settingKey, orCreate: { "unused" })
        #expect(copied.value == Secret.sha256(token) && !copied.created)
        let all = try await target.readRows(
            try #require(CopyTable.all.first { $0.name == "settings" }), after: nil, limit: 100)
        #expect(!all.contains { row in row.values.contains { $0.canonical.contains(token) } })
    }
}

/// The blocking connection is used by one thread at a time (the tests hand it from one
/// `RawHTTPConnection.run` to the next, awaiting each), so it may cross tasks.
extension RawHTTPConnection: @unchecked Sendable {}

/// A GRDB queue on an SQLite file, for statements the tests run beside the app.
enum DatabaseQueueForTests {
    static func open(_ path: String) throws -> GRDB.DatabaseQueue {
        var config = GRDB.Configuration()
        config.busyMode = .timeout(5)
        return try GRDB.DatabaseQueue(path: path, configuration: config)
    }
}
