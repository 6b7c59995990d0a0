extension Classification {
    /// The `swipedeck classify` output line, keys in the documented order
    /// (`decision`, `velocity`, `progress`, `rejection`, `suspect`); numbers in Swift's shortest
    /// round-trip form, so a reader gets the exact doubles back.
    public var jsonLine: String {
        func num(_ d: Double) -> String { d.isFinite ? "\(d)" : "null" }
        let rejection = self.rejection.map { "\"\($0.rawValue)\"" } ?? "null"
        return
            "{\"decision\":\"\(decision.rawValue)\",\"velocity\":{\"x\":\(num(velocity.x)),\"y\":\(num(velocity.y))},"
            + "\"progress\":\(num(progress)),\"rejection\":\(rejection),\"suspect\":\(suspect)}"
    }
}
