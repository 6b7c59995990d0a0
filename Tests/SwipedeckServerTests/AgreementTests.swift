import Foundation
import SwipePhysics
import Testing

@testable import SwipedeckServer

/// The quality statistics on textbook data: Fleiss' κ (Fleiss 1971, the example Wikipedia
/// reproduces), Krippendorff's α (Krippendorff 2011's nominal example with missing values), the
/// bootstrap, each participant's figures and the drag reversal signal.
@Suite("Agreement and quality control")
struct AgreementTests {
    /// 10 subjects, 14 raters, 5 categories: P̄ = 0.378, P̄_e = 0.2128, κ = 0.20993.
    static let fleissExample = [
        [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
        [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7],
    ]

    /// Krippendorff (2011), section C: 4 observers, 12 units, values 1–5, missing data; as counts
    /// per unit. Unit 12 has one value (not pairable). α (nominal) = 0.743.
    static let krippendorffExample = [
        [3, 0, 0, 0, 0], [0, 3, 1, 0, 0], [0, 0, 4, 0, 0], [0, 0, 4, 0, 0], [0, 4, 0, 0, 0], [1, 1, 1, 1, 0],
        [0, 0, 0, 4, 0], [3, 1, 0, 0, 0], [0, 4, 0, 0, 0], [0, 0, 0, 0, 3], [2, 0, 0, 0, 0], [0, 0, 1, 0, 0],
    ]

    @Test("Fleiss' κ of Fleiss' example is 0.2099")
    func fleissTextbook() throws {
        let kappa = try #require(Agreement.fleissKappa(Self.fleissExample))
        // P̄ = Σ_i (Σ_j n_ij² − 14) / (14 · 13) / 10 = 688 / 1820, P̄_e = Σ p_j² with p = (20, 28, 39, 21, 32) / 140.
        let pe = [20.0, 28, 39, 21, 32].reduce(0) { $0 + ($1 / 140) * ($1 / 140) }
        #expect(abs(kappa.value - (688.0 / 1820.0 - pe) / (1 - pe)) < 1e-12)
        #expect(abs(kappa.value - 0.20993) < 1e-5)
        #expect(kappa.cards == 10 && kappa.raters == 14)
    }

    @Test("Fleiss' κ takes the cards rated by the modal count; undefined when everyone used one category")
    func fleissUnequal() throws {
        // Two cards rated by 3 people (the modal count), one by 4 and one by 1: κ over the two.
        let table = [[3, 0], [0, 3], [2, 2], [1, 0]]
        let kappa = try #require(Agreement.fleissKappa(table))
        #expect(kappa.cards == 2 && kappa.raters == 3)
        #expect(abs(kappa.value - 1) < 1e-12, "the two cards of 3 ratings agree perfectly")
        #expect(Agreement.fleissKappa([[3, 0], [3, 0]]) == nil)
        #expect(Agreement.fleissKappa([[3, 0]]) == nil, "one card is no agreement")
    }

    @Test("Krippendorff's α of Krippendorff's nominal example is 0.743")
    func krippendorffTextbook() throws {
        let alpha = try #require(Agreement.krippendorffAlpha(Self.krippendorffExample))
        // By hand (2011, C.2): n = 40 pairable values, Σ_{c≠k} o_ck = 8, n_c = (9, 13, 10, 5, 3).
        #expect(abs(alpha - 0.743) < 5e-4)
        #expect(abs(alpha - (1 - 39.0 * 8.0 / 1216.0)) < 1e-12)
    }

    @Test("α is undefined without two categories, and equals 1 on perfect agreement")
    func krippendorffEdges() {
        #expect(Agreement.krippendorffAlpha([[2, 0], [3, 0]]) == nil)
        #expect(Agreement.krippendorffAlpha([[1, 0], [0, 1]]) == nil, "no card is pairable")
        #expect(Agreement.krippendorffAlpha([[2, 0], [0, 3]]) == 1)
    }

    @Test("a card's agreement is its share of agreeing pairs")
    func cardAgreement() {
        #expect(Agreement.cardAgreement([3, 0]) == 1)
        #expect(Agreement.cardAgreement([2, 2]) == 4.0 / 12.0)
        #expect(Agreement.cardAgreement([1, 0]) == nil)
    }

    @Test("the bootstrap interval is seeded, brackets the estimate and needs resamples with a value")
    func bootstrap() throws {
        let alpha = try #require(Agreement.krippendorffAlpha(Self.krippendorffExample))
        let a = try #require(Agreement.interval(of: Agreement.krippendorffAlpha, over: Self.krippendorffExample))
        let b = try #require(Agreement.interval(of: Agreement.krippendorffAlpha, over: Self.krippendorffExample))
        #expect(a == b, "same seed, same interval")
        #expect(a.lower < alpha && alpha < a.upper)
        #expect(a.lower >= -1 && a.upper <= 1)
        let other = try #require(
            Agreement.interval(of: Agreement.krippendorffAlpha, over: Self.krippendorffExample, seed: 7))
        #expect(other != a, "another seed resamples otherwise")
        #expect(Agreement.interval(of: { _ in nil }, over: Self.krippendorffExample) == nil)
        #expect(Agreement.percentile([1, 2, 3, 4, 5], 0.5) == 3)
        #expect(Agreement.percentile([0, 10], 0.025) == 0.25)
    }

    @Test("a drag that went the other way before release reverses; a straight one does not")
    func reversals() {
        #expect(!rightDrag().reversesBeforeRelease())
        // 50 px left on a 400 px card (beyond 10 %), then released right.
        let back = trace([0, 50, 100, 150, 200], [0, -50, 0, 100, 200], [0, 0, 0, 0, 0])
        #expect(back.reversesBeforeRelease())
        // 30 px left: under the 40 px limit.
        let wobble = trace([0, 50, 100, 150, 200], [0, -30, 0, 100, 200], [0, 0, 0, 0, 0])
        #expect(!wobble.reversesBeforeRelease())
        #expect(!trace([0, 50], [0, 0], [0, 0]).reversesBeforeRelease(), "released where it started")
    }

    @Test("participants: accuracy with its interval, leave-one-out majority, median time, reversals, flag")
    func participantFigures() throws {
        let deck = Deck(id: 1, NewDeck(slug: "q", title: "Q", createdAt: 0))
        let gold = Card(id: 10, NewCard(deckId: 1, position: 0, title: "gold", answer: .right))
        let plain = Card(id: 11, NewCard(deckId: 1, position: 1, title: "plain"))
        var settings = QualitySettings()
        settings.minKnownSwipes = 1
        settings.accuracyThreshold = 0.9
        let votes = [
            QualityVote(participant: "a", cardId: 10, direction: .right, decisionMs: 1000, reversed: false),
            QualityVote(participant: "a", cardId: 11, direction: .left, decisionMs: 3000, reversed: true),
            QualityVote(participant: "b", cardId: 10, direction: .right, decisionMs: 2000),
            QualityVote(participant: "b", cardId: 11, direction: .left),
            QualityVote(participant: "c", cardId: 10, direction: .left),
            QualityVote(participant: "c", cardId: 11, direction: .right),
            QualityVote(participant: "d", cardId: 11, direction: .left, counted: false),
        ]
        let r = QualityReport(
            deck: deck, cards: [gold, plain], votes: votes, excluded: [], settings: settings, resamples: 50)
        let byId = Dictionary(uniqueKeysWithValues: r.participants.map { ($0.participant, $0) })
        let a = try #require(byId["a"])
        #expect(a.knownAnswers == 1 && a.correct == 1 && a.accuracy == 1)
        #expect(a.accuracyInterval == WilsonInterval(successes: 1, trials: 1))
        // On each card a's two others are b and c, who disagree: no majority, nothing compared.
        #expect(a.majorityCompared == 0 && a.majorityAgreement == nil)
        #expect(a.medianDecisionMs == 2000)
        #expect(a.drags == 2 && a.reversalShare == 0.5)
        let c = try #require(byId["c"])
        // c against a and b, who agree with each other on both cards: c matches neither.
        #expect(c.majorityCompared == 2 && c.majorityAgreement == 0)
        #expect(c.accuracy == 0 && c.flagged, "upper bound of 0/1 (0.79) is under 0.9")
        #expect(r.participants.first?.participant == "c", "lowest accuracy first")
        let d = try #require(byId["d"])
        #expect(d.knownAnswers == 0 && d.accuracy == nil && !d.flagged)
        #expect(d.majorityCompared == 1 && d.majorityAgreement == 1, "an uncounted swipe is compared, not counted")
        #expect(r.cards.map(\.ratings) == [3, 3])
        #expect(r.cards[0].answer == .right && r.cards[1].answer == nil)
        #expect(r.knownAnswerCards == 1)
        #expect(r.cards[0].agreement == Agreement.cardAgreement([1, 2, 0, 0, 0, 0, 0, 0]))
        #expect(
            r.krippendorffAlpha == Agreement.krippendorffAlpha([[1, 2, 0, 0, 0, 0, 0, 0], [2, 1, 0, 0, 0, 0, 0, 0]]))
    }

    /// A tally of (known, correct) per answer.
    static func tally(_ counts: [Decision: (Int, Int)]) -> KnownAnswerTally {
        KnownAnswerTally(counts.mapValues { KnownAnswerTally.Count(known: $0.0, correct: $0.1) })
    }

    @Test("the flag rule needs the minimum of known answers and an upper bound under the threshold")
    func flagRule() {
        var s = QualitySettings()
        s.accuracyThreshold = 0.7
        s.minKnownSwipes = 5
        #expect(!QualityReport.isFlagged(Self.tally([.right: (4, 0)]), settings: s), "too few known answers")
        #expect(QualityReport.isFlagged(Self.tally([.right: (5, 0)]), settings: s), "0/5: upper bound 0.43")
        #expect(!QualityReport.isFlagged(Self.tally([.right: (5, 3)]), settings: s), "3/5: upper bound 0.88")
        #expect(QualityReport.isFlagged(Self.tally([.right: (30, 10)]), settings: s), "10/30: upper bound 0.51")
        s.accuracyThreshold = 0
        #expect(!QualityReport.isFlagged(Self.tally([.right: (50, 0)]), settings: s), "threshold 0 flags nobody")
    }

    @Test("one direction whatever the card is flagged on the cards of the other answer; careful people are not")
    func oneDirectionFlagged() {
        let s = QualitySettings()  // threshold 0.7, at least 5 known answers
        // The field test's: always "right" on 3 right and 3 left known answers, 0.5 accuracy (the
        // overall upper bound, 0.82, is above 0.7): 0 of 3 "left" ones has an upper bound of 0.63.
        let always = Self.tally([.right: (3, 3), .left: (3, 0)])
        #expect(WilsonInterval(successes: 3, trials: 6).upper > 0.7)
        #expect(QualityReport.isFlagged(always, settings: s))
        #expect(QualityReport.isFlagged(Self.tally([.right: (10, 10), .left: (4, 0)]), settings: s))
        #expect(QualityReport.isFlagged(Self.tally([.left: (5, 5), .right: (3, 0)]), settings: s))
        // Careful people with a slip or two are not: one miss on either side, two of four on one side.
        for careful in [
            Self.tally([.right: (3, 3), .left: (3, 2)]), Self.tally([.right: (3, 2), .left: (3, 2)]),
            Self.tally([.right: (4, 4), .left: (4, 2)]), Self.tally([.right: (6, 6), .left: (2, 0)]),
            Self.tally([.right: (3, 3), .left: (2, 0), .up: (1, 0)]),
        ] {
            #expect(!QualityReport.isFlagged(careful, settings: s), "\(careful)")
        }
        // Below the minimum of known answers nothing is flagged, whatever the split.
        #expect(!QualityReport.isFlagged(Self.tally([.right: (1, 1), .left: (3, 0)]), settings: s))
        // A careful person right on 9 cards in 10 misses all 3 of one answer once in 1,000, and is
        // never flagged for fewer misses: the Bonferroni bound keeps the rule's 2.5 %.
        #expect(
            !QualityReport.isFlagged(Self.tally([.right: (3, 3), .left: (3, 1)]), settings: s),
            "1 of 3: upper bound 0.83")
        var strict = s
        strict.accuracyThreshold = 0
        #expect(!QualityReport.isFlagged(always, settings: strict), "threshold 0 flags nobody")
    }

    @Test("a CSV import's answer column makes known-answer cards; a bad answer names the card")
    func csvAnswers() throws {
        let text = "title,answer\r\nSharp,right\r\nBlurry,left\r\nUnknown,\r\n"
        let input = try DeckCSV.parse(text, slug: "lab", title: "Lab", profile: "standard")
        let (_, cards) = try input.validated(now: 0)
        #expect(cards.map(\.answer) == [.right, .left, nil])
        let bad = try DeckCSV.parse("title,answer\r\nX,sideways\r\n", slug: "lab", title: "Lab", profile: "standard")
        #expect(throws: ApiError.self) { try bad.validated(now: 0) }
    }

    @Test("feedback by mode: silent never, feedback always, training for the first N decisions")
    func feedbackModes() {
        var s = QualitySettings()
        #expect(!s.givesFeedback(dealtBefore: 0))
        s.mode = .feedback
        #expect(s.givesFeedback(dealtBefore: 500))
        s.mode = .training
        s.trainingCards = 3
        #expect(s.givesFeedback(dealtBefore: 2) && !s.givesFeedback(dealtBefore: 3))
    }

    // MARK: Dealing

    static func cards(_ ids: ClosedRange<Int64>) -> [Card] {
        ids.map { Card(id: $0, NewCard(deckId: 1, position: Int($0), title: "c\($0)")) }
    }

    @Test("known-answer cards are dealt at the share, one per stretch at a seeded place, training ones first")
    func dealing() {
        var s = QualitySettings()
        s.knownShare = 0.25
        let isKnown: (Card) -> Bool = { $0.id >= 100 }
        let page = Self.cards(1...8)
        let spare = Self.cards(100...105)
        var firstPlaces = Set<Int>()
        for participant in (0..<200).map({ "q\($0)" }) {
            let dealt = KnownAnswerDealing.deal(
                page: page, spare: spare, decided: 0, knownDecided: 0, settings: s, seed: participant,
                isKnown: isKnown)
            // One known-answer card in each stretch of 4 (from the spare cards in order; the third
            // stretch, cards 9–12, is dealt only as far as the page goes), the page in order.
            let known = dealt.filter(isKnown).map(\.id)
            #expect(known == [100, 101] || known == [100, 101, 102], "\(participant)")
            #expect(dealt.filter { !isKnown($0) }.map(\.id) == page.map(\.id))
            let places = dealt.indices.filter { isKnown(dealt[$0]) }
            for (k, place) in places.enumerated() {
                #expect((4 * k..<4 * k + 4).contains(place), "\(participant): \(places)")
            }
            #expect(KnownAnswerDealing.wanted(8, settings: s, seed: participant) == 2)
            firstPlaces.insert(places[0])
            // The same participant is dealt alike every time (two servers deal alike).
            #expect(
                KnownAnswerDealing.deal(
                    page: page, spare: spare, decided: 0, knownDecided: 0, settings: s, seed: participant,
                    isKnown: isKnown) == dealt)
        }
        #expect(firstPlaces == [0, 1, 2, 3], "every place of a stretch is drawn for somebody")
        // The count keeps within one card of the share at every length, for any participant.
        for participant in ["a", "b", "qdeadbeef"] {
            for n in 0...200 {
                let wanted = KnownAnswerDealing.wanted(n, settings: s, seed: participant)
                #expect(wanted == n / 4 || wanted == n / 4 + 1, "\(participant), \(n): \(wanted)")
                #expect(n == 0 || wanted >= KnownAnswerDealing.wanted(n - 1, settings: s, seed: participant))
            }
        }
        // Known-answer cards listed first wait for their turn behind the ordinary ones.
        let front = Self.cards(100...101) + Self.cards(1...6)
        let waited = KnownAnswerDealing.deal(
            page: front, spare: [], decided: 0, knownDecided: 0, settings: s, seed: "q1", isKnown: isKnown)
        #expect(waited.filter { !isKnown($0) }.map(\.id) == Array(1...6))
        #expect(waited.count == 8)
        let waitedPlaces = waited.indices.filter { isKnown(waited[$0]) }
        #expect(waitedPlaces.count == 2 && waitedPlaces[0] < 4 && waitedPlaces[1] >= 4, "\(waitedPlaces)")
        // Training: the first 2 cards are known-answer ones, then the share.
        s.mode = .training
        s.trainingCards = 2
        s.knownShare = 0
        let trained = KnownAnswerDealing.deal(
            page: page, spare: spare, decided: 0, knownDecided: 0, settings: s, seed: "q1", isKnown: isKnown)
        #expect(trained.map(\.id) == [100, 101] + page.map(\.id))
        // A participant past training, with the share met, gets the page as it is.
        let later = KnownAnswerDealing.deal(
            page: page, spare: spare, decided: 10, knownDecided: 2, settings: s, seed: "q1", isKnown: isKnown)
        #expect(later.map(\.id) == page.map(\.id))
        // Nothing known anywhere: the page as it is.
        #expect(
            KnownAnswerDealing.deal(
                page: page, spare: [], decided: 0, knownDecided: 0, settings: s, seed: "q1", isKnown: isKnown
            ).map(\.id) == page.map(\.id))
    }
}
