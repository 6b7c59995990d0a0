import Foundation

/// How much work a join puzzle (`JoinPuzzle`) asks, from how many people joined a deck, and its
/// client network, by puzzle recently (their *pressure*: one per identity minted by a solved
/// puzzle, draining at `drainPerSecond`; `JoinPuzzles` keeps it in shared levels).
///
/// The work is the puzzle's `maxNumber`: the solver tries 0, 1, 2 … until SHA-256(salt + n)
/// is the challenge, and n was drawn uniformly from 0…maxNumber, so a solve takes maxNumber / 2
/// hashes on average and maxNumber at most.
///
/// - Up to `allowance` (the deck's expected people, `Deck.joinLimit`, else `defaultAllowance`)
///   of pressure, the work is `baseMaxNumber`: what a phone solves while its person reads the
///   first card. A hall joining at once is one burst: 500 people on one network put at most
///   500 − 120 (the free budget) on the deck and on the network.
/// - Above it, every `doublingStep` of pressure doubles the work, on the deck and on the network
///   alike (the exponents add). A host minting fakes is a sustained rate: it drives the
///   pressure up until each identity costs more than its cores can pay, and from then on gets
///   about `drainPerSecond` identities a second however fast it hashes (each doubling of its
///   hash rate buys one `doublingStep` more, once).
///
/// Pure: the pressures and the time are passed in.
public enum JoinDifficulty {
    /// The work of a puzzle below the allowance: 12,000. Chromium on a phone profile (4× CPU
    /// throttle) hashes about 13,000 SHA-256 a second through WebCrypto, so a solve takes 0.5 s
    /// on average and under a second at most, with room for a busy page; a desktop about a
    /// quarter of that.
    public static let baseMaxNumber = 12_000
    /// The pressure a deck (and a network) takes before the work rises, when its owner said
    /// nothing: 600 identities (a hall of 500, with reloads and late comers).
    public static let defaultAllowance = 600
    /// Pressure above the allowance that doubles the work: 75 identities.
    public static let doublingStep = 75.0
    /// How fast pressure drains: 0.5 identity a second (30 a minute), so a deck back at rest
    /// is at its base work again within minutes, and a sustained attacker's rate converges to it.
    public static let drainPerSecond = 0.5
    /// A solution is accepted while the work asked now is at most this many times its own
    /// puzzle's: the pressure may rise while a person solves, but a pile of easy puzzles fetched
    /// before a burst stops counting once the burst made the work 4× harder.
    public static let tolerance = 4
    /// The most work ever asked: 2^40 (beyond any device; a number the page's JavaScript holds exactly).
    public static let maxMaxNumber = 1 << 40

    /// The work (`maxNumber`) asked of one more identity on a deck whose pressure is
    /// `deckPressure`, from a network whose pressure is `networkPressure`, with `allowance`.
    public static func maxNumber(deckPressure: Double, networkPressure: Double, allowance: Int) -> Int {
        let allowed = Double(max(0, allowance))
        let doublings = (max(0, deckPressure - allowed) + max(0, networkPressure - allowed)) / doublingStep
        // 2^40 / 12,000 is about 2^26.4: beyond that the cap holds.
        guard doublings < 27 else { return maxMaxNumber }
        return min(maxMaxNumber, Int((Double(baseMaxNumber) * pow(2, doublings)).rounded(.up)))
    }

    /// The allowance of `deck`: its expected people (`joinLimit`), at least the default.
    public static func allowance(expectedPeople: Int?) -> Int {
        max(defaultAllowance, expectedPeople ?? 0)
    }

    /// Whether a solved puzzle of work `solved` still pays for a join that asks `required` now.
    public static func accepts(solved: Int, required: Int) -> Bool {
        solved >= required || solved * tolerance >= required
    }
}
