/// How owners, exports and the results page name a deck's participants: by the pseudonym
/// `ParticipantSigner.pseudonym` gives a stored id (the identity itself for every participant
/// since credentials and identities were split; a keyed hash for ids stored before), and back.
/// A pseudonym acts on nothing: every write needs the credential.
public struct ParticipantNames: Sendable {
    let signer: ParticipantSigner
    let store: any Store

    public init(signer: ParticipantSigner, store: any Store) {
        self.signer = signer
        self.store = store
    }

    /// The name shown for stored participant `id` of deck `deckId`.
    public func shown(_ id: String, deckId: Int64) -> String {
        signer.pseudonym(of: id, deckId: deckId)
    }

    /// The stored id that `shown` names in deck `deckId`: an identity is its own name; a pseudonym
    /// of an older id is looked up among the deck's participants. A name that matches nobody is
    /// returned as it is (the store then reports a participant without swipes).
    public func stored(_ shown: String, deckId: Int64) async throws -> String {
        if ParticipantSigner.isIdentity(shown) { return shown }
        return try await store.participantIds(deckId: deckId).first {
            signer.pseudonym(of: $0, deckId: deckId) == shown
        } ?? shown
    }

    /// The owner's report on the participant `shown` names, naming them so.
    public func report(deck: Deck, shown: String) async throws -> ParticipantReport {
        var report = try await store.participantReport(
            deck: deck, participant: try await stored(shown, deckId: deck.id))
        report.participant = shown
        return report
    }
}
