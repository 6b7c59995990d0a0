/// A JSON number, or one of the strings `"NaN"`, `"Infinity"`, `"-Infinity"`.
struct LenientDouble: Decodable {
    var value: Double

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let d = try? c.decode(Double.self) {
            value = d
            return
        }
        switch try c.decode(String.self) {
        case "NaN": value = .nan
        case "Infinity", "+Infinity": value = .infinity
        case "-Infinity": value = -.infinity
        default:
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a number")
        }
    }
}
