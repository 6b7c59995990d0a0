import Foundation

/// The decisions a deck has recorded (`card_decided`, `card_undecided`, `deck_decided`,
/// `deck_undecided` deck events), as revisions: what the deck last told the world about each card
/// and about itself, and what to record when the results say otherwise. Pure: events in, the
/// revision to record out.
///
/// Each record is a deck event under a unique key (`DecisionStore.recordOnce`), so two servers
/// that notice one change record it once: revision 1 of a card is `card:<id>` (the key decks
/// recorded before revisions existed), revision r > 1 is `card:<id>#<r>`; the deck's are `deck`
/// and `deck#<r>`. A revision is recorded whenever the card's verdict under the stop rule differs
/// from its last recorded one — new votes, undos, exclusions or inclusions, a new rule — so the
/// results and the recorded decision never disagree for longer than one check.
public struct DecisionLedger: Sendable, Hashable {
    /// A card's last recorded decision.
    public struct CardEntry: Sendable, Hashable, Codable {
        public var revision: Int
        public var state: CardVerdict
        public var likes: Int
        public var votes: Int
    }

    /// The deck's last recorded decision.
    public struct DeckEntry: Sendable, Hashable, Codable {
        public var revision: Int
        public var decided: Bool
        public var decidedCards: Int
    }

    /// Card id → its last recorded decision.
    public var cards: [Int64: CardEntry] = [:]
    public var deck: DeckEntry?

    /// One stored record: its key, kind and detail (the JSON its notice carried).
    public struct Event: Sendable, Hashable {
        public var key: String
        public var kind: DeckEventKind
        public var detail: String

        public init(key: String, kind: DeckEventKind, detail: String) {
            self.key = key
            self.kind = kind
            self.detail = detail
        }
    }

    /// The fields of a record's detail the ledger reads (older records lack `revision`).
    private struct Detail: Decodable {
        var state: CardVerdict?
        var likes: Int?
        var votes: Int?
        var decidedCards: Int?
    }

    /// Folds the deck's records (any order; other once-recorded events are skipped).
    public init(_ events: [Event]) {
        for e in events {
            guard let (subject, revision) = Self.parse(e.key) else { continue }
            let detail = try? JSONDecoder().decode(Detail.self, from: Data(e.detail.utf8))
            // A detail that does not read (none this server wrote) still counts as its revision.
            if subject == "deck", e.kind == .deckDecided || e.kind == .deckUndecided {
                if (deck?.revision ?? 0) < revision {
                    deck = DeckEntry(
                        revision: revision, decided: e.kind == .deckDecided,
                        decidedCards: detail?.decidedCards ?? 0)
                }
            } else if subject.hasPrefix("card:"), let card = Int64(subject.dropFirst(5)),
                e.kind == .cardDecided || e.kind == .cardUndecided
            {
                if (cards[card]?.revision ?? 0) < revision {
                    cards[card] = CardEntry(
                        revision: revision, state: detail?.state ?? (e.kind == .cardDecided ? .settled : .deciding),
                        likes: detail?.likes ?? 0, votes: detail?.votes ?? 0)
                }
            }
        }
    }

    /// The key of a card's revision.
    public static func cardKey(_ card: Int64, revision: Int) -> String {
        revision == 1 ? "card:\(card)" : "card:\(card)#\(revision)"
    }

    /// The key of the deck's revision.
    public static func deckKey(revision: Int) -> String { revision == 1 ? "deck" : "deck#\(revision)" }

    /// A key's subject (`card:<id>` or `deck`) and revision; nil for another key.
    static func parse(_ key: String) -> (String, Int)? {
        let parts = key.split(separator: "#", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let revision = parts.count == 2 ? Int(parts[1]) : 1
        guard let revision, revision >= 1 else { return nil }
        return (String(parts[0]), revision)
    }

    /// The revision to record for a card whose verdict is now `state`, or nil when the last
    /// record says the same (a card never decided records nothing while it is deciding).
    public func revision(card: Int64, now state: CardVerdict) -> Int? {
        guard let last = cards[card] else { return state.isDecided ? 1 : nil }
        return last.state == state ? nil : last.revision + 1
    }

    /// The revision to record for the deck, decided or not now; nil when the last record says the same.
    public func deckRevision(decided: Bool) -> Int? {
        guard let last = deck else { return decided ? 1 : nil }
        return last.decided == decided ? nil : last.revision + 1
    }
}
