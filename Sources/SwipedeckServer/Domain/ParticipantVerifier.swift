/// Decides whether a participant id is one this server issued: signed by its `ParticipantSigner`,
/// or stored before signing existed (`participants.legacy`, set by migration v3 and never again).
public struct ParticipantVerifier: Sendable {
    public let signer: ParticipantSigner
    let store: any SwipeStore

    public init(signer: ParticipantSigner, store: any SwipeStore) {
        self.signer = signer
        self.store = store
    }

    /// Whether `id` may act as a participant. Signed ids need no database read; an unsigned
    /// well-formed id costs one primary-key lookup (asynchronous, off the concurrency pool).
    public func isKnown(_ id: String) async throws -> Bool {
        guard Participant.isValidId(id) else { return false }
        if signer.verify(id) { return true }
        return try await store.isLegacyParticipant(id)
    }

    /// `id` if it is known.
    /// - Throws: `ApiError.invalidField(invalid_participant)` when malformed, `.unknownParticipant`
    ///   when well-formed but not issued by this server.
    public func checked(_ id: String) async throws -> String {
        guard Participant.isValidId(id) else {
            throw ApiError.invalidField(code: "invalid_participant", message: "participant must be 1–64 characters of A–Z, a–z, 0–9, '_', '-'.")
        }
        guard try await isKnown(id) else { throw ApiError.unknownParticipant }
        return id
    }
}
