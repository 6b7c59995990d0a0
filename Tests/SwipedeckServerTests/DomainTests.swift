import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// Pure pieces of the server: Wilson interval, deck CSV import, deck validation, results CSV.
@Suite("Domain")
struct DomainTests {
    // MARK: Wilson

    @Test("WilsonInterval known values")
    func wilson() {
        let none = WilsonInterval(successes: 0, trials: 0)
        #expect(none.lower == 0 && none.upper == 1)
        let half = WilsonInterval(successes: 5, trials: 10)
        #expect(abs(half.lower - 0.2366) < 1e-4)
        #expect(abs(half.upper - 0.7634) < 1e-4)
        #expect(abs(half.lower + half.upper - 1) < 1e-12, "symmetric about 0.5")
        let all = WilsonInterval(successes: 10, trials: 10)
        #expect(abs(all.lower - 0.7225) < 1e-4)
        #expect(abs(all.upper - 1) < 1e-12)
        let zero = WilsonInterval(successes: 0, trials: 10)
        #expect(zero.lower == 0)
        #expect(abs(zero.upper - 0.2775) < 1e-4)
        let one = WilsonInterval(successes: 1, trials: 1)
        #expect(abs(one.lower - 0.2065) < 1e-4)
        let nine = WilsonInterval(successes: 9, trials: 10)
        #expect(abs(nine.lower - 0.5958) < 1e-4)
        #expect(abs(nine.upper - 0.9821) < 1e-4)
        #expect(nine.lower > one.lower)
        // More evidence at the same rate narrows the interval.
        let big = WilsonInterval(successes: 500, trials: 1000)
        #expect(big.lower > half.lower && big.upper < half.upper)
    }

    // MARK: Deck CSV

    @Test("DeckCSV parses quoted commas, escaped quotes, newlines in quotes and CRLF")
    func csvQuoting() throws {
        let text =
            "Title,Subtitle,Body,Image,Link,Accent\r\n"
            + "\"Paris, France\",\"He said \"\"hi\"\"\",\"line one\nline two\",/img/p.svg,https://example.com/p,#112233\r\n"
            + "Rome,,,,,\r\n"
            + "\r\n"
            + "Oslo,cold\r\n"
        let input = try DeckCSV.parse(text, slug: "cities", title: "Cities", profile: "standard")
        #expect(input.slug == "cities" && input.title == "Cities" && input.profile == "standard")
        #expect(input.cards.count == 3)
        let paris = input.cards[0]
        #expect(paris.title == "Paris, France")
        #expect(paris.subtitle == #"He said "hi""#)
        #expect(paris.body == "line one\nline two")
        #expect(paris.image == "/img/p.svg")
        #expect(paris.link == "https://example.com/p")
        #expect(paris.accent == "#112233")
        #expect(input.cards[1].title == "Rome")
        #expect(input.cards[1].subtitle == nil)
        #expect(input.cards[1].accent == nil)
        #expect(input.cards[2].title == "Oslo")
        #expect(input.cards[2].subtitle == "cold")
        #expect(input.cards[2].body == nil)
        let (_, cards) = try input.validated(now: 0)
        #expect(cards.map(\.position) == [0, 1, 2])
        #expect(cards[1].accent == "#6C5CE7")
    }

    @Test("DeckCSV: columns in any order, LF line ends, no trailing newline")
    func csvColumnsAnyOrder() throws {
        let input = try DeckCSV.parse(
            "accent,title\n#ABCDEF,\"A \"\"quoted\"\" one\"\n,plain", slug: "s", title: "T", profile: "eightway")
        #expect(input.cards.map(\.title) == [#"A "quoted" one"#, "plain"])
        #expect(input.cards[0].accent == "#ABCDEF")
        #expect(input.cards[1].accent == nil)
        #expect(input.profile == "eightway")
    }

    @Test("DeckCSV: a header without a title column is invalid_csv_header; an empty file is no_cards")
    func csvErrors() {
        #expect(
            throws: ApiError.invalidField(code: "invalid_csv_header", message: "The CSV header needs a 'title' column.")
        ) {
            try DeckCSV.parse("name,subtitle\nParis,France\n", slug: "s", title: "T", profile: "standard")
        }
        do {
            _ = try DeckCSV.parse("name\nx", slug: "s", title: "T", profile: "standard")
            Issue.record("expected an error")
        } catch let e as ApiError {
            #expect(e.code == "invalid_csv_header")
            #expect(e.status == .badRequest)
        } catch {
            Issue.record("unexpected \(error)")
        }
        do {
            _ = try DeckCSV.parse("", slug: "s", title: "T", profile: "standard")
            Issue.record("expected an error")
        } catch let e as ApiError {
            #expect(e.code == "no_cards")
        } catch {
            Issue.record("unexpected \(error)")
        }
        // A header only parses but fails validation: no cards.
        #expect(throws: ApiError.self) {
            try DeckCSV.parse("title\n", slug: "s", title: "T", profile: "standard").validated(now: 0)
        }
    }

    // MARK: Deck validation

    static func code(_ input: DeckInput) -> String? {
        do {
            _ = try input.validated(now: 0)
            return nil
        } catch {
            return error.code
        }
    }

    static func deck(
        slug: String = "ok", title: String = "T", description: String? = nil, profile: String? = nil,
        labels: DeckInput.Labels? = nil, cards: [DeckInput.CardInput] = [.init(title: "a")]
    ) -> DeckInput {
        DeckInput(slug: slug, title: title, description: description, profile: profile, labels: labels, cards: cards)
    }

    @Test("DeckInput.validated: each rule names its code")
    func deckRules() {
        typealias C = DeckInput.CardInput
        #expect(Self.code(Self.deck()) == nil)
        #expect(Self.code(Self.deck(slug: "a-b-9")) == nil)
        #expect(Self.code(Self.deck(slug: String(repeating: "a", count: 64))) == nil)
        for bad in ["", "A", "a_b", "a b", "é", "a/b", String(repeating: "a", count: 65)] {
            #expect(Self.code(Self.deck(slug: bad)) == "invalid_slug", "slug \(bad)")
        }
        for bad in ["", "   ", "\n", String(repeating: "t", count: 201), "bell\u{7}", "del\u{7F}"] {
            #expect(Self.code(Self.deck(title: bad)) == "invalid_title", "title \(bad.debugDescription)")
        }
        #expect(Self.code(Self.deck(title: String(repeating: "t", count: 200))) == nil)
        #expect(Self.code(Self.deck(title: "tab\tand\nnewline")) == nil)
        #expect(Self.code(Self.deck(description: String(repeating: "d", count: 2001))) == "invalid_description")
        #expect(Self.code(Self.deck(profile: "nope")) == "unknown_profile")
        for p in SwipeProfile.all { #expect(Self.code(Self.deck(profile: p.name)) == nil) }
        #expect(Self.code(Self.deck(labels: .init(left: "", right: nil, up: nil, down: nil))) == "invalid_label")
        #expect(
            Self.code(Self.deck(labels: .init(left: nil, right: String(repeating: "L", count: 17), up: nil, down: nil)))
                == "invalid_label")
        #expect(Self.code(Self.deck(cards: [])) == "no_cards")
        #expect(Self.code(Self.deck(cards: [C(title: " ")])) == "invalid_card_title")
        #expect(
            Self.code(Self.deck(cards: [C(title: "a", subtitle: String(repeating: "s", count: 301))]))
                == "invalid_card_text")
        #expect(
            Self.code(Self.deck(cards: [C(title: "a", body: String(repeating: "b", count: 5001))]))
                == "invalid_card_text")
        for bad in [
            "javascript:alert(1)", "http://x.example/a.png", "//evil.example/a.png", "/a b.png",
            "data:image/png;base64,AAAA",
        ] {
            #expect(Self.code(Self.deck(cards: [C(title: "a", image: bad)])) == "invalid_image", "image \(bad)")
        }
        for good in ["/img/a.svg", "https://example.com/a.png"] {
            #expect(Self.code(Self.deck(cards: [C(title: "a", image: good)])) == nil, "image \(good)")
        }
        for bad in ["javascript:alert(1)", "ftp://x.example", "//evil.example", "/a b", "mailto:a@b.c"] {
            #expect(Self.code(Self.deck(cards: [C(title: "a", link: bad)])) == "invalid_link", "link \(bad)")
        }
        for good in ["/d/other", "http://example.com", "https://example.com/x?y=1"] {
            #expect(Self.code(Self.deck(cards: [C(title: "a", link: good)])) == nil, "link \(good)")
        }
        for bad in ["red", "#12345", "#1234567", "#GGGGGG", "112233", "#12345 "] {
            #expect(Self.code(Self.deck(cards: [C(title: "a", accent: bad)])) == "invalid_accent", "accent \(bad)")
        }
        #expect(Self.code(Self.deck(cards: [C(title: "a", accent: "#abcDEF")])) == nil)
        // The first broken rule wins, and the message names the card.
        let second = Self.deck(cards: [C(title: "fine"), C(title: "a", accent: "red")])
        do {
            _ = try second.validated(now: 0)
            Issue.record("expected invalid_accent")
        } catch {
            #expect(error.code == "invalid_accent")
            #expect(error.message.contains("card 2"))
        }
    }

    @Test("DeckInput.validated fills defaults")
    func deckDefaults() throws {
        let (deck, cards) = try Self.deck(cards: [.init(title: "a"), .init(title: "b", subtitle: "s")]).validated(
            now: 42)
        #expect(deck.profile == "standard")
        #expect(deck.allowButtons)
        #expect(deck.description == "")
        #expect([deck.leftLabel, deck.rightLabel, deck.upLabel, deck.downLabel] == ["NOPE", "LIKE", "SUPER", "LATER"])
        #expect(deck.createdAt == 42)
        #expect(cards.map(\.position) == [0, 1])
        #expect(cards[1].subtitle == "s")
        #expect(cards.allSatisfy { $0.accent == "#6C5CE7" && $0.image == "" && $0.link == "" && $0.body == "" })
    }

    // MARK: Results CSV

    @Test("ResultsCSV.cell quotes and neutralises formulas")
    func csvCell() {
        #expect(ResultsCSV.cell("plain") == "plain")
        #expect(ResultsCSV.cell("") == "")
        #expect(ResultsCSV.cell("a,b") == #""a,b""#)
        #expect(ResultsCSV.cell(#"say "hi""#) == #""say ""hi""""#)
        #expect(ResultsCSV.cell("two\nlines") == "\"two\nlines\"")
        #expect(ResultsCSV.cell("=1+1") == #""'=1+1""#)
        #expect(ResultsCSV.cell("+1") == #""'+1""#)
        #expect(ResultsCSV.cell("-1") == #""'-1""#)
        #expect(ResultsCSV.cell("@SUM(A1)") == #""'@SUM(A1)""#)
        #expect(ResultsCSV.cell("\tx") == "\"'\tx\"")
        #expect(ResultsCSV.cell("\rx") == "\"'\rx\"")
        #expect(ResultsCSV.cell(#"=HYPERLINK("http://x"),y"#) == #""'=HYPERLINK(""http://x""),y""#)
        #expect(ResultsCSV.cell("a=b") == "a=b")
    }

    @Test("ResultsCSV.render: header then one CRLF line per ranked card")
    func csvRender() {
        var tally = ResultsTally()
        tally.add(card: 7, direction: "right", kind: .drag, count: 1, counted: CountedInput.defaultSet)
        tally.add(card: 7, direction: "left", kind: .button, count: 1, counted: CountedInput.defaultSet)
        tally.add(card: 7, direction: "left", kind: .suspectDrag, count: 3, counted: CountedInput.defaultSet)
        let card = Card(id: 7, NewCard(deckId: 1, position: 0, title: "Lake, calm"))
        let report = ResultsReport(
            deck: Deck(id: 1, NewDeck(slug: "d", title: "D", createdAt: 0)), cards: [card], tally: tally,
            participants: 2, medianDecisionMs: nil,
            rejections: [:], excludedParticipants: 0, excludedSwipes: 0)
        let names = DirectionNames(left: "NOPE", right: "LIKE", up: "SUPER", down: "LATER")
        let lines = ResultsCSV.render(report, names: names).components(separatedBy: "\r\n")
        #expect(lines.count == 3)
        #expect(lines[0] == ResultsCSV.header(names))
        #expect(
            lines[0]
                == "rank,card_id,title,archived,LIKE or SUPER,votes,rate,rate_at_least,rate_at_most,NOPE,LIKE,SUPER,LATER,"
                + "SUPER+NOPE,SUPER+LIKE,LATER+NOPE,LATER+LIKE,drag,suspect_drag,button,suspect_button,api,all,state,votes_needed"
        )
        let w = WilsonInterval(successes: 1, trials: 2)
        #expect(lines[1] == "1,7,\"Lake, calm\",0,1,2,0.5,\(w.lower),\(w.upper),1,1,0,0,0,0,0,0,1,3,1,0,0,5,,")
        #expect(lines[2] == "")
        #expect(
            ResultsCSV.header(names).split(separator: ",", omittingEmptySubsequences: false).count
                == lines[1].replacingOccurrences(of: "\"Lake, calm\"", with: "x")
                .split(separator: ",", omittingEmptySubsequences: false).count)
    }

    @Test("ResultsReport.isLike: right, up and up_right")
    func likes() {
        #expect(Decision.allCases.filter { ResultsReport.isLike($0.rawValue) } == [.right, .up, .upRight])
    }

    @Test("participant ids and idempotency keys")
    func ids() throws {
        #expect(Participant.isValidId("abc-DEF_123"))
        #expect(!Participant.isValidId(""))
        #expect(!Participant.isValidId("a.b"))
        #expect(!Participant.isValidId(String(repeating: "a", count: 65)))
        #expect(Participant.isValidId(String(repeating: "a", count: 64)))
        #expect(try SwipeService.checkedKey("abc.DEF_1:2-3") == "abc.DEF_1:2-3")
        #expect(throws: ApiError.self) { try SwipeService.checkedKey("") }
        #expect(throws: ApiError.self) { try SwipeService.checkedKey("a b") }
        #expect(throws: ApiError.self) { try SwipeService.checkedKey(String(repeating: "k", count: 129)) }
        let signer = ParticipantSigner(secret: "0123456789abcdef")
        let id = signer.mint(.device, now: 1_790_000_000.25)
        #expect(Participant.isValidId(id) && id.count == 62)
        guard case .valid(let credential) = signer.check(id, now: 1_790_000_001) else {
            Issue.record("not valid: \(id)")
            return
        }
        #expect(credential.mintedAt == 1_790_000_000.25)
        #expect(ParticipantSigner(secret: "another secret!!").check(id, now: 1_790_000_001) == .unknown)
        // The signature is HMAC-SHA256(secret, "credential:" + body), its first 12 bytes in lower-case
        // hex (computed independently with Python's hmac, as Tests/signed_ids.py does).
        #expect(signer.sign(body: "alice") == "alice-6ec514b58431ad61019bd792")
        #expect(signer.check("alice-3472238644043db7f8ef5b96", now: 0) == .unknown)
    }

    @Test("hex: two lower-case digits a byte; fixed-width numbers")
    func hex() {
        #expect(Hex.string([0x00, 0x0F, 0xA0, 0xFF]) == "000fa0ff")
        #expect(Hex.string([UInt8]()) == "")
        #expect(Hex.string(0xABC, width: 4) == "0abc")
        #expect(Hex.string(0x1_2345, width: 4) == "2345")
    }

    @Test(
        "a . or .. path segment, also as %2e, is found; dots inside names are not",
        arguments: [
            ("/api/v1/decks/../decks", true), ("/./x", true), ("/x/..", true), ("/x/.", true), ("/%2e%2E/x", true),
            ("/x/%2e", true), ("/x/.%2e/y", true), ("/css/app.css", false), ("/x/.../y", false), ("/x/..a", false),
            ("/.well-known/x", false), ("/x/%2ex", false), ("/x/%2", false), ("/x/%", false), ("/", false), ("", false),
            ("/img/sample/01-mirror-lake.3de22cd09f.svg", false),
        ])
    func dotSegments(path: String, found: Bool) {
        #expect(StaticFilesMiddleware.hasDotSegment(path) == found)
    }
}
