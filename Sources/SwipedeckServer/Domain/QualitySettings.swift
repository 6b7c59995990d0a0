import Foundation

/// How known-answer cards (cards whose `answer` the owner set) are used on a labelling deck.
public enum KnownAnswerMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Tracked only: the swiper is told nothing.
    case silent
    /// After each swipe on a known-answer card the swiper sees whether it was right.
    case feedback
    /// The first `QualitySettings.trainingCards` cards dealt are known-answer cards, with
    /// feedback; silent afterwards.
    case training
}

/// A deck's quality control: how known-answer cards are dealt and used, and when a participant
/// is flagged (`ParticipantQuality`). Every field has a default, so a deck that never set them
/// (stored as nil) reads as `QualitySettings()`.
public struct QualitySettings: Sendable, Hashable, Codable {
    /// Share of the cards dealt that are known-answer cards, 0…1: 0.1 (one in ten), the share
    /// labelling tools commonly spend on checks without slowing the real work much.
    public var knownShare: Double = 0.1
    public var mode: KnownAnswerMode = .silent
    /// Cards dealt first in `training` mode, all known-answer ones: 5, 0…100.
    public var trainingCards: Int = 5
    /// Accuracy under which a participant is flagged, 0…1 (0 flags nobody): 0.7.
    public var accuracyThreshold: Double = 0.7
    /// Known-answer swipes a participant needs before they can be flagged, 1…1000: 5, so one
    /// slip does not flag anybody.
    public var minKnownSwipes: Int = 5
    /// Whether a flagged participant is excluded from the results at once (the exclusion an
    /// owner makes by hand, with its event; an exclusion the owner lifted is never made again).
    public var excludeFlagged: Bool = false

    public init() {}

    /// Decodes a partial object: a missing field keeps its default.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = QualitySettings()
        knownShare = try c.decodeIfPresent(Double.self, forKey: .knownShare) ?? d.knownShare
        mode = try c.decodeIfPresent(KnownAnswerMode.self, forKey: .mode) ?? d.mode
        trainingCards = try c.decodeIfPresent(Int.self, forKey: .trainingCards) ?? d.trainingCards
        accuracyThreshold = try c.decodeIfPresent(Double.self, forKey: .accuracyThreshold) ?? d.accuracyThreshold
        minKnownSwipes = try c.decodeIfPresent(Int.self, forKey: .minKnownSwipes) ?? d.minKnownSwipes
        excludeFlagged = try c.decodeIfPresent(Bool.self, forKey: .excludeFlagged) ?? d.excludeFlagged
    }

    /// What is wrong with the settings, as (field, sentence), or nil when they can be stored.
    public var problem: (field: String, message: String)? {
        if !(0...1).contains(knownShare) {
            return ("knownShare", "The share of known-answer cards must be between 0 and 100 %.")
        }
        if !(0...100).contains(trainingCards) {
            return ("trainingCards", "Training cards must be between 0 and 100.")
        }
        if !(0...1).contains(accuracyThreshold) {
            return ("accuracyThreshold", "The accuracy threshold must be between 0 and 100 %.")
        }
        if !(1...1000).contains(minKnownSwipes) {
            return ("minKnownSwipes", "The minimum of known-answer swipes must be between 1 and 1000.")
        }
        return nil
    }

    /// Whether a swipe, the participant's `dealtBefore`-th decision on the deck (from 0), shows
    /// the swiper right or wrong.
    public func givesFeedback(dealtBefore: Int) -> Bool {
        switch mode {
        case .silent: return false
        case .feedback: return true
        case .training: return dealtBefore < trainingCards
        }
    }
}

extension QualitySettings {
    /// The JSON text a deck's `quality` column holds (sorted keys, as GRDB writes it); nil for nil.
    public static func stored(_ settings: QualitySettings?) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Encoding finite numbers, an enum and booleans cannot fail (JSONEncoder throws only on
        // non-finite numbers, which `problem` refuses before anything is stored).
        return settings.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The settings in a `quality` column's text; nil for NULL. Only this server writes the column,
    /// so text that does not decode was not written by it, and the deck reads the defaults.
    public static func decodeStored(_ text: String?) -> QualitySettings? {
        guard let text else { return nil }
        // See above: unreadable text falls back to the defaults rather than making the deck unreadable.
        return try? JSONDecoder().decode(QualitySettings.self, from: Data(text.utf8))
    }
}

/// A change to a deck's quality control (`DeckPatch.quality`): the fields given replace the
/// deck's, the others stay.
public struct QualityPatch: Sendable, Decodable {
    public var knownShare: Double?
    public var mode: KnownAnswerMode?
    public var trainingCards: Int?
    public var accuracyThreshold: Double?
    public var minKnownSwipes: Int?
    public var excludeFlagged: Bool?

    public init() {}

    /// `settings` with the given fields replaced (not checked: see `QualitySettings.problem`).
    public func applied(to settings: QualitySettings) -> QualitySettings {
        var s = settings
        s.knownShare = knownShare ?? s.knownShare
        s.mode = mode ?? s.mode
        s.trainingCards = trainingCards ?? s.trainingCards
        s.accuracyThreshold = accuracyThreshold ?? s.accuracyThreshold
        s.minKnownSwipes = minKnownSwipes ?? s.minKnownSwipes
        s.excludeFlagged = excludeFlagged ?? s.excludeFlagged
        return s
    }
}
