import Foundation
import SwipePhysics

@testable import SwipedeckServer

/// Crowds for `LockstepClusters`, honest and fake, as the server would store them: every vote with
/// its arrival time, the page's decision time, and a drag whose trace went through the physics
/// (its duration and release speed as the swipe path stores them).
///
/// The honest crowd is modelled as hard as the attacker: one /24, one burst of joins, paces of at
/// least 1.5 s a card with jitter, human-shaped drags, and cards most people decide alike. What
/// makes it human is what people carry: each keeps their own phone (card and viewport size, frame
/// rate), their own hand (how long and how far they drag) and their own pace, and varies around
/// them from card to card. A program's identities draw every swipe from one distribution.
struct CrowdSimulation {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// A standard normal draw (Box–Muller).
    mutating func normal() -> Double {
        let u = max(rng.unit(), 1e-12)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * rng.unit())
    }

    /// e^(σ·N(0,1)): a multiplicative jitter of spread `sigma`.
    mutating func jitter(_ sigma: Double) -> Double { exp(sigma * normal()) }

    /// How one hand drags on one phone.
    struct Hand {
        var w: Double
        var h: Double
        var vw: Double
        var vh: Double
        /// Milliseconds between pointer events.
        var frame: Double
        /// Typical drag duration, ms, and reach as a share of the card's width.
        var duration: Double
        var reach: Double
        /// Spread of duration and reach from swipe to swipe.
        var spread: Double
    }

    /// A person's phone and hand.
    mutating func personalHand() -> Hand {
        let w = rng.uniform(300, 400)
        let h = w * rng.uniform(1.3, 1.5)
        return Hand(
            w: w, h: h, vw: w + rng.uniform(10, 60), vh: h + rng.uniform(200, 400),
            frame: [1000.0 / 60, 1000.0 / 120, 1000.0 / 90][Int(rng.next() % 3)], duration: rng.uniform(150, 650),
            reach: rng.uniform(0.45, 1.1), spread: 0.25)
    }

    /// One program's drags: every swipe drawn from the same wide distribution (the human trace
    /// generator of the physics tests, which no single person is).
    mutating func generatorHand() -> Hand {
        let w = rng.uniform(300, 400)
        let h = w * rng.uniform(1.3, 1.5)
        return Hand(
            w: w, h: h, vw: w + rng.uniform(10, 60), vh: h + rng.uniform(200, 400),
            frame: [1000.0 / 60, 1000.0 / 120, 1000.0 / 90][Int(rng.next() % 3)], duration: rng.uniform(150, 650),
            reach: rng.uniform(0.45, 1.1), spread: 0.05)
    }

    /// A human-shaped throw (minimum-jerk path, a slight bow, jittered pointer events) that the
    /// standard profile judges `direction`: (duration ms, release speed px/ms).
    mutating func drag(_ direction: Decision, hand: Hand) -> (durationMs: Double, speed: Double) {
        for attempt in 0..<40 {
            let duration = hand.duration * jitter(hand.spread) * (attempt > 10 ? 0.6 : 1)
            let length = hand.w * hand.reach * jitter(hand.spread) * (attempt > 10 ? 1.5 : 1)
            let angle = rng.uniform(-0.25, 0.25) + (direction == .left ? Double.pi : 0)
            let bow = rng.uniform(0.02, 0.1) * (rng.unit() < 0.5 ? 1 : -1)
            let (ex, ey) = (cos(angle) * length, sin(angle) * length)
            let (nx, ny) = (-sin(angle), cos(angle))
            var t: [Double] = []
            var x: [Double] = []
            var y: [Double] = []
            var now = hand.frame * rng.uniform(0.2, 1)
            while now < duration {
                let tau = min(now / duration, 1)
                let s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau)
                let side = bow * length * sin(Double.pi * s)
                t.append(now)
                x.append(ex * s + nx * side + rng.uniform(-0.3, 0.3))
                y.append(ey * s + ny * side + rng.uniform(-0.3, 0.3))
                now += hand.frame * rng.uniform(0.8, 1.2)
            }
            let trace = Trace(
                t: t, x: x, y: y, w: hand.w, h: hand.h, vw: hand.vw, vh: hand.vh, gx: hand.w / 2, gy: hand.h * 0.6)
            let c = Classification.of(trace, claimed: direction, profile: .standard)
            if c.rejection == nil, !c.suspect {
                return (t.last ?? duration, (c.velocity.x * c.velocity.x + c.velocity.y * c.velocity.y).squareRoot())
            }
        }
        fatalError("no throw \(direction) for \(hand)")
    }

    /// What a crowd likes: each card's like rate.
    enum Taste {
        /// Each card's rate drawn in [0.05, 0.95]; everybody shares them.
        case consensus
        /// One-sided cards only: rates in [0.05, 0.15] or [0.85, 0.95].
        case oneSided
        /// Rates in [0.3, 0.7].
        case mixed
        /// Two camps of equal size: one likes the even cards at 0.9 and the odd at 0.1, the other the reverse.
        case polarised
    }

    /// `n` honest people of `network` joining within `joinSpread` seconds of `start`, each deciding
    /// every card of `cards` (in the deck's order) by `taste`.
    mutating func honest(
        _ prefix: String, _ n: Int, network: String, cards: [Int64], taste: Taste, start: Double = 1_000_000,
        joinSpread: Double = 10
    ) -> [LockstepClusters.Member] {
        let rates: [Double] = cards.map { _ in
            switch taste {
            case .consensus: return rng.uniform(0.05, 0.95)
            case .oneSided: return rng.unit() < 0.5 ? rng.uniform(0.05, 0.15) : rng.uniform(0.85, 0.95)
            case .mixed: return rng.uniform(0.3, 0.7)
            case .polarised: return 0.9
            }
        }
        return (0..<n).map { i in
            let hand = personalHand()
            // At least 1.5 s a card: a personal pace above it, and card-to-card jitter.
            let pace = exp(log(1.5) + 0.5 * normal())
            let look = exp(log(2500) + 0.3 * normal())
            let bias = rng.uniform(-0.05, 0.05)
            let joined = start + rng.uniform(0, joinSpread)
            var at = joined
            var votes: [LockstepClusters.Vote] = []
            for (k, card) in cards.enumerated() {
                at += 1.5 + pace * jitter(0.4)
                var rate = rates[k]
                if taste == .polarised { rate = (k % 2 == i % 2) ? 0.9 : 0.1 }
                let like = rng.unit() < min(max(rate + bias, 0), 1)
                let d = drag(like ? .right : .left, hand: hand)
                votes.append(
                    LockstepClusters.Vote(
                        card: card, direction: like ? "right" : "left", at: at, decisionMs: look * jitter(0.4),
                        durationMs: d.durationMs, speed: d.speed))
            }
            return LockstepClusters.Member(id: "\(prefix)\(i)", network: network, joinedAt: joined, votes: votes)
        }
    }

    /// Attack (a): identities minted as fast as the join budget allows (120 at once, then 2 a
    /// second), each sending one batch deciding every card `direction` (the server stores a batch
    /// within milliseconds), with human-shaped drags from one generator.
    mutating func lockstepBatches(
        _ prefix: String, _ n: Int, network: String, cards: [Int64], direction: Decision = .right,
        start: Double = 1_000_000
    ) -> [LockstepClusters.Member] {
        (0..<n).map { i in
            let joined = start + (i < 120 ? Double(i) * 0.005 : 0.6 + Double(i - 120) * 0.5)
            var at = joined + 0.05
            let votes = cards.map { card -> LockstepClusters.Vote in
                at += rng.uniform(0.0005, 0.002)
                let d = drag(direction, hand: generatorHand())
                return LockstepClusters.Vote(
                    card: card, direction: direction.rawValue, at: at, decisionMs: rng.uniform(400, 1500),
                    durationMs: d.durationMs, speed: d.speed)
            }
            return LockstepClusters.Member(id: "\(prefix)\(i)", network: network, joinedAt: joined, votes: votes)
        }
    }

    /// Attack (b): identities that each decide every card `direction` at a human pace (1.5–4 s a
    /// card, jittered), with human-shaped drags from one generator and decision times drawn as
    /// people's are — but drawn afresh for every swipe, as one program does.
    mutating func pacedIdentical(
        _ prefix: String, _ n: Int, network: String, cards: [Int64], direction: Decision = .right,
        start: Double = 1_000_000, joinSpread: Double = 10
    ) -> [LockstepClusters.Member] {
        (0..<n).map { i in
            let joined = start + rng.uniform(0, joinSpread)
            var at = joined
            let votes = cards.map { card -> LockstepClusters.Vote in
                at += 1.5 + 1.5 * jitter(0.6)
                let d = drag(direction, hand: generatorHand())
                return LockstepClusters.Vote(
                    card: card, direction: direction.rawValue, at: at, decisionMs: exp(log(2500) + 0.5 * normal()),
                    durationMs: d.durationMs, speed: d.speed)
            }
            return LockstepClusters.Member(id: "\(prefix)\(i)", network: network, joinedAt: joined, votes: votes)
        }
    }

    /// Identities that decide at a fixed rhythm (`every` seconds, within a few milliseconds).
    mutating func clockwork(
        _ prefix: String, _ n: Int, network: String, cards: [Int64], every: Double, start: Double = 1_000_000
    ) -> [LockstepClusters.Member] {
        (0..<n).map { i in
            let joined = start + Double(i)
            var at = joined
            let votes = cards.map { card -> LockstepClusters.Vote in
                at += every + rng.uniform(-0.01, 0.01)
                let like = rng.unit() < 0.5
                return LockstepClusters.Vote(card: card, direction: like ? "right" : "left", at: at, decisionMs: 900)
            }
            return LockstepClusters.Member(id: "\(prefix)\(i)", network: network, joinedAt: joined, votes: votes)
        }
    }
}

extension [LockstepClusters.Member] {
    /// The share of these members' decisions that stay counted once `clusters` that exclude are
    /// left out.
    func countedShare(_ clusters: [LockstepClusters.Cluster]) -> Double {
        let out = Set(clusters.filter(\.excludes).flatMap(\.members))
        let all = reduce(0) { $0 + $1.votes.count }
        let kept = filter { !out.contains($0.id) }.reduce(0) { $0 + $1.votes.count }
        return all == 0 ? 1 : Double(kept) / Double(all)
    }
}
