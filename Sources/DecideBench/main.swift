// Simulation with known truth of "knowing when it is decided" (issue 29): a deck of cards whose
// like rates are drawn at random, participants who swipe with those probabilities (and a share of
// careless ones who swipe at random), dealt in listed, shuffled or adaptive order, run through the
// server's own decision code (`StopRule`, `AdaptiveDeal`). Counts, not time: a debug build gives
// the same figures.
//
//     bash scripts/bench_decide.sh            (make bench-decide)
//     .build/debug/DecideBench [runs] [seed]  (default 20 runs from seed 29)
//
// Prints, per order, the swipes until the deck is decided (median and mean over the runs), the
// realised share of wrong yes/no verdicts (a verdict on the wrong side of the threshold of the
// card's true rate), the cards settled by the votes cap, and whether the targets are met:
// realised error ≤ the stated 5 %, adaptive ≥ 40 % fewer swipes than shuffled. Then, for a few
// quality settings, how many careless participants the known-answer cards catch
// (`KnownAnswerDealing.deal`, `QualityReport.isFlagged`) and how many careful ones they flag.

import Foundation
import SwipePhysics
import SwipedeckServer

/// The simulated deck and crowd (each value documented: unit, default, why).
struct Setup {
    /// Cards in the deck: 100, the figure.
    var cards = 100
    /// Cards one participant swipes before leaving: 20, a short phone session (a participant
    /// also stops when nothing is left to deal).
    var session = 20
    /// Share of careless participants, who like at random (p = ½) whatever the card: 10 %.
    var careless = 0.10
    /// Participants at most per run: 20,000; a run that has not decided the deck by then reports
    /// "not decided" (the listed order never deals cards past the session's length).
    var maxParticipants = 20_000
    /// The rule: yes or no at 50 % with a 5 % error rate; a card still deciding at 200 votes is
    /// settled (a rate too close to 50 % to matter), so every deck can be decided.
    var rule = StopRule(kind: .threshold, threshold: 0.5, errorRate: 0.05, votesCap: 200)
}

/// What one run of one order gave.
struct Outcome {
    var swipes = 0
    var decided = false
    var verdicts = 0
    var wrong = 0
    var capped = 0
}

func run(order: CardOrder, setup: Setup, seed: UInt64) -> Outcome {
    var rng = SplitMix64(seed: seed)
    let rates = (0..<setup.cards).map { _ in rng.unit() }
    let cards = (0..<setup.cards).map { i in
        Card(id: Int64(i + 1), NewCard(deckId: 1, position: i, title: "card \(i + 1)"))
    }
    var counts = Dictionary(
        uniqueKeysWithValues: cards.map { ($0.id, CardCount(cardId: $0.id, likes: 0, votes: 0)) })
    var outcome = Outcome()
    // The verdict each card had when it was first decided (what the owner was told).
    var first: [Int64: CardVerdict] = [:]
    // The participant stream is the same for every order (its own generator), so orders differ only by dealing.
    var crowd = SplitMix64(seed: seed ^ 0x5EED)
    for participant in 0..<setup.maxParticipants {
        let name = "p\(participant)"
        let careless = crowd.unit() < setup.careless
        let dealt: [Card]
        switch order {
        case .listed: dealt = cards
        case .shuffled:
            dealt = cards.sorted {
                CardOrder.shuffleKey(participant: name, cardId: $0.id)
                    < CardOrder.shuffleKey(participant: name, cardId: $1.id)
            }
        case .adaptive: dealt = AdaptiveDeal.ordered(cards, counts: counts, rule: setup.rule, participant: name)
        }
        for card in dealt.prefix(setup.session) {
            let p = careless ? 0.5 : rates[Int(card.id) - 1]
            let liked = crowd.unit() < p
            var c = counts[card.id, default: CardCount(cardId: card.id, likes: 0, votes: 0)]
            c.votes += 1
            if liked { c.likes += 1 }
            counts[card.id] = c
            outcome.swipes += 1
            if first[card.id] == nil, let verdict = setup.rule.verdict(likes: c.likes, votes: c.votes),
                verdict.isDecided
            {
                first[card.id] = verdict
            }
        }
        if setup.rule.isDeckDecided(Array(counts.values)) {
            outcome.decided = true
            break
        }
    }
    for (id, verdict) in first {
        let rate = rates[Int(id) - 1]
        switch verdict {
        case .yes, .no:
            outcome.verdicts += 1
            if (verdict == .yes) != (rate > setup.rule.threshold) { outcome.wrong += 1 }
        case .settled: outcome.capped += 1
        case .deciding: break
        }
    }
    return outcome
}

let arguments = CommandLine.arguments.dropFirst().compactMap { UInt64($0) }
let runs = Int(arguments.first ?? 20)
let seed = arguments.dropFirst().first ?? 29
let setup = Setup()
print(
    "Decide simulation: \(setup.cards) cards (like rates uniform in [0, 1]), sessions of \(setup.session) cards, "
        + "\(Int(setup.careless * 100)) % careless participants, rule: yes/no at "
        + "\(Int(setup.rule.threshold * 100)) % with error rate \(Int(setup.rule.errorRate * 100)) % "
        + "(beta-binomial confidence sequence), settled at \(setup.rule.votesCap ?? 0) votes; \(runs) runs from seed \(seed)."
)
print("")
print("order     decided  swipes (median)  swipes (mean)  verdicts  wrong  wrong share  settled at cap")
var medians: [CardOrder: Double] = [:]
var errorShare: [CardOrder: Double] = [:]
for order in CardOrder.allCases {
    let outcomes = (0..<runs).map { run(order: order, setup: setup, seed: seed &+ UInt64($0)) }
    let decided = outcomes.filter(\.decided)
    let swipes = decided.map(\.swipes).sorted()
    let median = swipes.isEmpty ? .nan : Double(swipes[swipes.count / 2] + swipes[(swipes.count - 1) / 2]) / 2
    let mean = swipes.isEmpty ? .nan : Double(swipes.reduce(0, +)) / Double(swipes.count)
    let verdicts = outcomes.map(\.verdicts).reduce(0, +)
    let wrong = outcomes.map(\.wrong).reduce(0, +)
    let share = verdicts > 0 ? Double(wrong) / Double(verdicts) : 0
    medians[order] = median
    errorShare[order] = share
    let line = [
        order.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0),
        "\(decided.count)/\(runs)".padding(toLength: 8, withPad: " ", startingAt: 0),
        (swipes.isEmpty ? "not decided" : String(format: "%.0f", median)).padding(
            toLength: 16, withPad: " ", startingAt: 0),
        (swipes.isEmpty ? "–" : String(format: "%.0f", mean)).padding(toLength: 14, withPad: " ", startingAt: 0),
        String(verdicts).padding(toLength: 9, withPad: " ", startingAt: 0),
        String(wrong).padding(toLength: 6, withPad: " ", startingAt: 0),
        String(format: "%.4f", share).padding(toLength: 12, withPad: " ", startingAt: 0),
        String(outcomes.map(\.capped).reduce(0, +)),
    ]
    print(line.joined(separator: " "))
}
print("")
let worst = errorShare.values.max() ?? 0
print(
    String(format: "Realised error %.4f (worst order) ≤ stated %.2f: ", worst, setup.rule.errorRate)
        + (worst <= setup.rule.errorRate ? "met" : "NOT met"))
if let adaptive = medians[.adaptive], let shuffled = medians[.shuffled], adaptive.isFinite, shuffled.isFinite {
    let fewer = 1 - adaptive / shuffled
    print(
        String(
            format: "Adaptive decides the deck with %.1f %% fewer swipes than shuffled (target ≥ 40 %%): ", fewer * 100)
            + (fewer >= 0.40 ? "met" : "NOT met"))
} else {
    print("Adaptive against shuffled: a deck was not decided within \(setup.maxParticipants) participants: NOT met")
}

/// The known-answer part of the crowd: a careful participant answers a known-answer card right with
/// probability 0.9 (known-answer cards are clear cases, yet people slip), a careless one with ½
/// (a like/nope card at random).
struct QualitySetup {
    /// Known-answer cards added to the deck: 20 (enough that no session runs out of them).
    var knownCards = 20
    /// Chance that a careful participant answers a known-answer card right: 0.9.
    var carefulAccuracy = 0.9
    /// Participants simulated per setting: 20,000.
    var participants = 20_000
}

/// The share of careless participants flagged and of careful ones flagged under `settings`, each
/// participant dealt one session through the server's `KnownAnswerDealing` and judged by its
/// `QualityReport.isFlagged`.
func caught(settings: QualitySettings, setup: Setup, quality: QualitySetup, seed: UInt64) -> (Double, Double) {
    let ordinary = (0..<setup.cards).map { i in
        Card(id: Int64(i + 1), NewCard(deckId: 1, position: i, title: "card \(i + 1)"))
    }
    let known = (0..<quality.knownCards).map { i in
        Card(
            id: Int64(setup.cards + i + 1),
            NewCard(deckId: 1, position: setup.cards + i, title: "known \(i + 1)", answer: .right))
    }
    var rng = SplitMix64(seed: seed)
    var flagged = (careless: 0, careful: 0)
    var people = (careless: 0, careful: 0)
    for participant in 0..<quality.participants {
        let name = "q\(participant)"
        let careless = rng.unit() < setup.careless
        let page = (ordinary + known).sorted {
            CardOrder.shuffleKey(participant: name, cardId: $0.id)
                < CardOrder.shuffleKey(participant: name, cardId: $1.id)
        }
        let dealt = KnownAnswerDealing.deal(
            page: page, spare: [], decided: 0, knownDecided: 0, settings: settings, seed: name,
            isKnown: { $0.answer != nil })
        var right = 0
        var answered = 0
        for card in dealt.prefix(setup.session) where card.answer != nil {
            answered += 1
            if rng.unit() < (careless ? 0.5 : quality.carefulAccuracy) { right += 1 }
        }
        let isFlagged = QualityReport.isFlagged(
            KnownAnswerTally([.right: .init(known: answered, correct: right)]), settings: settings)
        if careless {
            people.careless += 1
            if isFlagged { flagged.careless += 1 }
        } else {
            people.careful += 1
            if isFlagged { flagged.careful += 1 }
        }
    }
    return (
        Double(flagged.careless) / Double(max(1, people.careless)),
        Double(flagged.careful) / Double(max(1, people.careful))
    )
}

let quality = QualitySetup()
print("")
print(
    "Careless caught by known-answer cards (sessions of \(setup.session) cards, \(quality.participants) participants, "
        + "careful ones right on \(Int(quality.carefulAccuracy * 100)) % of them, careless on 50 %; "
        + "flagged: at least the minimum known-answer swipes and the accuracy's Wilson upper bound under the threshold):"
)
print("known share  mode      training  min known  threshold  careless caught  careful flagged")
for (share, mode, minKnown) in [(0.1, KnownAnswerMode.silent, 5), (0.1, .training, 5), (0.25, .silent, 5)] {
    var settings = QualitySettings()
    settings.knownShare = share
    settings.mode = mode
    settings.minKnownSwipes = minKnown
    let (careless, careful) = caught(settings: settings, setup: setup, quality: quality, seed: seed)
    let line = [
        String(format: "%.0f %%", share * 100).padding(toLength: 12, withPad: " ", startingAt: 0),
        mode.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0),
        (mode == .training ? String(settings.trainingCards) : "–").padding(toLength: 9, withPad: " ", startingAt: 0),
        String(minKnown).padding(toLength: 10, withPad: " ", startingAt: 0),
        String(format: "%.0f %%", settings.accuracyThreshold * 100).padding(toLength: 10, withPad: " ", startingAt: 0),
        String(format: "%.1f %%", careless * 100).padding(toLength: 16, withPad: " ", startingAt: 0),
        String(format: "%.2f %%", careful * 100),
    ]
    print(line.joined(separator: " "))
}
