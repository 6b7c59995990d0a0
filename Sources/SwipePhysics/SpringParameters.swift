/// A damped spring described the way designers tune it (SwiftUI's `response` and
/// `dampingFraction`), with mass 1.
///
/// Stiffness k = (2π / response)², damping c = 4π · dampingRatio / response.
public struct SpringParameters: Sendable, Hashable, Codable {
    /// Period of the undamped oscillation, ms. Must be > 0.
    public var responseMs: Double
    /// ζ: < 1 under-damped (overshoots), 1 critical, > 1 over-damped. Must be > 0.
    public var dampingRatio: Double

    public init(responseMs: Double, dampingRatio: Double) {
        self.responseMs = responseMs
        self.dampingRatio = dampingRatio
    }
}
