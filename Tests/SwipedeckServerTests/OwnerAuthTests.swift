import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import SwipedeckServer

/// Owner accounts: sign-in, sessions, cross-site refusal, API tokens, and one owner never
/// reading or changing another's deck.
@Suite("Owners: sign-in, sessions, tokens, isolation")
struct OwnerAuthTests {
    /// Creates an owner directly in the app's database.
    static func addOwner(_ env: TestEnv, _ name: String, password: String = "correct horse battery") async throws {
        let database = try await env.openStore()
        _ = try await database.createOwner(
            name: name, passwordHash: try await PasswordHasher(cost: 4).hash(password), now: fixedTime)
        await database.close()
    }

    /// Signs in and returns the session cookie header.
    static func signIn(_ client: any TestClientProtocol, _ name: String, password: String = "correct horse battery")
        async throws -> HTTPFields
    {
        let r = try await client.postForm(
            "/owner/sign-in", "name=\(name)&password=\(password.replacingOccurrences(of: " ", with: "+"))&next=/owner")
        #expect(r.status == .seeOther, "sign-in of \(name): \(r.status)")
        // `sd_owner=…`, or `__Host-sd_owner=…` when the app counts as HTTPS: sent back as it came.
        let set = r.headers[.setCookie] ?? ""
        return [.cookie: String(set.prefix { $0 != ";" })]
    }

    /// Creates the owner, signs in and returns the session cookie header.
    static func signIn(_ client: any TestClientProtocol, _ name: String, adding env: TestEnv) async throws -> HTTPFields
    {
        try await addOwner(env, name)
        return try await signIn(client, name)
    }

    /// The csrf token printed in an owner page's forms.
    static func csrf(_ html: String) -> String {
        guard let r = html.range(of: #"name="csrf" value=""#) else { return "" }
        return String(html[r.upperBound...].prefix { $0 != "\"" })
    }

    @Test("sign-in sets an HttpOnly SameSite=Strict session; a wrong password is 401 and says so; sign-out ends it")
    func signInOut() async throws {
        try await withApp { client, env in
            try await Self.addOwner(env, "ada")
            let page = try await client.get("/owner/sign-in")
            #expect(page.status == .ok)
            #expect(
                page.text.contains(#"<label for="name">Username</label>"#)
                    && page.text.contains(#"<label for="password">Password</label>"#))
            let wrong = try await client.postForm("/owner/sign-in", "name=ada&password=nope&next=/owner")
            #expect(
                wrong.status == .unauthorized && wrong.text.contains("do not match") && wrong.headers[.setCookie] == nil
            )
            let ok = try await client.postForm("/owner/sign-in", "name=ada&password=correct+horse+battery&next=/owner")
            #expect(ok.status == .seeOther && ok.headers[.location] == "/owner")
            let set = ok.headers[.setCookie] ?? ""
            #expect(
                set.hasPrefix("sd_owner=") && set.contains("HttpOnly") && set.lowercased().contains("samesite=strict"))
            #expect(try await env.count("SELECT COUNT(*) FROM ownerSessions WHERE endedAt IS NULL") == 1)
            // The database keeps the token's hash, never the token.
            let token = String(set.dropFirst("sd_owner=".count).prefix { $0 != ";" })
            #expect(try await env.count("SELECT COUNT(*) FROM ownerSessions WHERE tokenHash = ?", [token]) == 0)
            let session: HTTPFields = [.cookie: "sd_owner=\(token)"]
            let dashboard = try await client.get("/owner", headers: session)
            // The first owner adopted the sample deck.
            #expect(dashboard.status == .ok && dashboard.text.contains("getaways"))
            // Sign-out needs the form token; then the session is over.
            let csrf = Self.csrf(dashboard.text)
            #expect(try await client.postForm("/owner/sign-out", "csrf=wrong", headers: session).status == .forbidden)
            #expect(try await client.postForm("/owner/sign-out", "csrf=\(csrf)", headers: session).status == .seeOther)
            #expect(try await client.get("/owner", headers: session).status == .seeOther)
            #expect(try await env.count("SELECT COUNT(*) FROM ownerSessions WHERE endedAt IS NOT NULL") == 1)
            // Open redirects are refused: next must be a local path.
            #expect(OwnerSessionController.safeNext("//evil.example/x") == "/owner")
            #expect(OwnerSessionController.safeNext("https://evil.example") == "/owner")
            #expect(OwnerSessionController.safeNext("/d/x/results") == "/d/x/results")
        }
    }

    @Test("failed sign-ins are rate-limited per name: the eleventh try waits even with the right password")
    func signInLimit() async throws {
        try await withApp { client, env in
            try await Self.addOwner(env, "bob")
            for _ in 0..<10 {
                #expect(
                    try await client.postForm("/owner/sign-in", "name=bob&password=guess1234567").status
                        == .unauthorized)
            }
            let limited = try await client.postForm("/owner/sign-in", "name=bob&password=correct+horse+battery")
            #expect(limited.status == .tooManyRequests)
            #expect(Int(limited.headers[.retryAfter] ?? "") ?? 0 >= 1)
            #expect(limited.headers[.setCookie] == nil)
        }
    }

    @Test("one owner cannot read or change another's deck, by page, form or API")
    func isolation() async throws {
        try await withApp { client, env in
            try await Self.addOwner(env, "ann")  // adopts the sample deck `getaways`
            try await Self.addOwner(env, "ben")
            let ann = try await Self.signIn(client, "ann")
            let ben = try await Self.signIn(client, "ben")
            #expect(try await client.get("/api/v1/decks/getaways/results", headers: ann).status == .ok)
            expectAPIError(
                try await client.get("/api/v1/decks/getaways/results", headers: ben), .forbidden, "not_your_deck")
            expectAPIError(
                try await client.get("/api/v1/decks/getaways/results.csv", headers: ben), .forbidden, "not_your_deck")
            #expect(try await client.get("/d/getaways/results", headers: ben).status == .forbidden)
            let patch = try await client.execute(
                uri: "/api/v1/decks/getaways", method: .patch, headers: merged(jsonType, ben),
                body: ByteBuffer(string: #"{"open":false}"#))
            expectAPIError(patch, .forbidden, "not_your_deck")
            expectAPIError(
                try await client.postJSON("/api/v1/decks/getaways/cards", #"{"title":"mine"}"#, headers: ben),
                .forbidden, "not_your_deck")
            let benDashboard = try await client.get("/owner", headers: ben).text
            #expect(!benDashboard.contains("getaways"))
            // Ben's own deck, made through the API with his session, is his.
            let made = try await client.postJSON(
                "/api/v1/decks", #"{"slug":"bens","title":"Ben's","cards":[{"title":"a"}]}"#, headers: ben)
            #expect(made.status == .created)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM decks WHERE slug = 'bens' AND ownerId = (SELECT id FROM owners WHERE name = 'ben')"
                ) == 1)
            expectAPIError(
                try await client.get("/api/v1/decks/bens/results", headers: ann), .forbidden, "not_your_deck")
            // Without anybody signed in, creating a deck is 401.
            expectAPIError(
                try await client.postJSON("/api/v1/decks", #"{"slug":"anon","title":"A","cards":[{"title":"a"}]}"#),
                .unauthorized, "unauthorized")
        }
    }

    @Test(
        "API tokens: created on the tokens page (shown once), work as Bearer for their owner's decks, revoked ones stop"
    )
    func apiTokens() async throws {
        try await withApp { client, env in
            try await Self.addOwner(env, "cat")
            let cat = try await Self.signIn(client, "cat")
            let page = try await client.get("/owner/tokens", headers: cat)
            #expect(page.status == .ok && page.text.contains(#"<label for="token-name">Token name</label>"#))
            let csrf = Self.csrf(page.text)
            #expect(try await client.postForm("/owner/tokens", "name=export", headers: cat).status == .forbidden)
            let created = try await client.postForm("/owner/tokens", "csrf=\(csrf)&name=nightly+export", headers: cat)
            // POST-redirect-GET: the token is shown by the page redirected to, once, from a short-lived flash.
            #expect(created.status == .seeOther && created.headers[.location] == "/owner/tokens")
            let flash = try #require(created.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            #expect(
                flash.hasPrefix("sd_token_flash=")
                    && created.headers[.setCookie]?.contains("Path=/owner/tokens") == true)
            let shown = try await client.get("/owner/tokens", headers: merged(cat, [.cookie: flash]))
            #expect(shown.headers[.setCookie]?.contains("Max-Age=0") == true)
            // Reloading (the browser may still send the cookie) shows it no more and creates nothing.
            let reloaded = try await client.get("/owner/tokens", headers: merged(cat, [.cookie: flash]))
            #expect(!reloaded.text.contains(#"id="new-token""#))
            #expect(try await env.count("SELECT COUNT(*) FROM apiTokens") == 1)
            let html = shown.text
            guard let r = html.range(of: #"id="new-token">"#) else {
                Issue.record("no token shown")
                return
            }
            let token = String(html[r.upperBound...].prefix { $0 != "<" })
            #expect(token.hasPrefix("sdt_") && token.count == 68)
            #expect(
                try await env.count("SELECT COUNT(*) FROM apiTokens WHERE tokenHash = ?", [Secret.sha256(token)]) == 1)
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            #expect(try await client.get("/api/v1/decks/getaways/results", headers: bearer).status == .ok)
            // The list shows its name and prefix, never the token again.
            let list = try await client.get("/owner/tokens", headers: cat).text
            #expect(list.contains("nightly export") && !list.contains(token))
            let id = try #require(try await env.row("SELECT id FROM apiTokens")?["id"] as Int64?)
            #expect(
                try await client.postForm("/owner/tokens/\(id)/revoke", "csrf=\(csrf)", headers: cat).status
                    == .seeOther)
            expectAPIError(
                try await client.get("/api/v1/decks/getaways/results", headers: bearer), .unauthorized, "unauthorized")
            #expect(try await env.count("SELECT COUNT(*) FROM apiTokens WHERE revokedAt IS NOT NULL") == 1)
        }
    }

    @Test("owner pages without a session send the browser to the sign-in page")
    func signInRequired() async throws {
        try await withApp { client, _ in
            for uri in ["/owner", "/owner/tokens"] {
                let r = try await client.get(uri)
                #expect(r.status == .seeOther, "\(uri)")
                #expect(r.headers[.location]?.hasPrefix("/owner/sign-in?next=") == true, "\(uri)")
            }
            #expect(try await client.postForm("/owner/tokens", "name=x").status == .seeOther)
        }
    }
}

extension OwnerAuthTests {
    @Test("an owner created before the first start owns the sample deck seeded then")
    func ownerBeforeSampleDeck() async throws {
        let location = try await TestDatabase.fresh()
        let database = try await openStore(location)
        defer { TestDatabase.dropLater(location, closing: database) }
        _ = try await database.createOwner(
            name: "early", passwordHash: try await PasswordHasher(cost: 4).hash("correct horse battery"), now: fixedTime
        )
        await database.close()
        try await withApp({ $0.database = location }) { client, env in
            #expect(try await env.count("SELECT COUNT(*) FROM decks WHERE slug = 'getaways' AND ownerId = 1") == 1)
            let early = try await Self.signIn(client, "early")
            #expect(try await client.get("/owner", headers: early).text.contains("/owner/decks/getaways"))
        }
    }
}

extension OwnerAuthTests {
    @Test("an owner added by the CLI while the server runs manages the adopted sample deck at once")
    func adoptionWhileRunning() async throws {
        try await withApp { client, env in
            // The server has the sample deck in its catalog (a swiper opened it).
            #expect(try await client.get("/d/getaways").status == .ok)
            // `swipedeck owner add` is another process on the same file.
            try await Self.addOwner(env, "late")
            let late = try await Self.signIn(client, "late")
            #expect(try await client.get("/api/v1/decks/getaways/results", headers: late).status == .ok)
            #expect(try await client.get("/owner/decks/getaways", headers: late).status == .ok)
        }
    }
}
