/// Joining past the free budget (`JoinBudget`) by proof of work: issues a deck's join puzzles
/// (`JoinPuzzle`) at the work its pressure asks (`JoinDifficulty`), and redeems a solved one —
/// signed for this deck and network, unexpired, still worth the work asked now, never used
/// before on any server — for the right to mint one credential.
///
/// The pressure is kept in shared draining levels (`Store.sharedLevels`), one per deck and one per
/// client network; the replay guard in the store (`JoinPuzzleStore`). Both are one for every
/// server on a PostgreSQL database, so neither several servers nor a puzzle sent to two of them
/// buys more than one server would give.
public struct JoinPuzzles: Sendable {
    let signer: JoinPuzzleSigner
    let levels: any DrainingLevels
    let store: any JoinPuzzleStore

    /// - Parameters:
    ///   - secret: the participant secret (every server on a database signs with it).
    ///   - levels: draining at `JoinDifficulty.drainPerSecond`.
    public init(secret: String, levels: any DrainingLevels, store: any JoinPuzzleStore) {
        self.signer = JoinPuzzleSigner(secret: secret)
        self.levels = levels
        self.store = store
    }

    /// A fresh puzzle for a client at `address` (nil in router tests: one unnamed network) to join `deck`.
    public func issue(deck: Deck, address: String?, now: Double) async throws -> JoinPuzzle {
        let network = Self.network(address)
        let work = try await required(deck: deck, network: network, now: now)
        return signer.issue(deckId: deck.id, network: network, maxNumber: work, now: now)
    }

    /// Redeems `solution` for a client at `address` joining `deck` at `now`: on success the deck's
    /// and the network's pressure rise by one.
    /// - Returns: when the puzzle was issued (seconds since 1970): the credential it earns counts as
    ///   minted then, so the card read while it was solved is not "decided before read" (`HumanPace`).
    /// - Throws: `ApiError.puzzle` naming the rule broken.
    public func redeem(_ solution: JoinPuzzle, deck: Deck, address: String?, now: Double) async throws -> Double {
        let network = Self.network(address)
        do {
            try signer.check(solution, deckId: deck.id, network: network, now: now)
        } catch {
            throw ApiError.puzzle(error)
        }
        let work = try await required(deck: deck, network: network, now: now)
        guard JoinDifficulty.accepts(solved: solution.maxNumber, required: work) else {
            throw ApiError.puzzle(.stale)
        }
        guard try await store.claimPuzzle(salt: solution.salt, expiresAt: Double(solution.expiresMs) / 1000, now: now)
        else { throw ApiError.puzzle(.used) }
        try await levels.raise(Self.keys(deck: deck, network: network), by: 1, now: now)
        return Double(solution.issuedMs) / 1000
    }

    /// The work a join of `deck` from `network` asks at `now`.
    func required(deck: Deck, network: String, now: Double) async throws -> Int {
        let pressure = try await levels.levels(Self.keys(deck: deck, network: network), now: now)
        return JoinDifficulty.maxNumber(
            deckPressure: pressure[0], networkPressure: pressure[1],
            allowance: JoinDifficulty.allowance(expectedPeople: deck.joinLimit))
    }

    static func keys(deck: Deck, network: String) -> [String] {
        ["join:deck:\(deck.id)", "join:net:" + network]
    }

    static func network(_ address: String?) -> String {
        address.map(ClientNetwork.key) ?? ""
    }
}
