/// Arithmetic in GF(2⁸), the field QR code error correction works in: bytes are polynomials over
/// GF(2) reduced modulo x⁸ + x⁴ + x³ + x² + 1 (0x11D), and α = 2 generates every non-zero element.
/// Addition and subtraction are both XOR.
enum GaloisField256 {
    /// αⁱ for i in 0..<510: the 255 powers twice over, so a sum of two logarithms indexes it without a modulo.
    private static let powers: [UInt8] = tables.powers
    /// The exponent i with αⁱ = value, for value in 1...255; entry 0 is unused (0 has no logarithm).
    private static let logarithms: [UInt8] = tables.logarithms

    private static let tables: (powers: [UInt8], logarithms: [UInt8]) = {
        var powers = [UInt8](repeating: 0, count: 510)
        var logarithms = [UInt8](repeating: 0, count: 256)
        var value = 1
        for exponent in 0..<255 {
            powers[exponent] = UInt8(value)
            powers[exponent + 255] = UInt8(value)
            logarithms[value] = UInt8(exponent)
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        return (powers, logarithms)
    }()

    /// αⁿ for any n ≥ 0.
    static func power(_ exponent: Int) -> UInt8 {
        powers[exponent % 255]
    }

    /// The field product of `a` and `b`.
    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        if a == 0 || b == 0 { return 0 }
        return powers[Int(logarithms[Int(a)]) + Int(logarithms[Int(b)])]
    }
}
