/// True when a trace is physically possible but machine-like: near-constant sample
/// intervals AND near-constant segment speed AND all points on a near-perfect straight line
/// (tolerances in `ValidationLimits`). Needs `suspectMinSamples` samples; fewer is never suspect.
///
/// Uses + − × ÷, `sqrt` and comparisons only, mirrored by `isSuspect` in `physics.js`.
public func isSuspect(_ tr: Trace, limits: ValidationLimits) -> Bool {
    let n = tr.t.count
    if n < limits.suspectMinSamples || n <= 2 { return false }
    let segments = Double(n - 1)
    let meanDt = (tr.t[n - 1] - tr.t[0]) / segments
    if !(meanDt > 0) { return false }
    var speedSum = 0.0
    for i in 1..<n {
        let dt = tr.t[i] - tr.t[i - 1]
        let dev = dt - meanDt
        if (dev < 0 ? -dev : dev) > limits.suspectIntervalTolerance * meanDt { return false }
        let dx = tr.x[i] - tr.x[i - 1]
        let dy = tr.y[i] - tr.y[i - 1]
        speedSum += (dx * dx + dy * dy).squareRoot() / dt
    }
    let meanSpeed = speedSum / segments
    if !(meanSpeed > 0) { return false }
    for i in 1..<n {
        let dt = tr.t[i] - tr.t[i - 1]
        let dx = tr.x[i] - tr.x[i - 1]
        let dy = tr.y[i] - tr.y[i - 1]
        let dev = (dx * dx + dy * dy).squareRoot() / dt - meanSpeed
        if (dev < 0 ? -dev : dev) > limits.suspectSpeedTolerance * meanSpeed { return false }
    }
    // Distance from the first-to-last line, compared squared: |cross| / len <= tol.
    let lx = tr.x[n - 1] - tr.x[0]
    let ly = tr.y[n - 1] - tr.y[0]
    let len2 = lx * lx + ly * ly
    let tol = limits.suspectLineTolerancePx
    for i in 1..<(n - 1) {
        let cross = lx * (tr.y[i] - tr.y[0]) - ly * (tr.x[i] - tr.x[0])
        if cross * cross > tol * tol * len2 { return false }
    }
    return true
}
