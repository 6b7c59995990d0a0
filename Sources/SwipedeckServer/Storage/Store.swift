import SwipePhysics

/// Everything the app stores, behind one interface with two engines: `AppDatabase` (SQLite in
/// one file, the embedded default) and `PostgresStore` (PostgreSQL, for several servers on one
/// database). `openStore(url:)` picks one from a URL.
///
/// The interface is composed of role protocols — `DeckStore`, `DeckEditStore`, `OwnerStore`,
/// `SwipeStore`, `ResultStore`, `TrustStore`, `AccessCodeStore`, `ImageRecordStore`, `DecisionStore`, `RoomStore`,
/// `WebhookStore`, `JoinPuzzleStore` — each
/// implemented on both engines in a file of the same name (`AppDatabase+Decks.swift` ↔
/// `PostgresStore+Decks.swift`, …), so a part of the app can ask for the role it uses. The
/// storage throws `StoreError` for what a caller may do wrong; the HTTP layer maps it.
///
/// Promises every engine keeps (the storage tests run on both):
/// - A method returns only after its transaction committed; a write that fails changes nothing.
/// - Writes are named for their intent and never erase: undo, flips, edits, archives and
///   exclusions are recorded (a time set, a row appended).
/// - `writeSwipes` applies each item's storage rules (`SwipeRule`) inside the transaction
///   (idempotency key, one live swipe per participant and card, quota, pace) so they hold under
///   concurrency, also between servers on one PostgreSQL database.
/// - `changes` is marked with a deck after every committed write that can change its results;
///   PostgreSQL also marks it on the other servers (LISTEN/NOTIFY), so the live stream follows
///   swipes any server took.
/// - `edits` is marked with a deck after every committed owner's edit of it (settings, access,
///   cards, archive, order); PostgreSQL marks it on every server within the notification's
///   delivery, so no server keeps deciding by a deck's old settings (`Catalog`).
public protocol Store: DeckStore, DeckEditStore, OwnerStore, SwipeStore, ResultStore, TrustStore, AccessCodeStore,
    ImageRecordStore, DecisionStore, RoomStore, WebhookStore, JoinPuzzleStore, PresentationStore
{
    /// Decks whose results may have changed (see the type's promises).
    var changes: DeckChanges { get }
    /// Decks an owner edited (see the type's promises).
    var edits: DeckEdits { get }
    /// A short description for logs and `/healthz` (engine and what it is on).
    var engineDescription: String { get }
    /// Closes connections (PostgreSQL); nothing for SQLite. The store is unusable afterwards.
    func close() async
    /// Token buckets every server on this store draws from: PostgreSQL keeps them in the
    /// database; an SQLite file is served by one process, which keeps them in memory.
    func sharedBuckets(ratePerSecond: Double, burst: Double) -> any TokenBuckets
    /// Draining levels every server on this store raises and reads (the join puzzles' pressure):
    /// PostgreSQL keeps them in the database, an SQLite file's one process in memory.
    func sharedLevels(drainPerSecond: Double) -> any DrainingLevels
}

/// Decks and their cards as participants and the catalog read them (files `+Decks`).
public protocol DeckStore: Sendable {
    /// Inserts a validated deck and its cards in one transaction.
    /// - Throws: `StoreError.slugTaken` when the slug exists.
    func importDeck(_ deck: NewDeck, cards: [NewCard], progress: (@Sendable (Int) -> Void)?) async throws -> Deck
    /// Every deck, oldest first, with its card count and cover.
    func decks() async throws -> [DeckSummary]
    func deck(slug: String) async throws -> Deck?
    /// - Throws: `StoreError.notFound(.deck)`.
    func deckSlug(id: Int64) async throws -> String
    func card(id: Int64) async throws -> Card?
    /// Ids of the deck's cards, active and archived apart (for the in-memory catalog).
    func cardIds(deckId: Int64) async throws -> (active: Set<Int64>, archived: Set<Int64>)
    /// Up to `limit` active cards after `cursor` (a sort key, exclusive; -1 to start) that the
    /// participant has no live swipe on, in the deck's order (`sortKey`), and how many such
    /// cards are left in all.
    func unswipedCards(
        deckId: Int64, participant: String?, order: CardOrder, after cursor: Int, limit: Int
    ) async throws -> (cards: [Card], remaining: Int)
    /// Every card of the deck in order, archived ones included (the owner's editor).
    func allCards(deckId: Int64) async throws -> [Card]
}

/// An owner's edits of a deck and its cards, each recorded as an event (files `+DeckEdits`).
public protocol DeckEditStore: Sendable {
    /// Applies `patch` to deck `id` as stored now — read, checked and written in one transaction,
    /// so two edits made at once (an owner's settings, a presenter's Lock, a stop rule closing the
    /// deck) apply one after the other and neither puts back the fields the other changed — and
    /// bumps its revision; the settings event's detail is `detail` of the deck as patched.
    /// - Throws: `StoreError.notFound(.deck)`; the patch's own refusal (`DeckPatch.applied`).
    func updateDeck(
        id: Int64, _ patch: DeckPatch, by ownerId: Int64?, detail: @escaping @Sendable (Deck) -> String, now: Double
    ) async throws -> Deck
    /// Adds a card at the end of the deck (revision 1).
    func addCard(_ card: NewCard, deckId: Int64, by ownerId: Int64?, now: Double) async throws -> Card
    /// Adds `cards` at the end of the deck in one transaction: all of them or none.
    func addCards(_ cards: [NewCard], deckId: Int64, by ownerId: Int64?, now: Double) async throws -> Int
    /// Stores `card` as its next revision (an unchanged card is returned as it is).
    /// - Throws: `StoreError.notFound(.card)`.
    func editCard(_ card: Card, by ownerId: Int64?, now: Double) async throws -> Card
    /// Archives (or restores) a card: dealt to nobody, its swipes stay counted.
    /// - Throws: `StoreError.notFound(.card)`.
    func setArchived(cardId: Int64, _ archived: Bool, by ownerId: Int64?, now: Double) async throws -> Card
    /// Moves a card to `index` in deck order (0 = first; clamped), renumbering positions 0…n-1.
    /// - Throws: `StoreError.notFound(.card)`.
    func moveCard(cardId: Int64, to index: Int, by ownerId: Int64?, now: Double) async throws
}

/// Owners, their sessions and API tokens, and stored settings (files `+Owners`).
public protocol OwnerStore: Sendable {
    /// Adds an owner; the first one adopts every deck that has none.
    /// - Returns: the owner and the slugs of the decks adopted.
    /// - Throws: `StoreError.ownerNameTaken`.
    func createOwner(name: String, passwordHash: String, now: Double) async throws -> (Owner, [String])
    /// Every owner, by name.
    func owners() async throws -> [Owner]
    func owner(named name: String) async throws -> Owner?
    /// Stores a new session (the cookie carries the token, the row its SHA-256).
    func startSession(ownerId: Int64, tokenHash: String, now: Double, lifetime: Double) async throws
    /// The owner of a live (not ended, not expired) session.
    func sessionOwner(tokenHash: String, now: Double) async throws -> Owner?
    /// Signs a session out (the row stays, with its end time).
    func endSession(tokenHash: String, now: Double) async throws
    /// Replaces the owner's password hash and ends every live session of theirs but `keeping`
    /// (the session that changed it; nil ends them all, as the CLI does), in one transaction.
    /// - Throws: `StoreError.notFound(.owner)` for an unknown id.
    func setPassword(ownerId: Int64, passwordHash: String, keeping: String?, now: Double) async throws
    func createApiToken(ownerId: Int64, name: String, tokenHash: String, prefix: String, now: Double) async throws
    /// The owner's tokens, newest first.
    func apiTokens(ownerId: Int64) async throws -> [ApiTokenSummary]
    /// Revokes one of the owner's tokens. - Throws: `StoreError.notFound(.token)`.
    func revokeApiToken(id: Int64, ownerId: Int64, now: Double) async throws
    /// The owner of a live API token.
    func tokenOwner(tokenHash: String) async throws -> Owner?
    /// A stored setting, creating it with `fresh()` on first use; concurrent first uses (two
    /// servers starting together) agree on one value.
    func setting(
        _ key: String, orCreate fresh: @escaping @Sendable () -> String
    ) async throws -> (value: String, created: Bool)
    /// The check of the secret key the stored secrets are kept under (`SecretKey.check`, the
    /// setting `SecretKeyCheck.settingKey`); nil while they were never rewritten (a database of
    /// a version that kept them in clear).
    func secretKeyCheck() async throws -> String?
    /// Rewrites every stored secret — the `participantSecret` setting, each deck's non-empty
    /// `accessSecret`, each webhook's `secret` — with `transform`, and stores `check` as the key
    /// check, in one transaction. Nothing is rewritten when the stored check already is `check`
    /// (another server did it first). SQLite overwrites the former values' bytes in the file
    /// (`secure_delete`) and empties its write-ahead log after the commit.
    /// - Returns: the number of secrets rewritten; nil when the check already was `check`.
    /// - Throws: `SecretKeyMismatch` when the stored check is not what `expecting` allows.
    func rewriteSecrets(
        expecting: SecretKeyCheck.Expectation, check: String,
        _ transform: @Sendable (SecretPurpose, String) throws -> String
    ) async throws -> Int?
}

/// The stored check of the secret key (`SecretKey.check`).
public enum SecretKeyCheck {
    /// Its `settings` key.
    public static let settingKey = "secretKeyCheck"

    /// What `OwnerStore.rewriteSecrets` requires of the stored check before it rewrites.
    public enum Expectation: Sendable, Equatable {
        /// None stored: secrets in clear, as versions before the secret key kept them.
        case absent
        /// This one stored: the secrets are kept under the key it checks.
        case check(String)
        /// Whatever is stored (a reset that replaces every secret).
        case any

        /// Whether `stored` is what this expectation allows.
        public func allows(_ stored: String?) -> Bool {
            switch self {
            case .absent: return stored == nil
            case .check(let check): return stored == check
            case .any: return true
            }
        }
    }
}

/// The stored secrets are kept under another key than the one given.
public struct SecretKeyMismatch: Error, Sendable, CustomStringConvertible {
    /// The check stored in the database (nil: none).
    public let stored: String?

    public var description: String {
        stored == nil
            ? "The database's secrets were never sealed under a secret key."
            : "The database's secrets are kept under another secret key (its check is \(stored ?? ""))."
    }
}

/// Swipes: the group commit's writes (files `+SwipeWrites`), undo, flip and reads (files `+Swipes`).
public protocol SwipeStore: Sendable {
    /// Writes the items in one transaction, in which each swipe's rules are decided
    /// (`SwipeRule`); returns each item's outcome (nil for a logged rejection) after the commit.
    func writeSwipes(_ items: [SwipeWriter.Item]) async throws -> [SwipeOutcome?]
    func swipe(id: String) async throws -> Swipe?
    /// Marks a swipe undone (the row stays). - Throws: `StoreError.notFound(.swipe)`, `.notYourSwipe`.
    func undoSwipe(id: String, participant: String, at now: Double) async throws -> Swipe
    /// Undoes the participant's most recent live swipe in the deck.
    func undoLatestSwipe(deckId: Int64, participant: String, at now: Double) async throws -> Swipe?
    /// Changes a live swipe's direction, logging the old one.
    /// - Throws: `StoreError.notFound(.swipe)`, `.notYourSwipe`, `.alreadyUndone`.
    func flipSwipe(id: String, participant: String, to direction: Decision, at now: Double) async throws -> Swipe
    /// The participant's live swipes in a deck, newest first, at most `limit`, with their cards.
    func history(deckId: Int64, participant: String, limit: Int) async throws -> [HistoryEntry]
    /// Up to `limit` swipes of the deck after `cursor` (exclusive; 0 to start) in storage order,
    /// each with its cursor: exports read a deck in such pages.
    func swipePage(deckId: Int64, after cursor: Int64, limit: Int) async throws -> [SwipeExportRow]
    /// For each swipe of the deck flipped in place (`flipSwipe`), the direction it had before
    /// its first flip (its first decision), by swipe id; swipes never flipped are absent.
    func firstDirections(deckId: Int64) async throws -> [String: Decision]
}

/// A deck's results and an owner's dashboard, read from the aggregates (files `+Results`).
public protocol ResultStore: Sendable {
    /// A deck's results from the aggregates (excluded participants left out).
    /// - Throws: `StoreError.notFound(.deck)` for a deck that was never stored.
    func results(for deck: Deck) async throws -> ResultsReport
    /// The owner's decks, newest first, with their activity since `since`.
    func activity(ownerId: Int64, since: Double) async throws -> [DeckActivity]
}

/// Trust: exclusions, suspect swipes and what lockstep detection reads (files `+Trust`).
public protocol TrustStore: Sendable {
    /// Excludes a participant's swipes from the results, or lifts the exclusion (both events).
    func setExcluded(
        deck: Deck, participant: String, _ excluded: Bool, reason: String, by ownerId: Int64?, now: Double
    ) async throws
    /// A participant's swipes in the deck by kind and reason, rejections and exclusions.
    func participantReport(deck: Deck, participant: String) async throws -> ParticipantReport
    /// Every participant with a swipe in the deck (stored ids; owners' pseudonyms are resolved
    /// against them).
    func participantIds(deckId: Int64) async throws -> [String]
    /// The deck's participants on networks with at least `minCrowd` of them, each with where and
    /// when they joined and their live decisions (`LockstepClusters`' input).
    func lockstepMembers(deckId: Int64, minCrowd: Int) async throws -> [LockstepClusters.Member]
    /// The deck's participants with an exclusion in force, and those whose exclusion the owner
    /// lifted at least once (never excluded again automatically).
    func exclusionStates(deckId: Int64) async throws -> (excluded: Set<String>, lifted: Set<String>)
    /// Participants with suspect swipes or an exclusion in force, most suspect first: `limit`
    /// of them after the first `offset` (the results page's pages).
    func flaggedParticipants(deckId: Int64, limit: Int, offset: Int) async throws -> [FlaggedParticipant]
    /// How many participants `flaggedParticipants` lists in all.
    func flaggedParticipantCount(deckId: Int64) async throws -> Int
    /// Exclusions in force by reason, and the people not excluded with live suspect swipes, by
    /// suspect reason (`PeopleSummary`).
    func trustCounts(deckId: Int64) async throws -> PeopleSummary.Counts
}

/// Deck events recorded once however many servers notice them: cards and decks decided under
/// their stop rule (files `+Decisions`).
public protocol DecisionStore: Sendable {
    /// Appends a deck event under `key` unless the deck has one under that key (a unique index,
    /// so two servers noticing the same thing record it once); true when this call recorded it.
    func recordOnce(deckId: Int64, kind: DeckEventKind, key: String, detail: String, now: Double) async throws -> Bool
    /// The keys of the deck's events recorded once.
    func onceKeys(deckId: Int64) async throws -> Set<String>
    /// The deck's events recorded once, with their kinds and details (`DecisionLedger`'s input).
    func decisionEvents(deckId: Int64) async throws -> [DecisionLedger.Event]
}

/// One-time access codes of a deck (files `+AccessCodes`).
public protocol AccessCodeStore: Sendable {
    /// Stores new one-time codes of a deck (codes already there are skipped).
    func addAccessCodes(deckId: Int64, _ codes: [String], now: Double) async throws
    /// The deck's codes, oldest first.
    func accessCodes(deckId: Int64) async throws -> [String]
    /// Whether `code` is one of the deck's codes.
    func hasAccessCode(deckId: Int64, code: String) async throws -> Bool
}

/// The records of uploaded images (the bytes are in `ImageStore`'s directory; files `+Images`).
public protocol ImageRecordStore: Sendable {
    /// Records an uploaded image unless its hash is recorded; true when this call added it.
    func recordImage(_ image: StoredImage) async throws -> Bool
    func image(hash: String) async throws -> StoredImage?
}

extension DeckStore {
    @discardableResult
    public func importDeck(_ deck: NewDeck, cards: [NewCard]) async throws -> Deck {
        try await importDeck(deck, cards: cards, progress: nil)
    }

    public func unswipedCards(
        deckId: Int64, participant: String?, after cursor: Int, limit: Int
    ) async throws -> (cards: [Card], remaining: Int) {
        try await unswipedCards(deckId: deckId, participant: participant, order: .listed, after: cursor, limit: limit)
    }
}

extension SwipeStore {
    public func history(deckId: Int64, participant: String) async throws -> [HistoryEntry] {
        try await history(deckId: deckId, participant: participant, limit: 500)
    }
}

extension TrustStore {
    public func flaggedParticipants(deckId: Int64) async throws -> [FlaggedParticipant] {
        try await flaggedParticipants(deckId: deckId, limit: 50, offset: 0)
    }

    public func flaggedParticipants(deckId: Int64, limit: Int) async throws -> [FlaggedParticipant] {
        try await flaggedParticipants(deckId: deckId, limit: limit, offset: 0)
    }
}
