import SwipePhysics

/// One live swipe as quality control reads it (`QualityReport`).
public struct QualityVote: Sendable, Hashable {
    public var participant: String
    public var cardId: Int64
    public var direction: Decision
    /// Whether the deck counts the swipe in its results (`SwipeKind.countedAs` in the deck's
    /// `countedInputs`; suspect swipes never count).
    public var counted: Bool
    /// Time the card was on top before the decision, ms.
    public var decisionMs: Double?
    /// Whether the drag reversed before release (`Trace.reversesBeforeRelease`); nil without a trace.
    public var reversed: Bool?

    public init(
        participant: String, cardId: Int64, direction: Decision, counted: Bool = true, decisionMs: Double? = nil,
        reversed: Bool? = nil
    ) {
        self.participant = participant
        self.cardId = cardId
        self.direction = direction
        self.counted = counted
        self.decisionMs = decisionMs
        self.reversed = reversed
    }

    /// The vote of a stored swipe; `counts` is the deck's counted inputs.
    public init(_ swipe: Swipe, counts: Set<CountedInput>) {
        var reversed: Bool?
        if let bytes = swipe.traceData, let trace = TraceCodec.decode(Array(bytes)) {
            reversed = trace.reversesBeforeRelease()
        }
        self.init(
            participant: swipe.participantId, cardId: swipe.cardId, direction: swipe.direction,
            counted: swipe.kind.countedAs.map(counts.contains) ?? false, decisionMs: swipe.decisionMs,
            reversed: reversed)
    }
}

/// A deck's quality control, for its owner: each participant's accuracy on known-answer cards
/// and agreement with the others, each card's agreement, and the deck's Fleiss' κ and
/// Krippendorff's α with their bootstrap intervals (`Agreement`).
///
/// What enters where:
/// - A rating is a live counted swipe (`QualityVote.counted`) of a participant not excluded; its
///   category is the swipe's direction (`Decision`). κ, α and the cards' agreement read ratings.
/// - A participant's figures read all their live swipes, counted or not, excluded or not, so the
///   owner sees why someone was flagged: accuracy is the share of the known-answer cards they
///   decided whose FIRST decision was the card's `answer` — a later undo or flip (after feedback
///   told them the answer) does not change it; the majority agreement compares each of their
///   swipes with the others' ratings of that card, on cards with at least 2 other ratings and one
///   most common direction (a tie is no majority and is skipped).
public struct QualityReport: Sendable, Encodable {
    public struct CardQuality: Sendable, Encodable {
        public var cardId: Int64
        public var title: String
        /// The card's correct direction, if it is a known-answer card.
        public var answer: Decision?
        /// Ratings (live counted swipes of participants not excluded).
        public var ratings: Int
        /// Share of agreeing pairs among the ratings (`Agreement.cardAgreement`); nil under 2.
        public var agreement: Double?
    }

    public struct ParticipantQuality: Sendable, Encodable {
        public var participant: String
        /// Live swipes.
        public var swipes: Int
        /// Live swipes on known-answer cards, and how many of them were right.
        public var knownAnswers: Int
        public var correct: Int
        /// correct / knownAnswers; nil without known-answer swipes.
        public var accuracy: Double?
        /// The Wilson 95 % interval of the accuracy; nil without known-answer swipes.
        public var accuracyInterval: WilsonInterval?
        /// Swipes compared with the leave-one-out majority, and the share that matched it.
        public var majorityCompared: Int
        public var majorityAgreement: Double?
        /// Median time a card was on top before the participant decided, ms.
        public var medianDecisionMs: Double?
        /// Swipes with a trace, and the share of them whose drag reversed before release.
        public var drags: Int
        public var reversalShare: Double?
        /// Whether the owner's threshold flags the participant (`QualityReport.isFlagged`).
        public var flagged: Bool
        /// Whether an exclusion is in force.
        public var excluded: Bool
    }

    public var deck: String
    public var settings: QualitySettings
    /// Known-answer cards of the deck.
    public var knownAnswerCards: Int
    public var fleissKappa: FleissKappa?
    public var fleissKappaInterval: ConfidenceRange?
    public var krippendorffAlpha: Double?
    public var krippendorffAlphaInterval: ConfidenceRange?
    /// The bootstrap's resamples (`Agreement.bootstrapResamples`).
    public var bootstrapResamples: Int
    public var cards: [CardQuality]
    /// Participants by accuracy (lowest first, those without known answers last), then id.
    public var participants: [ParticipantQuality]

    /// The flag rule: at least `minKnownSwipes` known-answer swipes, and either
    /// - the upper bound of the accuracy's Wilson 95 % interval under `accuracyThreshold`, or
    /// - on the known-answer cards of one answer (at least `minPerAnswer` of them, the participant
    ///   having met cards of two answers or more), the upper bound of that accuracy's Wilson
    ///   interval under the threshold, at 97.5 % / m one-sided for m answers met (Bonferroni).
    ///
    /// Flagged only once it is unlikely (about 2.5 % for each of the two tests) that the
    /// participant's true accuracy — overall, or on the cards of some answer — reaches the
    /// threshold, so a careful participant with one unlucky slip is not flagged. The second test
    /// catches a participant who swipes one way whatever the card: on a deck whose known answers
    /// are half "right", an always-"right" swiper is right half the time (not flagged by the
    /// first test before about 14 known answers at 0.7), but wrong on every "left" one — 0 of 3
    /// has an upper bound of 0.63 at m = 2. A careful participant right on 9 cards in 10 misses
    /// all 3 of one answer once in 1,000. A deck whose known answers are all one way cannot tell
    /// such a swiper from a careful one (README, Quality control).
    public static func isFlagged(_ tally: KnownAnswerTally, settings: QualitySettings) -> Bool {
        guard tally.known >= settings.minKnownSwipes else { return false }
        if WilsonInterval(successes: tally.correct, trials: tally.known).upper < settings.accuracyThreshold {
            return true
        }
        let answers = tally.byAnswer.count
        guard answers >= 2 else { return false }
        let z = Self.bonferroniZ[min(answers, Self.bonferroniZ.count - 1)]
        return tally.byAnswer.values.contains { count in
            count.known >= Self.minPerAnswer
                && WilsonInterval(successes: count.correct, trials: count.known, z: z).upper
                    < settings.accuracyThreshold
        }
    }

    /// Known-answer cards of one answer a participant must have met before their accuracy on them
    /// alone can flag them: 3 (0 of 2 is no evidence at a threshold of 0.7).
    public static let minPerAnswer = 3

    /// The normal quantile of 1 − 0.025 / m, by m (the answers a participant met, 2 to 8; the
    /// directions are 8): each answer's test at 2.5 % / m, so together at 2.5 %.
    static let bonferroniZ: [Double] = [
        1.959964, 1.959964, 2.241403, 2.393980, 2.497705, 2.575829, 2.638257, 2.690110, 2.734369,
    ]

    /// - Parameter firstDecisions: each participant's first decision per card (`read` takes it
    ///   from every swipe, undone ones included, before any flip); nil: their live swipes.
    public init(
        deck: Deck, cards: [Card], votes: [QualityVote], excluded: Set<String>, settings: QualitySettings,
        firstDecisions: [String: [Int64: Decision]]? = nil, resamples: Int = Agreement.bootstrapResamples
    ) {
        let answers = Dictionary(uniqueKeysWithValues: cards.compactMap { c in c.answer.map { (c.id, $0) } })
        var ratings: [Int64: [Decision]] = [:]
        for v in votes where v.counted && !excluded.contains(v.participant) {
            ratings[v.cardId, default: []].append(v.direction)
        }
        let categories = Decision.directions
        let column = Dictionary(uniqueKeysWithValues: categories.enumerated().map { ($1, $0) })
        let cardIds = cards.map(\.id)
        let table = Agreement.table(ratings, cards: cardIds, categories: categories)
        let rowOf = Dictionary(uniqueKeysWithValues: cardIds.enumerated().map { ($1, $0) })

        var byParticipant: [String: [QualityVote]] = [:]
        for v in votes { byParticipant[v.participant, default: []].append(v) }
        var participants = byParticipant.map { id, mine -> ParticipantQuality in
            var tally = KnownAnswerTally()
            var compared = 0
            var agreed = 0
            // Without the first decisions, each live swipe stands for its own.
            let firsts = firstDecisions?[id] ?? Dictionary(mine.map { ($0.cardId, $0.direction) }) { a, _ in a }
            for (cardId, direction) in firsts {
                guard let answer = answers[cardId] else { continue }
                tally.add(answer: answer, decided: direction)
            }
            for v in mine {
                guard let row = rowOf[v.cardId], let j = column[v.direction] else { continue }
                var others = table[row]
                if v.counted && !excluded.contains(id) { others[j] -= 1 }
                guard others.reduce(0, +) >= 2, let top = others.max(),
                    others.filter({ $0 == top }).count == 1
                else { continue }
                compared += 1
                if others[j] == top { agreed += 1 }
            }
            let times = mine.compactMap(\.decisionMs).sorted()
            let traced = mine.compactMap(\.reversed)
            return ParticipantQuality(
                participant: id, swipes: mine.count, knownAnswers: tally.known, correct: tally.correct,
                accuracy: tally.known > 0 ? Double(tally.correct) / Double(tally.known) : nil,
                accuracyInterval: tally.known > 0 ? WilsonInterval(successes: tally.correct, trials: tally.known) : nil,
                majorityCompared: compared,
                majorityAgreement: compared > 0 ? Double(agreed) / Double(compared) : nil,
                medianDecisionMs: Self.median(times), drags: traced.count,
                reversalShare: traced.isEmpty ? nil : Double(traced.filter { $0 }.count) / Double(traced.count),
                flagged: Self.isFlagged(tally, settings: settings),
                excluded: excluded.contains(id))
        }
        participants.sort { a, b in
            switch (a.accuracy, b.accuracy) {
            case (let x?, let y?) where x != y: return x < y
            case (nil, _?): return false
            case (_?, nil): return true
            default: return a.participant < b.participant
            }
        }
        self.deck = deck.slug
        self.settings = settings
        knownAnswerCards = answers.count
        // Cards under 2 ratings enter neither statistic, so the bootstrap resamples the others.
        let rated = table.filter { $0.reduce(0, +) >= 2 }
        let kappa = Agreement.fleissKappa(table)
        fleissKappa = kappa
        fleissKappaInterval =
            kappa == nil
            ? nil : Agreement.interval(of: { Agreement.fleissKappa($0)?.value }, over: rated, resamples: resamples)
        let alpha = Agreement.krippendorffAlpha(table)
        krippendorffAlpha = alpha
        krippendorffAlphaInterval =
            alpha == nil ? nil : Agreement.interval(of: Agreement.krippendorffAlpha, over: rated, resamples: resamples)
        bootstrapResamples = resamples
        self.cards = cards.enumerated().map { i, c in
            CardQuality(
                cardId: c.id, title: c.title, answer: c.answer, ratings: table[i].reduce(0, +),
                agreement: Agreement.cardAgreement(table[i]))
        }
        self.participants = participants
    }

    /// The median of sorted `values` (the mean of the middle two for an even count); nil when empty.
    static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let mid = values.count / 2
        return values.count % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2
    }
}

/// A participant's decisions on known-answer cards, by the cards' answers (`QualityReport.isFlagged`).
public struct KnownAnswerTally: Sendable, Hashable {
    /// Per answer: the known-answer cards of that answer decided, and how many were decided as it.
    public struct Count: Sendable, Hashable {
        public var known = 0
        public var correct = 0

        public init(known: Int = 0, correct: Int = 0) {
            self.known = known
            self.correct = correct
        }
    }

    public private(set) var byAnswer: [Decision: Count] = [:]

    public init() {}

    /// A tally of `counts` per answer (tests, simulations).
    public init(_ counts: [Decision: Count]) {
        byAnswer = counts.filter { $0.value.known > 0 }
    }

    /// Known-answer cards decided, of any answer.
    public var known: Int { byAnswer.values.reduce(0) { $0 + $1.known } }
    /// Of them, decided as their answer.
    public var correct: Int { byAnswer.values.reduce(0) { $0 + $1.correct } }

    /// Counts a decision `decided` on a card whose answer is `answer`.
    public mutating func add(answer: Decision, decided: Decision) {
        byAnswer[answer, default: Count()].known += 1
        if decided == answer { byAnswer[answer, default: Count()].correct += 1 }
    }
}
