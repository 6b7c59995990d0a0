import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import SwipedeckServer

/// The owner's deck editor through its HTML forms: a new deck, settings, cards (add, edit as a
/// revision, archive, reorder), CSV import with a preview, and refusals.
@Suite("Owner editor: decks and cards by form")
struct OwnerEditorTests {
    /// Signs in a new owner and returns the session header and the form token.
    static func owner(_ client: any TestClientProtocol, _ env: TestEnv, _ name: String) async throws -> (
        HTTPFields, String
    ) {
        try await OwnerAuthTests.addOwner(env, name)
        let session = try await OwnerAuthTests.signIn(client, name)
        let page = try await client.get("/owner/decks/new", headers: session)
        return (session, OwnerAuthTests.csrf(page.text))
    }

    static func form(_ fields: [(String, String)]) -> String {
        fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(
            separator: "&")
    }

    static let deckFields: [(String, String)] = [
        ("title", "Lunch spots"), ("slug", "lunch"), ("description", "Where shall we eat?"), ("profile", "standard"),
        ("left", "NOPE"), ("right", "YUM"), ("up", "SUPER"), ("down", "LATER"), ("open", "1"), ("allowButtons", "1"),
        ("counted", "drag"), ("counted", "button"), ("quota", ""), ("order", "listed"),
    ]

    @Test("a new deck from the form is the owner's, empty, with its settings; bad input keeps what was typed")
    func newDeck() async throws {
        try await withApp { client, env in
            let (me, csrf) = try await Self.owner(client, env, "fay")
            let page = try await client.get("/owner/decks/new", headers: me)
            for label in ["Title", "Web address (slug)", "Description", "Left label", "Cards per person"] {
                #expect(page.text.contains(">\(label)</label>"), "\(label)")
            }
            let bad = try await client.postForm(
                "/owner/decks",
                Self.form([("csrf", csrf)] + Self.deckFields.map { $0.0 == "slug" ? ("slug", "Lunch Spots!") : $0 }),
                headers: me)
            #expect(bad.status == .badRequest)
            #expect(bad.text.contains("lower-case letters") && bad.text.contains(#"value="Lunch spots""#))
            let made = try await client.postForm(
                "/owner/decks", Self.form([("csrf", csrf)] + Self.deckFields), headers: me)
            #expect(made.status == .seeOther && made.headers[.location] == "/owner/decks/lunch")
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM decks WHERE slug = 'lunch' AND ownerId = (SELECT id FROM owners WHERE name = 'fay') AND rightLabel = 'YUM'"
                ) == 1)
            let again = try await client.postForm(
                "/owner/decks", Self.form([("csrf", csrf)] + Self.deckFields), headers: me)
            #expect(again.status == .conflict && again.text.contains("exists"))
            #expect(
                try await client.postForm("/owner/decks", Self.form(Self.deckFields), headers: me).status == .forbidden)
            let editor = try await client.get("/owner/decks/lunch", headers: me)
            #expect(editor.status == .ok && editor.text.contains("No cards yet"))
        }
    }

    @Test("cards: add, edit as a new revision (earlier swipes keep theirs), archive, reorder; settings close the deck")
    func cards() async throws {
        try await withApp { client, env in
            let (me, csrf) = try await Self.owner(client, env, "gus")
            #expect(
                try await client.postForm("/owner/decks", Self.form([("csrf", csrf)] + Self.deckFields), headers: me)
                    .status == .seeOther)
            for title in ["Ramen", "Tacos", "Salad"] {
                let r = try await client.postForm(
                    "/owner/decks/lunch/cards", Self.form([("csrf", csrf), ("title", title), ("accent", "")]),
                    headers: me)
                #expect(r.status == .seeOther, "\(title): \(r.text.prefix(300))")
            }
            let ids = try await client.cardIds("lunch")
            #expect(ids.count == 3)
            #expect(
                try await client.swipe("lunch", card: ids[0], direction: "right", participant: "early").status
                    == .created)
            let edit = try await client.postForm(
                "/owner/decks/lunch/cards/\(ids[0])",
                Self.form([("csrf", csrf), ("title", "Ramen (spicy)"), ("subtitle", "New"), ("accent", "#112233")]),
                headers: me)
            #expect(edit.status == .seeOther)
            #expect(try await env.count("SELECT COUNT(*) FROM cardRevisions WHERE cardId = ?", [ids[0]]) == 2)
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM cards WHERE id = ? AND revision = 2 AND title = 'Ramen (spicy)'", [ids[0]])
                    == 1)
            #expect(
                try await env.count("SELECT COUNT(*) FROM swipes WHERE cardId = ? AND cardRevision = 1", [ids[0]]) == 1)
            #expect(
                try await client.swipe("lunch", card: ids[0], direction: "right", participant: "late").status
                    == .created)
            #expect(
                try await env.count("SELECT COUNT(*) FROM swipes WHERE cardId = ? AND cardRevision = 2", [ids[0]]) == 1)
            let bad = try await client.postForm(
                "/owner/decks/lunch/cards/\(ids[1])", Self.form([("csrf", csrf), ("title", "")]), headers: me)
            #expect(bad.status == .badRequest && bad.text.contains("Give the card a title."))

            #expect(
                try await client.postForm("/owner/decks/lunch/cards/\(ids[1])/archive", "csrf=\(csrf)", headers: me)
                    .status == .seeOther)
            #expect(try await client.cardIds("lunch") == [ids[0], ids[2]])
            #expect(
                try await client.postForm("/owner/decks/lunch/cards/\(ids[2])/up", "csrf=\(csrf)", headers: me).status
                    == .seeOther)
            let order: [Int64] = try await env.rows(
                "SELECT id FROM cards WHERE deckId = (SELECT id FROM decks WHERE slug = 'lunch') ORDER BY position"
            ).compactMap { $0.value(at: 0) }
            // ↑ passes the archived card (listed apart) to land above the previous active one.
            #expect(order == [ids[2], ids[0], ids[1]])
            #expect(
                try await client.postForm("/owner/decks/lunch/cards/\(ids[1])/restore", "csrf=\(csrf)", headers: me)
                    .status == .seeOther)
            #expect(try await client.cardIds("lunch").count == 3)

            let closing = Self.deckFields.filter { $0.0 != "open" }.map { $0.0 == "quota" ? ("quota", "2") : $0 }
            #expect(
                try await client.postForm(
                    "/owner/decks/lunch/settings", Self.form([("csrf", csrf)] + closing), headers: me
                ).status == .seeOther)
            expectAPIError(
                try await client.swipe("lunch", card: ids[2], direction: "right", participant: "after"), .conflict,
                "deck_closed")
            #expect(
                try await env.count(
                    "SELECT COUNT(*) FROM deckEvents WHERE kind IN ('card_added', 'card_edited', 'card_archived', 'card_moved', 'card_restored', 'settings')"
                ) == 8)
            let badQuota = Self.deckFields.map { $0.0 == "quota" ? ("quota", "lots") : $0 }
            let refused = try await client.postForm(
                "/owner/decks/lunch/settings", Self.form([("csrf", csrf)] + badQuota), headers: me)
            #expect(refused.status == .badRequest && refused.text.contains("whole number"))
        }
    }

    @Test("quota: past it a swipe is 409 quota_reached")
    func quota() async throws {
        try await withApp { client, env in
            let (me, csrf) = try await Self.owner(client, env, "hal")
            let fields = Self.deckFields.map { $0.0 == "quota" ? ("quota", "1") : $0 }
            #expect(
                try await client.postForm("/owner/decks", Self.form([("csrf", csrf)] + fields), headers: me).status
                    == .seeOther)
            for title in ["a", "b"] {
                _ = try await client.postForm(
                    "/owner/decks/lunch/cards", Self.form([("csrf", csrf), ("title", title)]), headers: me)
            }
            let ids = try await client.cardIds("lunch")
            #expect(
                try await client.swipe("lunch", card: ids[0], direction: "right", participant: "q").status == .created)
            expectAPIError(
                try await client.swipe("lunch", card: ids[1], direction: "right", participant: "q"), .conflict,
                "quota_reached")
        }
    }

    @Test("CSV import: the preview writes nothing, lists every row's error; confirm adds all rows in one go")
    func csvImport() async throws {
        try await withApp { client, env in
            let (me, csrf) = try await Self.owner(client, env, "ivy")
            #expect(
                try await client.postForm("/owner/decks", Self.form([("csrf", csrf)] + Self.deckFields), headers: me)
                    .status == .seeOther)
            let broken = "title,subtitle,accent\nRamen,hot,#ff0000\n,no title,#00ff00\nTacos,,red\n"
            let preview = try await client.postForm(
                "/owner/decks/lunch/import", Self.form([("csrf", csrf), ("text", broken)]), headers: me)
            #expect(preview.status == .ok)
            #expect(
                preview.text.contains("2 with errors") && preview.text.contains("row 2: title must be")
                    && preview.text.contains("row 3: accent"))
            #expect(!preview.text.contains("Add 3 cards"))
            let refused = try await client.postForm(
                "/owner/decks/lunch/import/confirm", Self.form([("csrf", csrf), ("text", broken)]), headers: me)
            #expect(refused.status == .unprocessableContent)
            #expect(try await env.count("SELECT COUNT(*) FROM cards") == 24)  // the sample deck's only
            let good = "title,subtitle\nRamen,hot\nTacos,crunchy\n\"Soup, clear\",warm\n"
            let ok = try await client.postForm(
                "/owner/decks/lunch/import", Self.form([("csrf", csrf), ("text", good)]), headers: me)
            #expect(ok.text.contains("Add 3 cards"))
            let done = try await client.postForm(
                "/owner/decks/lunch/import/confirm", Self.form([("csrf", csrf), ("text", good)]), headers: me)
            #expect(done.status == .seeOther)
            #expect(try await client.cardIds("lunch").count == 3)
            #expect(try await env.count("SELECT COUNT(*) FROM cards WHERE title = 'Soup, clear'") == 1)
            let json = #"[{"title":"Pho"},{"title":"Curry","subtitle":"mild"}]"#
            #expect(
                try await client.postForm(
                    "/owner/decks/lunch/import/confirm", Self.form([("csrf", csrf), ("text", json)]), headers: me
                ).status == .seeOther)
            #expect(try await client.cardIds("lunch").count == 5)
            let header = try await client.postForm(
                "/owner/decks/lunch/import", Self.form([("csrf", csrf), ("text", "name\nx\n")]), headers: me)
            #expect(header.text.contains("title"))
        }
    }

    @Test("another owner's deck: editor, card forms and settings are refused")
    func isolation() async throws {
        try await withApp { client, env in
            let (me, csrf) = try await Self.owner(client, env, "jon")
            #expect(
                try await client.postForm("/owner/decks", Self.form([("csrf", csrf)] + Self.deckFields), headers: me)
                    .status == .seeOther)
            _ = try await client.postForm(
                "/owner/decks/lunch/cards", Self.form([("csrf", csrf), ("title", "mine")]), headers: me)
            let card = try #require(try await client.cardIds("lunch").first)
            let (other, otherCsrf) = try await Self.owner(client, env, "kim")
            #expect(try await client.get("/owner/decks/lunch", headers: other).status == .forbidden)
            #expect(try await client.get("/owner/decks/lunch/cards/\(card)", headers: other).status == .forbidden)
            let takeover = try await client.postForm(
                "/owner/decks/lunch/settings", Self.form([("csrf", otherCsrf)] + Self.deckFields), headers: other)
            #expect(takeover.status == .forbidden)
            let edit = try await client.postForm(
                "/owner/decks/lunch/cards/\(card)", Self.form([("csrf", otherCsrf), ("title", "theirs")]),
                headers: other)
            #expect(edit.status == .forbidden)
            #expect(try await env.count("SELECT COUNT(*) FROM cards WHERE title = 'mine'") == 1)
            #expect(try await client.get("/owner/decks/lunch").status == .seeOther)
        }
    }
}
