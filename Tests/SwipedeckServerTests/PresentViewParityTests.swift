import Foundation
import Testing

@testable import SwipedeckServer

/// `PresentView.swift` and `Public/js/present-view.js` (the big screen, redrawn live) must show the
/// same cards and counts. `Tests/Fixtures/present-view.json` holds a report (as the results API
/// encodes it) and what `PresentView` makes of it, hidden and revealed; this suite checks the file
/// against the Swift, `Tests/js/present-view.test.mjs` the JavaScript against the same file.
///
/// After a deliberate change, regenerate with
/// `SWIPEDECK_REGENERATE_FIXTURES=1 swift test --skip-build --filter PresentViewParity`, review the
/// diff, commit it, and make `present-view.js` agree.
@Suite("PresentView ↔ present-view.js golden cards")
struct PresentViewParityTests {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/present-view.json")

    /// `ResultsViewParityTests`' report (every stop-rule state, rounding ties, archived cards, a
    /// card without votes), its cards in reverse: ranked order and deck order then differ.
    static func report() -> ResultsReport {
        var (report, _) = ResultsViewParityTests.report()
        report.cards.reverse()
        return report
    }

    static func fixture() throws -> Data {
        let report = Self.report()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let reportJSON = try JSONSerialization.jsonObject(with: encoder.encode(report))
        func cards(_ revealed: Bool) -> [[String: Any]] {
            PresentView.presentedCards(report, revealed: revealed).map {
                [
                    "id": $0.id, "title": $0.title, "votes": $0.votes, "share": $0.share, "width": $0.width,
                    "state": $0.state, "verdict": $0.verdict,
                ]
            }
        }
        func stats(_ revealed: Bool) -> [String: Any] {
            let s = PresentView.presentedStats(report, revealed: revealed)
            return ["people": s.people, "decisions": s.decisions, "decision": s.decision]
        }
        let whole: [String: Any] = [
            "report": reportJSON,
            "expected": [
                "hidden": ["cards": cards(false), "stats": stats(false)],
                "revealed": ["cards": cards(true), "stats": stats(true)],
            ],
        ]
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try JSONSerialization.data(withJSONObject: whole, options: options) + Data("\n".utf8)
    }

    @Test("Tests/Fixtures/present-view.json holds what PresentView shows now")
    func fixtureIsCurrent() throws {
        let current = try Self.fixture()
        if ResultsViewParityTests.regenerate { try current.write(to: Self.url) }
        let committed = try Data(contentsOf: Self.url)
        #expect(
            String(decoding: committed, as: UTF8.self) == String(decoding: current, as: UTF8.self),
            "Tests/Fixtures/present-view.json differs from PresentView: regenerate with SWIPEDECK_REGENERATE_FIXTURES=1"
        )
    }

    @Test("hidden: deck order, no shares, no verdict's direction; revealed: ranked, shares and verdicts")
    func hiddenTellsNothing() {
        let report = Self.report()
        let hidden = PresentView.presentedCards(report, revealed: false)
        #expect(hidden.map(\.id) == [1, 2, 3, 4, 6])
        #expect(hidden.allSatisfy { $0.share.isEmpty && $0.width == "0.0%" && $0.verdict.isEmpty })
        #expect(Set(hidden.map(\.state)) == ["Decided", "Deciding"])
        #expect(PresentView.hiddenWord(.settled) == "Settled" && PresentView.hiddenWord(.no) == "Decided")
        let revealed = PresentView.presentedCards(report, revealed: true)
        #expect(revealed.map(\.id) == [6, 4, 3, 2, 1])
        #expect(revealed.first { $0.id == 1 }?.state == "Decided: yes")
        #expect(revealed.first { $0.id == 1 }?.share == "100%")
        #expect(revealed.first { $0.id == 6 }?.share == "")
        #expect(PresentView.presentedStats(report, revealed: false).decision == "2 of 5 cards decided.")
        #expect(PresentView.presentedStats(report, revealed: true).decision == "Deciding: 2 of 5 cards decided.")
    }
}
