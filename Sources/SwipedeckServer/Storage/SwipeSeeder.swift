import Foundation
import SwipePhysics

/// The documented fast path for benchmarks (`swipedeck seed`): stores many valid drag swipes
/// into a deck without HTTP, exactly as the API would store them. Each swipe gets a signed
/// participant id, a fresh idempotency key, a realistic 30–60 sample trace that the deck's
/// profile validates (velocity, duration and suspect flag come from `validate`, as in
/// `SwipeService`), and goes through `SwipeStore.writeSwipes`: the same checks, trace encoding
/// and aggregate updates as a live swipe, in transactions of `batch` swipes, on either engine.
///
/// Participants swipe the deck's cards in order, one swipe per card each, so the
/// one-live-swipe rule holds. Deterministic for a given `seed`, `run` and `now`.
public struct SwipeSeeder: Sendable {
    public let store: any Store
    public let signer: ParticipantSigner

    public init(store: any Store, signer: ParticipantSigner) {
        self.store = store
        self.signer = signer
    }

    /// Stores `count` swipes in the deck `slug`; returns how many were created (refusals, e.g. a
    /// participant body used before, are counted out). `now` is the first swipe's time (seconds
    /// since 1970); swipes are 1 ms apart.
    public func seed(
        slug: String, count: Int, run: String = "seed", seed: UInt64 = 7, batch: Int = 5_000, now: Double,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> Int {
        guard let deck = try await store.deck(slug: slug) else { throw StoreError.notFound(.deck) }
        let deckId = deck.id
        let cards = try await store.allCards(deckId: deckId).filter { $0.archivedAt == nil }.map(\.id)
        guard !cards.isEmpty else { throw StoreError.notFound(.card) }
        var rng = SplitMix64(seed: seed)
        let runTag = UInt64(truncatingIfNeeded: run.utf8.reduce(UInt64(5381)) { $0 &* 33 &+ UInt64($1) }) & 0xFFFF
        let profile = deck.swipeProfile
        var created = 0
        var done = 0
        while done < count {
            let size = min(batch, count - done)
            var items: [SwipeWriter.Item] = []
            items.reserveCapacity(size)
            for i in done..<(done + size) {
                let right = rng.next() % 2 == 0
                let trace = Self.trace(right: right, rng: &rng)
                let direction: Decision = right ? .right : .left
                // A generated trace the physics refuses is skipped: the seeder stores valid swipes only,
                // and which rule refused it does not matter here.
                guard let verdict = try? validate(trace, claimed: direction, profile: profile) else { continue }
                // A stored identity as a browser's credential gives (33 characters), so rows and
                // indexes are as large as real ones; the participant's number and the run's hash
                // stand in for the credential's random part.
                let credential = ParticipantCredential(
                    scope: .device, mintedAt: now,
                    body: String(format: "s%04llx%016llx", runTag, UInt64(i / cards.count)))
                guard let participant = signer.identity(of: credential, deckId: deckId)?.id else { continue }
                let request = SwipeRequest(
                    card: cards[i % cards.count], direction: direction.rawValue, input: SwipeInput.drag.rawValue,
                    trace: trace,
                    decisionMs: Double(300 + (i &* 7919) % 4700))
                var swipe = Swipe(
                    id: "\(run)-\(i)", deckId: deckId, cardId: cards[i % cards.count], participantId: participant,
                    direction: direction, input: .drag, trace: nil,
                    velocityX: verdict.velocity.x, velocityY: verdict.velocity.y, durationMs: trace.t.last,
                    decisionMs: request.decisionMs, suspect: verdict.suspect,
                    requestHash: SwipeFingerprint.of(request, deck: slug, participant: participant),
                    createdAt: now + Double(i) / 1000, undoneAt: nil)
                swipe.suspectReason = verdict.suspect ? SuspectReason.machineLikeTrace.rawValue : nil
                swipe.traceData = Data(TraceCodec.encode(trace))
                items.append(.swipe(swipe, quota: deck.quota))
            }
            for outcome in try await store.writeSwipes(items) {
                if case .created = outcome { created += 1 }
            }
            done += size
            progress?(done)
        }
        store.changes.mark(deckId)
        return created
    }

    /// A drag like `scripts/bench_swipes.lua` makes: eased motion along x with jitter, uneven
    /// sample intervals (12–20 ms), numbers with two decimals as the wrk script writes them.
    static func trace(right: Bool, rng: inout SplitMix64) -> Trace {
        func unit() -> Double { rng.unit() }
        func twoDecimals(_ v: Double) -> Double { Double(String(format: "%.2f", v)) ?? v }
        let count = 30 + Int(rng.next() % 31)
        let sign: Double = right ? 1 : -1
        let reach = (0.5 + unit() * 0.4) * 320
        let drift = (unit() - 0.5) * 60
        var t: [Double] = []
        var x: [Double] = []
        var y: [Double] = []
        var now = unit() * 4
        for i in 1...count {
            let p = Double(i) / Double(count)
            let ease = p * p * (3 - 2 * p)
            t.append(twoDecimals(now))
            x.append(twoDecimals(sign * reach * ease + (unit() - 0.5) * 1.2))
            y.append(twoDecimals(drift * ease + (unit() - 0.5) * 1.2))
            now += 12 + unit() * 8
        }
        return Trace(
            t: t, x: x, y: y, w: 320, h: 440, vw: 390, vh: 844,
            gx: twoDecimals(40 + unit() * 240), gy: twoDecimals(60 + unit() * 320))
    }
}
