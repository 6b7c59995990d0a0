/// Decks on a big screen (`Presentation`; files `+Presentations`), shared by every server on a
/// database: a code made on one server is found on all.
public protocol PresentationStore: Sendable {
    /// The deck's presentation, nil before its owner first opened the presenter page.
    func presentation(deckId: Int64) async throws -> Presentation?
    /// The presentation whose join code is `joinCode` (upper case), nil when none has it.
    func presentation(joinCode: String) async throws -> Presentation?
    /// Makes the deck's presentation with `joinCode`, results hidden; a deck that has one already
    /// keeps it (that one is returned). Nil when another deck has the code (the caller draws again).
    func createPresentation(deckId: Int64, joinCode: String, now: Double) async throws -> Presentation?
    /// Shows (`true`) or hides the results on the deck's big screen, and sets its reveal timer
    /// (`revealAt`; nil: none); nil when the deck has no presentation.
    func setRevealed(deckId: Int64, _ revealed: Bool, revealAt: Double?, now: Double) async throws -> Presentation?
    /// Sets the deck's pace (`Presentation.pacing`) — an edit of the deck, heard by its phones and
    /// screens on every server; nil when the deck has no presentation.
    func setPacing(deckId: Int64, _ pacing: Pacing, now: Double) async throws -> Presentation?
    /// Sets the deck's presenter link (`Presentation.presenterLink`: made or revoked) — an edit of
    /// the deck, so every server's screens check it afresh; nil when the deck has no presentation.
    func setPresenterLink(deckId: Int64, _ link: PresenterLink, now: Double) async throws -> Presentation?
}
