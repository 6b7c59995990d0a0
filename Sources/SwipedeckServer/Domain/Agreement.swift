import SwipePhysics

/// Agreement between the people who labelled the same cards: Fleiss' κ, Krippendorff's α
/// (nominal) and each card's share of agreeing pairs, from a table of counts (one row per card,
/// one column per category: how many people put the card in that category).
///
/// Pure and exact: the same table gives the same numbers on every server, and the reference test
/// (`Tests/System/test_agreement_reference.py`) checks them against statsmodels' `fleiss_kappa`
/// and the `krippendorff` package to 1e-9.
public enum Agreement {
    /// Fleiss' κ (Fleiss 1971, "Measuring nominal scale agreement among many raters",
    /// Psychological Bulletin 76(5):378–382):
    ///
    ///     P_i = (Σ_j n_ij² − n) / (n (n − 1))      P̄ = mean_i P_i
    ///     p_j = Σ_i n_ij / (N n)                    P̄_e = Σ_j p_j²
    ///     κ = (P̄ − P̄_e) / (1 − P̄_e)
    ///
    /// The formula needs the same number of ratings n on every card; a deck's cards are rated by
    /// different numbers of people, so κ is computed over the cards rated by the **modal** count
    /// (the count most cards have; a tie goes to the larger count), and `FleissKappa.cards` says
    /// how many that was. Cards with fewer than 2 ratings never enter. Nil when fewer than 2
    /// cards qualify or P̄_e = 1 (everyone used one category: κ is undefined).
    public static func fleissKappa(_ table: [[Int]]) -> FleissKappa? {
        let rated = table.filter { $0.reduce(0, +) >= 2 }
        var cardsByCount: [Int: Int] = [:]
        for row in rated { cardsByCount[row.reduce(0, +), default: 0] += 1 }
        guard let modal = cardsByCount.max(by: { ($0.value, $0.key) < ($1.value, $1.key) })?.key else { return nil }
        let rows = rated.filter { $0.reduce(0, +) == modal }
        guard rows.count >= 2, let kappa = fleissKappa(equalRows: rows, raters: modal) else { return nil }
        return FleissKappa(value: kappa, cards: rows.count, raters: modal)
    }

    /// κ over rows that each sum to `raters` (see `fleissKappa(_:)`).
    static func fleissKappa(equalRows rows: [[Int]], raters n: Int) -> Double? {
        let categories = rows.first?.count ?? 0
        var columnTotals = [Double](repeating: 0, count: categories)
        var pSum = 0.0
        let nd = Double(n)
        for row in rows {
            var squares = 0.0
            for (j, count) in row.enumerated() {
                squares += Double(count * count)
                columnTotals[j] += Double(count)
            }
            pSum += (squares - nd) / (nd * (nd - 1))
        }
        let total = Double(rows.count) * nd
        let pMean = pSum / Double(rows.count)
        let pExpected = columnTotals.reduce(0) { $0 + ($1 / total) * ($1 / total) }
        guard pExpected < 1 else { return nil }
        return (pMean - pExpected) / (1 - pExpected)
    }

    /// Krippendorff's α for nominal data (Krippendorff 2011, "Computing Krippendorff's
    /// Alpha-Reliability", Annenberg School for Communication, sections B and C), which takes any
    /// number of ratings per card. With m_u the ratings of card u (cards with m_u < 2 are not
    /// pairable and left out), the coincidences and totals are
    ///
    ///     o_ck = Σ_u n_uc (n_uk − [c = k]) / (m_u − 1)      n_c = Σ_k o_ck      n = Σ_c n_c
    ///     α = 1 − (n − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k
    ///
    /// Nil when no card is pairable or every pairable rating is one category (the expected
    /// disagreement is 0: α is undefined).
    public static func krippendorffAlpha(_ table: [[Int]]) -> Double? {
        let categories = table.first?.count ?? 0
        var coincidences = [[Double]](repeating: [Double](repeating: 0, count: categories), count: categories)
        for row in table {
            let m = row.reduce(0, +)
            guard m >= 2 else { continue }
            let weight = 1 / Double(m - 1)
            for c in 0..<categories where row[c] > 0 {
                for k in 0..<categories {
                    let pairs = row[c] * (row[k] - (c == k ? 1 : 0))
                    coincidences[c][k] += Double(pairs) * weight
                }
            }
        }
        let marginals = coincidences.map { $0.reduce(0, +) }
        let n = marginals.reduce(0, +)
        var observed = 0.0
        var expected = 0.0
        for c in 0..<categories {
            for k in 0..<categories where k != c {
                observed += coincidences[c][k]
                expected += marginals[c] * marginals[k]
            }
        }
        guard n > 1, expected > 0 else { return nil }
        return 1 - (n - 1) * observed / expected
    }

    /// A card's share of agreeing pairs among its ratings, Σ_j n_j (n_j − 1) / (m (m − 1))
    /// (Fleiss' P_i for that card's own m): 1 when everyone agreed. Nil under 2 ratings.
    public static func cardAgreement(_ row: [Int]) -> Double? {
        let m = row.reduce(0, +)
        guard m >= 2 else { return nil }
        let agreeing = row.reduce(0) { $0 + $1 * ($1 - 1) }
        return Double(agreeing) / Double(m * (m - 1))
    }

    /// How many times the bootstrap resamples the cards (`interval`): 1,000, enough for a 95 %
    /// percentile interval to be stable to about ±0.01 while a deck of 1,000 cards stays under a
    /// second of work.
    public static let bootstrapResamples = 1000

    /// The bootstrap's seed: fixed, so the same table always shows the same interval (SplitMix64).
    public static let bootstrapSeed: UInt64 = 0x5157_4454_2900_0029

    /// The 95 % bootstrap interval of `statistic` over `table`: the cards are resampled with
    /// replacement `resamples` times (seeded SplitMix64, `seed`), the statistic computed on each
    /// resample (resamples where it is undefined are skipped), and the 2.5th and 97.5th
    /// percentiles of those values taken, by linear interpolation between order statistics
    /// (Hyndman & Fan's type 7, numpy's default). Nil when fewer than 2 cards or fewer than 20
    /// resamples gave a value.
    public static func interval(
        of statistic: ([[Int]]) -> Double?, over table: [[Int]], resamples: Int = bootstrapResamples,
        seed: UInt64 = bootstrapSeed
    ) -> ConfidenceRange? {
        guard table.count >= 2 else { return nil }
        var random = SplitMix64(seed: seed)
        var values: [Double] = []
        values.reserveCapacity(resamples)
        var sample = table
        for _ in 0..<resamples {
            for i in sample.indices { sample[i] = table[Int(random.next() % UInt64(table.count))] }
            if let v = statistic(sample) { values.append(v) }
        }
        guard values.count >= 20 else { return nil }
        values.sort()
        return ConfidenceRange(lower: percentile(values, 0.025), upper: percentile(values, 0.975))
    }

    /// The `q` quantile of sorted `values` (type 7: h = (count − 1) q, interpolated).
    static func percentile(_ values: [Double], _ q: Double) -> Double {
        let h = Double(values.count - 1) * q
        let below = Int(h.rounded(.down))
        let above = min(below + 1, values.count - 1)
        return values[below] + (h - Double(below)) * (values[above] - values[below])
    }

    /// The counts table of `ratings` (card → the categories its raters chose), one row per card
    /// in `cards`' order and one column per category in `categories`' order; a rating naming no
    /// listed category is not counted.
    public static func table<Category: Hashable>(
        _ ratings: [Int64: [Category]], cards: [Int64], categories: [Category]
    ) -> [[Int]] {
        let column = Dictionary(uniqueKeysWithValues: categories.enumerated().map { ($1, $0) })
        return cards.map { card in
            var row = [Int](repeating: 0, count: categories.count)
            for rating in ratings[card] ?? [] {
                if let j = column[rating] { row[j] += 1 }
            }
            return row
        }
    }
}

/// Fleiss' κ and what it was computed over (`Agreement.fleissKappa`).
public struct FleissKappa: Sendable, Hashable, Codable {
    public var value: Double
    /// Cards rated by the modal number of people: the ones κ is computed over.
    public var cards: Int
    /// That number of ratings per card.
    public var raters: Int
}

/// A 95 % interval of a statistic (the bootstrap's; see `Agreement.interval`).
public struct ConfidenceRange: Sendable, Hashable, Codable {
    public var lower: Double
    public var upper: Double
}
