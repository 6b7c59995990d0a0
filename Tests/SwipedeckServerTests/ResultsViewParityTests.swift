import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// `ResultsView.swift` and `Public/js/results-view.js` (the live results page) must compute the same
/// rows. `Tests/Fixtures/results-view.json` holds a report (as the results API encodes it) and what
/// `ResultsView` makes of it; this suite checks the file against the Swift, and
/// `Tests/js/results-view-parity.test.mjs` checks the JavaScript against the same file, so a change on
/// one side alone fails one of them.
///
/// After a deliberate change to `ResultsView` or to the report below, regenerate with
/// `SWIPEDECK_REGENERATE_FIXTURES=1 swift test --skip-build --filter ResultsViewParity`, review the diff,
/// commit it, and make `results-view.js` agree.
@Suite("ResultsView ↔ results-view.js golden rows")
struct ResultsViewParityTests {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/results-view.json")
    static let regenerate = ProcessInfo.processInfo.environment["SWIPEDECK_REGENERATE_FIXTURES"] == "1"

    /// A card with exactly these numbers (the interval is given, so its edges can sit on rounding ties).
    static func card(
        _ id: Int64, _ title: String, likes: Int, total: Int, wilson: (Double, Double), archived: Bool = false
    ) -> ResultsReport.CardResult {
        var interval = WilsonInterval(successes: likes, trials: total)
        interval.lower = wilson.0
        interval.upper = wilson.1
        return ResultsReport.CardResult(
            rank: 0, cardId: id, title: title, image: "", accent: "#336699", revision: 1, archived: archived,
            likes: likes, total: total, likeRate: total > 0 ? Double(likes) / Double(total) : 0, wilson: interval,
            counts: [:], kinds: [:], all: total)
    }

    /// The report: titles around the chart's label length (grapheme clusters, a space at the cut), rates
    /// and bounds on rounding ties (x.25 % and x.75 %, the only fractions a double holds exactly at a
    /// tenth's half; 37.5 % for whole percents), a card without votes, archived cards, a median on a tie,
    /// and rejection codes known and unknown.
    static func report() -> (ResultsReport, Deck) {
        let deck = Deck(id: 1, NewDeck(slug: "parity", title: "Parity", createdAt: 0))
        var report = ResultsReport(
            deck: deck, cards: [], tally: ResultsTally(), participants: 1, medianDecisionMs: 1250, rejections: [:],
            excludedParticipants: 2, excludedSwipes: 3)
        report.cards = [
            card(1, "Lisbon", likes: 1, total: 1, wilson: (0.2065432, 1)),
            card(2, "Exactly twenty-two ch.", likes: 3, total: 8, wilson: (0.0625, 0.6875)),
            card(3, "abcdefghijklmnopqrst uvw", likes: 1, total: 16, wilson: (0.3125, 0.5625)),
            card(4, "Family 👨‍👩‍👧 picnic on the lake", likes: 15, total: 16, wilson: (0.5625, 0.9375)),
            card(5, "Archived 🇵🇹 flag card, long", likes: 2, total: 4, wilson: (0.15, 0.85), archived: true),
            card(6, "Nobody swiped", likes: 0, total: 0, wilson: (0, 0)),
            card(7, "Old", likes: 0, total: 0, wilson: (0, 0), archived: true),
        ]
        report.cards[1].roomMatches = 2  // A card two match rooms agreed on.
        report.participants = 1
        report.swipes = 45
        report.allSwipes = 50
        report.suspectExcluded = 4
        report.directionTotals = ["right": 12, "up": 3, "up_right": 4, "left": 20, "down": 5, "down_left": 1]
        report.rejections = ["too_short": 2, "decision_mismatch": 1, "a_future_code": 7]
        // Every stop-rule state, a deciding card needing one vote, many, and an unknown number.
        let states: [(CardVerdict, Int?)] = [
            (.yes, nil), (.deciding, 1), (.deciding, 12), (.no, nil), (.settled, nil), (.deciding, nil), (.deciding, 3),
        ]
        for (i, (state, needed)) in states.enumerated() {
            report.cards[i].state = state
            report.cards[i].votesNeeded = needed
        }
        report.decision = ResultsReport.StopState(
            rule: StopRule(kind: .threshold), decidedCards: 2, activeCards: 5, deckDecided: false, topKnown: nil)
        return (report, deck)
    }

    /// The fixture's JSON: `report` as the API encodes it, `reasons` as the page embeds them, and
    /// `expected`, picked from `ResultsView.context` under the names its template uses.
    static func fixture() throws -> Data {
        let (report, deck) = Self.report()
        let context = ResultsView.context(report, deck: deck)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let reportJSON = try JSONSerialization.jsonObject(with: encoder.encode(report))
        let reasons = Dictionary(uniqueKeysWithValues: SwipeRejection.allCases.map { ($0.rawValue, $0.message) })
        func pick(_ rows: Any?, _ keys: [String]) -> [[String: Any]] {
            (rows as? [[String: Any]] ?? []).map { row in row.filter { keys.contains($0.key) } }
        }
        let rowKeys = ["rank", "total", "likes", "rate", "range", "certainty", "verdict", "rooms"]
        let headlineKeys = [
            "participants", "participantsLabel", "swipes", "likes", "passes", "median", "suspect", "notCounted",
            "allSwipes", "excludedParticipants", "excludedSwipes", "rejectedTotal", "archivedCount", "decision",
        ]
        let expected: [String: Any] = [
            "bars": pick(context["bars"], ["title", "label", "y", "ty", "by", "sw", "rx", "rw", "mx", "pct"]),
            "chartHeight": context["chartHeight"] ?? 0,
            "rows": pick(context["rows"], rowKeys),
            "archivedRows": pick(context["archivedRows"], rowKeys),
            "headline": context.filter { headlineKeys.contains($0.key) },
            "rejections": pick(context["rejections"], ["code", "reason", "count"]),
        ]
        let whole: [String: Any] = ["report": reportJSON, "reasons": reasons, "expected": expected]
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try JSONSerialization.data(withJSONObject: whole, options: options) + Data("\n".utf8)
    }

    @Test("Tests/Fixtures/results-view.json holds the rows ResultsView computes now")
    func fixtureIsCurrent() throws {
        let current = try Self.fixture()
        if Self.regenerate { try current.write(to: Self.url) }
        let committed = try Data(contentsOf: Self.url)
        #expect(
            String(decoding: committed, as: UTF8.self) == String(decoding: current, as: UTF8.self),
            "Tests/Fixtures/results-view.json differs from ResultsView: regenerate with SWIPEDECK_REGENERATE_FIXTURES=1"
        )
    }

    @Test("the fixture covers what tells the two languages apart")
    func fixtureCoversTheEdges() throws {
        let (report, deck) = Self.report()
        let context = ResultsView.context(report, deck: deck)
        let bars = try #require(context["bars"] as? [[String: Any]])
        // printf rounds an exact tie to even (6.25 → 6.2), JavaScript's toFixed up; grapheme clusters, not code points.
        #expect(bars.contains { $0["mx"] as? String == "6.2%" })
        #expect(bars.contains { $0["sw"] as? String == "31.2%" })
        #expect(
            bars.contains {
                ($0["label"] as? String)?.contains("👨‍👩‍👧") == true && ($0["label"] as? String)?.hasSuffix("…") == true
            })
        #expect(context["median"] as? String == "1.2 s")
        #expect((context["archivedRows"] as? [[String: Any]])?.count == 2)
    }
}
