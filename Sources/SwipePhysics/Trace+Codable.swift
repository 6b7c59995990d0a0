extension Trace: Codable {
    enum CodingKeys: String, CodingKey {
        case t, x, y, w, h, vw, vh, gx, gy, ox, oy
    }

    /// Decodes numbers, and also the strings `"NaN"`, `"Infinity"` and `"-Infinity"`, which
    /// JSON cannot spell as numbers. They decode to the IEEE values so that `validate` can
    /// reject them as `malformed` (a 422 naming the rule) instead of a generic parse error.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        t = try Self.numbers(c, .t)
        x = try Self.numbers(c, .x)
        y = try Self.numbers(c, .y)
        w = try c.decode(LenientDouble.self, forKey: .w).value
        h = try c.decode(LenientDouble.self, forKey: .h).value
        vw = try c.decode(LenientDouble.self, forKey: .vw).value
        vh = try c.decode(LenientDouble.self, forKey: .vh).value
        gx = try c.decode(LenientDouble.self, forKey: .gx).value
        gy = try c.decode(LenientDouble.self, forKey: .gy).value
        ox = try c.decodeIfPresent(LenientDouble.self, forKey: .ox)?.value
        oy = try c.decodeIfPresent(LenientDouble.self, forKey: .oy)?.value
    }

    /// An array of numbers: decoded as `[Double]` (the fast path for every real trace), and only
    /// when that fails element by element, allowing the NaN/Infinity strings.
    private static func numbers(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> [Double] {
        if let plain = try? c.decode([Double].self, forKey: key) { return plain }
        return try c.decode([LenientDouble].self, forKey: key).map(\.value)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(t, forKey: .t)
        try c.encode(x, forKey: .x)
        try c.encode(y, forKey: .y)
        try c.encode(w, forKey: .w)
        try c.encode(h, forKey: .h)
        try c.encode(vw, forKey: .vw)
        try c.encode(vh, forKey: .vh)
        try c.encode(gx, forKey: .gx)
        try c.encode(gy, forKey: .gy)
        try c.encodeIfPresent(ox, forKey: .ox)
        try c.encodeIfPresent(oy, forKey: .oy)
    }
}
