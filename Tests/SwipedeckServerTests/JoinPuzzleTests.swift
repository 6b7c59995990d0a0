import Foundation
import Testing

@testable import SwipedeckServer

/// The join puzzle without a server: its work as a function of pressure (`JoinDifficulty`), its
/// signature binding a deck, a network and a lifetime, the one hash that checks it
/// (`JoinPuzzleSigner`), and the draining levels that hold the pressure.
struct JoinPuzzleTests {
    let signer = JoinPuzzleSigner(secret: participantSecret)
    let network = "203.0.113.0/24"

    /// The answer a device finds: the first number whose hash is the challenge.
    static func solve(_ puzzle: JoinPuzzle) -> JoinPuzzle {
        var solved = puzzle
        solved.number = (0...puzzle.maxNumber).first {
            JoinPuzzleSigner.hash(salt: puzzle.salt, number: $0) == puzzle.challenge
        }
        return solved
    }

    func refusal(_ solution: JoinPuzzle, deckId: Int64 = 7, network: String? = nil, now: Double = fixedTime)
        -> JoinPuzzleRefusal?
    {
        do {
            try signer.check(solution, deckId: deckId, network: network ?? self.network, now: now)
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "below the allowance the work is the base; above it each step of pressure doubles it, deck and network adding up"
    )
    func difficulty() {
        let base = JoinDifficulty.baseMaxNumber
        let step = JoinDifficulty.doublingStep
        let allowance = JoinDifficulty.defaultAllowance
        #expect(JoinDifficulty.maxNumber(deckPressure: 0, networkPressure: 0, allowance: allowance) == base)
        // A hall of 500 on one network: 380 past the free budget, on the deck and on the network.
        #expect(JoinDifficulty.maxNumber(deckPressure: 380, networkPressure: 380, allowance: allowance) == base)
        let a = Double(allowance)
        #expect(JoinDifficulty.maxNumber(deckPressure: a + step, networkPressure: 0, allowance: allowance) == 2 * base)
        #expect(
            JoinDifficulty.maxNumber(deckPressure: a + 3 * step, networkPressure: 0, allowance: allowance) == 8 * base)
        #expect(
            JoinDifficulty.maxNumber(deckPressure: a + step, networkPressure: a + 2 * step, allowance: allowance)
                == 8 * base)
        // Half a step: the work rises smoothly, not in jumps.
        let half = JoinDifficulty.maxNumber(deckPressure: a + step / 2, networkPressure: 0, allowance: allowance)
        #expect(half > base && half < 2 * base, "\(half)")
        // A deck's expected people raise its allowance; never below the default.
        #expect(JoinDifficulty.allowance(expectedPeople: 2000) == 2000)
        #expect(JoinDifficulty.allowance(expectedPeople: 50) == allowance)
        #expect(JoinDifficulty.allowance(expectedPeople: nil) == allowance)
        #expect(JoinDifficulty.maxNumber(deckPressure: 1900, networkPressure: 1900, allowance: 2000) == base)
        // However high the pressure, the work stays a number the page holds exactly.
        #expect(
            JoinDifficulty.maxNumber(deckPressure: 1e9, networkPressure: 1e9, allowance: allowance)
                == JoinDifficulty.maxMaxNumber)
        #expect(JoinDifficulty.maxMaxNumber < 1 << 53)
    }

    @Test("a solution pays for a join while the work asked is at most 4× its own")
    func tolerance() {
        #expect(JoinDifficulty.accepts(solved: 12_000, required: 12_000))
        #expect(JoinDifficulty.accepts(solved: 12_000, required: 48_000))
        #expect(!JoinDifficulty.accepts(solved: 12_000, required: 48_001))
        #expect(JoinDifficulty.accepts(solved: 48_000, required: 12_000))
    }

    @Test("the hash is SHA-256 of the salt followed by the number in decimal, in lower-case hex")
    func hash() {
        #expect(
            JoinPuzzleSigner.hash(salt: "0123456789abcdef0123456789abcdef", number: 12345)
                == "6ecd8fe0c0f6e4474e20429af2ad37282bd1b48b19e0a82b6c9218c271f549d8")
    }

    @Test("an issued puzzle has a random salt, a challenge within its work, its times, and verifies once solved")
    func issueAndVerify() throws {
        let puzzle = signer.issue(deckId: 7, network: network, maxNumber: 500, now: fixedTime)
        #expect(puzzle.algorithm == "SHA-256" && puzzle.maxNumber == 500 && puzzle.number == nil)
        #expect(JoinPuzzleSigner.isHex(puzzle.salt, count: 32) && JoinPuzzleSigner.isHex(puzzle.signature, count: 64))
        #expect(puzzle.issuedMs == Int64(fixedTime * 1000))
        #expect(puzzle.expiresMs == puzzle.issuedMs + 600_000)
        #expect(signer.issue(deckId: 7, network: network, maxNumber: 500, now: fixedTime).salt != puzzle.salt)
        let solved = Self.solve(puzzle)
        #expect(solved.number != nil)
        #expect(refusal(solved) == nil)
        // Just before it expires it still verifies; after, never.
        #expect(refusal(solved, now: fixedTime + JoinPuzzle.lifetimeSeconds) == nil)
        #expect(refusal(solved, now: fixedTime + JoinPuzzle.lifetimeSeconds + 0.001) == .expired)
    }

    @Test("a wrong number, another deck, another network or an altered field is refused by its rule")
    func refusals() {
        let puzzle = signer.issue(deckId: 7, network: network, maxNumber: 100, now: fixedTime, number: 42)
        var solved = puzzle
        solved.number = 42
        #expect(refusal(solved) == nil)
        var wrong = solved
        wrong.number = 41
        #expect(refusal(wrong) == .unsolved)
        #expect(refusal(solved, deckId: 8) == .invalid)
        #expect(refusal(solved, network: "203.0.114.0/24") == .invalid)
        // Claiming less work, or more time, breaks the signature.
        var easier = solved
        easier.maxNumber = 50
        #expect(refusal(easier) == .invalid)
        var longer = solved
        longer.expiresMs += 3_600_000
        #expect(refusal(longer) == .invalid)
        // Another server's secret signs other puzzles.
        let foreign = JoinPuzzleSigner(secret: "another-secret-0123456789abcdef")
        var theirs = foreign.issue(deckId: 7, network: network, maxNumber: 100, now: fixedTime, number: 3)
        theirs.number = 3
        #expect(refusal(theirs) == .invalid)
    }

    @Test("a solution out of shape is malformed: no number, one beyond the work, a bad salt or algorithm")
    func malformed() {
        let puzzle = signer.issue(deckId: 7, network: network, maxNumber: 100, now: fixedTime, number: 5)
        #expect(refusal(puzzle) == .malformed)
        var beyond = puzzle
        beyond.number = 101
        #expect(refusal(beyond) == .malformed)
        var negative = puzzle
        negative.number = -1
        #expect(refusal(negative) == .malformed)
        var salted = puzzle
        salted.number = 5
        salted.salt = "XYZ"
        #expect(refusal(salted) == .malformed)
        var other = puzzle
        other.number = 5
        other.algorithm = "SHA-1"
        #expect(refusal(other) == .malformed)
        var zero = puzzle
        zero.number = 0
        zero.maxNumber = 0
        #expect(refusal(zero) == .malformed)
    }

    @Test("levels rise by what is added, drain at their rate and never go below 0")
    func levels() {
        let levels = MemoryLevels(drainPerSecond: 0.5)
        #expect(levels.levels(["a", "b"], now: 0) == [0, 0])
        levels.raise(["a", "b"], by: 1, now: 0)
        levels.raise(["a"], by: 1, now: 0)
        #expect(levels.levels(["a", "b"], now: 0) == [2, 1])
        #expect(levels.levels(["a", "b"], now: 1) == [1.5, 0.5])
        #expect(levels.levels(["a", "b"], now: 10) == [0, 0])
        levels.raise(["a"], by: 1, now: 10)
        #expect(levels.levels(["a"], now: 10) == [1])
        // A clock behind the level's drains nothing and adds as given.
        levels.raise(["a"], by: 1, now: 9)
        #expect(levels.levels(["a"], now: 10) == [2])
    }
}
