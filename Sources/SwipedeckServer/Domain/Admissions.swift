/// Admits participants to decks: pays a join from the free budget (`JoinBudget`) or with a solved
/// join puzzle (`JoinPuzzles`), checks the proof a deck that takes invited people only asks
/// (`DeckAccessMode`) and says what credential it earns; `join` is the whole of a join, for the
/// page and the API alike.
public struct Admissions: Sendable {
    let store: any Store
    let signer: ParticipantSigner
    let joins: JoinBudget
    let puzzles: JoinPuzzles
    /// Reveals decks' access secrets from what the database stores.
    let secretKey: SecretKey

    public init(
        store: any Store, signer: ParticipantSigner, joins: JoinBudget, puzzles: JoinPuzzles, secretKey: SecretKey
    ) {
        self.store = store
        self.signer = signer
        self.joins = joins
        self.puzzles = puzzles
        self.secretKey = secretKey
    }

    /// A credential for `deck` for a client at `address` presenting `proof`. The join is paid
    /// first — by the proof's solved puzzle, else from the free budget — so wrong codes and
    /// signatures are guessed no faster than people join; an admission by code or signed id gives
    /// a free join back (the code is the person: nobody new joined). A credential paid by a
    /// puzzle counts as minted when the puzzle was issued.
    /// - Throws: `puzzle` for a solution that earns nothing, `joinBudgetSpent` past the free budget
    ///   without one, then as `admit`.
    public func join(_ deck: Deck, _ proof: Proof, address: String?, now: Double) async throws -> (
        token: String, credential: ParticipantCredential
    ) {
        var mintedAt = now
        if let solution = proof.puzzle {
            mintedAt = try await puzzles.redeem(solution, deck: deck, address: address, now: now)
        } else if let wait = try await joins.take(address: address, deck: deck, now: now) {
            throw ApiError.joinBudgetSpent(retryAfter: wait)
        }
        let (admission, subject) = try await admit(deck, proof)
        if proof.puzzle == nil && (admission == .code || admission == .external) {
            try await joins.refund(address: address, deck: deck, now: now)
        }
        return signer.issue(.deck(deck.id, admission), subject: subject, now: mintedAt)
    }

    /// What a visitor or a program presents: the secret link's key, a code, or a signed id; and a
    /// solved join puzzle, which pays the join instead of the free budget.
    public struct Proof: Sendable, Decodable {
        public var key: String?
        public var code: String?
        public var pid: String?
        public var sig: String?
        public var puzzle: JoinPuzzle?

        public init(
            key: String? = nil, code: String? = nil, pid: String? = nil, sig: String? = nil, puzzle: JoinPuzzle? = nil
        ) {
            self.key = key
            self.code = code
            self.pid = pid
            self.sig = sig
            self.puzzle = puzzle
        }

        /// Whether any admission proof was presented (a puzzle pays a join; it admits nobody).
        public var isEmpty: Bool { key == nil && code == nil && pid == nil && sig == nil }
    }

    /// The admission `proof` earns on `deck`, and its subject (the code or the external id).
    /// An open (`link`) deck admits everybody as `.open`, whatever is presented.
    /// - Throws: `accessRequired` when the proof is missing or wrong for the deck's mode.
    public func admit(_ deck: Deck, _ proof: Proof) async throws -> (ParticipantCredential.Admission, String) {
        switch deck.access {
        case .link:
            return (.open, "")
        case .unlisted:
            guard let key = proof.key, let secret = try secretKey.accessSecret(of: deck),
                Secret.constantTimeEqual(key, secret)
            else {
                throw ApiError.accessRequired
            }
            return (.secretLink, "")
        case .codes:
            guard let code = proof.code.map(AccessCode.normalized), AccessCode.isWellFormed(code),
                try await store.hasAccessCode(deckId: deck.id, code: code)
            else { throw ApiError.accessRequired }
            return (.code, code)
        case .allowList:
            guard let pid = proof.pid, let sig = proof.sig, Self.isExternalId(pid),
                let secret = try secretKey.accessSecret(of: deck),
                Secret.constantTimeEqual(
                    sig.lowercased(), ParticipantSigner.externalSignature(pid: pid, accessSecret: secret))
            else { throw ApiError.accessRequired }
            return (.external, pid)
        }
    }

    /// An external id: 1–128 characters of `[A-Za-z0-9._@:-]` (an email address, a student number, a UUID).
    public static func isExternalId(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 128
            && s.utf8.allSatisfy { b in
                (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) || b == 46 || b == 95
                    || b == 64 || b == 58 || b == 45
            }
    }

}

/// One-time codes of a `codes` deck: 8 characters from an alphabet without look-alikes (no 0/O,
/// 1/I/L), shown as two groups of four (`K7MX-3QP9`); typed in any case, with or without the dash
/// or spaces. 31^8 ≈ 8.5 × 10^11 codes: guessing one of a thousand issued takes ~10^8 tries,
/// which the join budget makes days per network.
public enum AccessCode {
    public static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    /// Most codes one request makes. Default 1,000 (a big event's printed sheet).
    public static let maxPerRequest = 1000

    /// A fresh code (the dash not included).
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<8).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// `code` upper-cased without spaces, dashes and the `+` a form sends for a space.
    public static func normalized(_ code: String) -> String {
        code.uppercased().filter { $0 != "-" && $0 != " " && $0 != "+" }
    }

    public static func isWellFormed(_ code: String) -> Bool {
        code.count == 8 && code.allSatisfy(alphabet.contains)
    }

    /// `K7MX3QP9` as `K7MX-3QP9`.
    public static func shown(_ code: String) -> String {
        String(code.prefix(4)) + "-" + String(code.dropFirst(4))
    }
}
