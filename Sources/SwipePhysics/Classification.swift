import Foundation

/// One output line of `swipedeck classify` and the return value of `Classification.of` in `physics.js`.
///
/// A trace that breaks a shape rule reports `decision: none`, zero velocity and progress, and the
/// rule in `rejection`. A trace whose claim disagrees still reports the model's own decision.
public struct Classification: Sendable, Hashable, Codable {
    public var decision: Decision
    public var velocity: Velocity
    public var progress: Double
    public var rejection: SwipeRejection?
    public var suspect: Bool

    public init(decision: Decision, velocity: Velocity, progress: Double, rejection: SwipeRejection?, suspect: Bool) {
        self.decision = decision
        self.velocity = velocity
        self.progress = progress
        self.rejection = rejection
        self.suspect = suspect
    }

    enum CodingKeys: String, CodingKey { case decision, velocity, progress, rejection, suspect }

    /// Always writes `rejection`, as `null` when there is none (the line format is fixed).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(decision, forKey: .decision)
        try c.encode(velocity, forKey: .velocity)
        try c.encode(progress, forKey: .progress)
        try c.encode(rejection, forKey: .rejection)
        try c.encode(suspect, forKey: .suspect)
    }

    /// A line that could not be understood.
    public static let malformed = Classification(
        decision: .none, velocity: .zero, progress: 0, rejection: .malformed, suspect: false)

    /// Classifies a trace under a profile, with an optional claim.
    public static func of(_ trace: Trace, claimed: Decision?, profile: SwipeProfile) -> Classification {
        do throws(SwipeRejection) {
            try checkTrace(trace, limits: profile.limits)
        } catch {
            return Classification(decision: .none, velocity: .zero, progress: 0, rejection: error, suspect: false)
        }
        let v = judge(trace, profile: profile)
        var rejection: SwipeRejection?
        if let claimed, claimed != v.decision {
            rejection = v.decision == .none ? .notAThrow : .decisionMismatch
        }
        return Classification(
            decision: v.decision, velocity: v.velocity, progress: v.progress, rejection: rejection, suspect: v.suspect)
    }

    /// One input line: `{"trace":{…},"claimed":"right"}` (`claimed` optional).
    struct Line: Decodable {
        var trace: Trace
        var claimed: Decision?
    }

    /// Classifies one JSON Lines input line; anything unreadable is `malformed`.
    public static func of(line: some DataProtocol, profile: SwipeProfile) -> Classification {
        guard let parsed = try? JSONDecoder().decode(Line.self, from: Data(line)) else { return .malformed }
        return of(parsed.trace, claimed: parsed.claimed, profile: profile)
    }
}
