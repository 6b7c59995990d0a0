/// The Wilson score interval of a binomial proportion.
public struct WilsonInterval: Sendable, Hashable, Codable {
    public var lower: Double
    public var upper: Double

    /// Interval for `successes` out of `trials` at normal quantile `z` (1.959964 for 95 %).
    /// No trials gives [0, 1]: nothing is known.
    public init(successes: Int, trials: Int, z: Double = 1.959963984540054) {
        guard trials > 0 else {
            lower = 0
            upper = 1
            return
        }
        let n = Double(trials)
        let p = Double(successes) / n
        let z2 = z * z
        let centre = p + z2 / (2 * n)
        let spread = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        let denom = 1 + z2 / n
        lower = max(0, (centre - spread) / denom)
        upper = min(1, (centre + spread) / denom)
    }
}
