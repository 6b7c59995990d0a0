import Crypto
import Foundation

/// A proof of work a device pays to join a deck past the free join budget, in the manner of
/// ALTCHA: the server draws a secret number n from 0…`maxNumber`, publishes
/// `challenge` = hex SHA-256(`salt` + decimal n) and signs the whole; the device tries 0, 1, 2 …
/// until the hash matches and sends the puzzle back with `number`; the server checks the
/// signature and the hash — one HMAC and one SHA-256 — and that the salt was never used.
///
/// The signature (HMAC-SHA256 under the participant secret, `JoinPuzzleSigner`) binds the
/// puzzle to one deck and one client network (neither is in the JSON: a puzzle solved for
/// another deck, or fetched from another network, does not verify) and to its times.
public struct JoinPuzzle: Sendable, Codable, Equatable {
    /// Always `SHA-256`.
    public var algorithm: String
    /// Lower-case hex SHA-256 of `salt` followed by the secret number in decimal.
    public var challenge: String
    /// 32 lower-case hex digits (128 random bits): the puzzle's identity, used once.
    public var salt: String
    /// The secret number lies in 0…maxNumber (`JoinDifficulty`).
    public var maxNumber: Int
    /// When it was issued, milliseconds since 1970: the credential it earns counts as minted
    /// then (the page that showed the first card was served then).
    public var issuedMs: Int64
    /// After this (milliseconds since 1970) it earns nothing.
    public var expiresMs: Int64
    /// Lower-case hex HMAC-SHA256 over everything above, the deck and the network.
    public var signature: String
    /// The answer, in a solution; absent in a puzzle as issued.
    public var number: Int?

    /// How long a puzzle may be solved: 10 minutes (a phone put away and taken out again).
    public static let lifetimeSeconds: Double = 600
}

/// Why a presented solution earns no credential; the code names the rule.
public enum JoinPuzzleRefusal: String, Error, Sendable, Equatable {
    /// 400: fields missing or out of shape (salt, challenge, signature, numbers).
    case malformed = "puzzle_malformed"
    /// 403: not signed by this server for this deck and this client network.
    case invalid = "puzzle_invalid"
    /// 403: past its lifetime.
    case expired = "puzzle_expired"
    /// 422: the number does not hash to the challenge.
    case unsolved = "puzzle_unsolved"
    /// 409: the work asked rose beyond what this puzzle paid (`JoinDifficulty.tolerance`).
    case stale = "puzzle_stale"
    /// 409: this puzzle already earned a credential (on this server or another).
    case used = "puzzle_used"

    public var message: String {
        switch self {
        case .malformed:
            return
                "The puzzle needs algorithm, challenge, salt, maxNumber, issuedMs, expiresMs, signature and number as issued."
        case .invalid:
            return "This puzzle was not issued by this server for this deck and your network; get a new one."
        case .expired: return "This puzzle has expired; get a new one from POST /api/v1/decks/{deck}/puzzles."
        case .unsolved: return "This number does not solve the puzzle."
        case .stale:
            return "Many people joined since this puzzle was issued, so joining asks more work now; solve a new one."
        case .used: return "This puzzle was used already; get a new one."
        }
    }
}

/// Issues and checks `JoinPuzzle`s under a secret (the participant secret: every server on a
/// database has it, so a puzzle issued by one is checked by another).
public struct JoinPuzzleSigner: Sendable {
    private let secret: [UInt8]

    public init(secret: String) {
        self.secret = Array(secret.utf8)
    }

    /// A fresh puzzle of work `maxNumber` for deck `deckId` and client network `network`,
    /// issued at `now` (seconds since 1970). `number` fixes the secret number (tests); nil draws it.
    public func issue(deckId: Int64, network: String, maxNumber: Int, now: Double, number: Int? = nil) -> JoinPuzzle {
        var generator = SystemRandomNumberGenerator()
        let work = min(max(1, maxNumber), JoinDifficulty.maxMaxNumber)
        let secretNumber = number ?? Int(generator.next(upperBound: UInt64(work) + 1))
        let salt = Hex.string(generator.next() as UInt64, width: 16) + Hex.string(generator.next() as UInt64, width: 16)
        let issued = Int64((now * 1000).rounded(.down))
        var puzzle = JoinPuzzle(
            algorithm: "SHA-256", challenge: Self.hash(salt: salt, number: secretNumber), salt: salt, maxNumber: work,
            issuedMs: issued, expiresMs: issued + Int64(JoinPuzzle.lifetimeSeconds * 1000), signature: "", number: nil)
        puzzle.signature = signature(of: puzzle, deckId: deckId, network: network)
        return puzzle
    }

    /// Checks a solution for deck `deckId` presented from `network` at `now`: its shape, its
    /// signature (in constant time), its lifetime, then the hash. What no single server can
    /// check alone — that the work asked has not risen beyond it and that it was not used
    /// before — `JoinPuzzles` checks next.
    public func check(_ solution: JoinPuzzle, deckId: Int64, network: String, now: Double) throws(JoinPuzzleRefusal) {
        guard solution.algorithm == "SHA-256", Self.isHex(solution.salt, count: 32),
            Self.isHex(solution.challenge, count: 64), Self.isHex(solution.signature, count: 64),
            (1...JoinDifficulty.maxMaxNumber).contains(solution.maxNumber), let number = solution.number,
            (0...solution.maxNumber).contains(number)
        else { throw .malformed }
        guard Secret.constantTimeEqual(solution.signature, signature(of: solution, deckId: deckId, network: network))
        else { throw .invalid }
        guard Double(solution.expiresMs) / 1000 >= now else { throw .expired }
        guard Self.hash(salt: solution.salt, number: number) == solution.challenge else { throw .unsolved }
    }

    /// Lower-case hex SHA-256 of `salt` followed by `number` in decimal (what the device computes).
    public static func hash(salt: String, number: Int) -> String {
        Hex.string(SHA256.hash(data: Array((salt + String(number)).utf8)))
    }

    private func signature(of p: JoinPuzzle, deckId: Int64, network: String) -> String {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: secret))
        let signed =
            "puzzle:v1:\(p.salt):\(p.challenge):\(p.maxNumber):\(p.issuedMs):\(p.expiresMs):\(deckId):\(network)"
        hmac.update(data: Array(signed.utf8))
        return Hex.string(hmac.finalize())
    }

    static func isHex(_ s: String, count: Int) -> Bool {
        s.utf8.count == count && s.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
