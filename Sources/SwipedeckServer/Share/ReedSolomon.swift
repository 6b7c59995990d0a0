/// A systematic Reed–Solomon encoder over GF(256) as QR codes use it: the generator polynomial is
/// (x − α⁰)(x − α¹)…(x − α^(degree−1)), and a block's error-correction codewords are the remainder of
/// data(x)·x^degree divided by it, highest power first.
struct ReedSolomon: Sendable {
    /// Number of error-correction codewords produced per block (7…30 in QR codes).
    let degree: Int
    /// The generator's coefficients after its leading 1, highest power first (`degree` of them).
    private let generator: [UInt8]

    init(degree: Int) {
        precondition(degree >= 1 && degree <= 254, "Reed–Solomon degree must be 1…254")
        self.degree = degree
        var product: [UInt8] = [1]
        for root in 0..<degree {
            // Multiply by (x + αʳ): in GF(2⁸) minus and plus are the same operation.
            var next = [UInt8](repeating: 0, count: product.count + 1)
            for (index, coefficient) in product.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= GaloisField256.multiply(coefficient, GaloisField256.power(root))
            }
            product = next
        }
        generator = Array(product.dropFirst())
    }

    /// The `degree` error-correction codewords for one block of data codewords.
    func errorCorrection(for data: [UInt8]) -> [UInt8] {
        // Polynomial long division, keeping only the running remainder (a shift register).
        var remainder = [UInt8](repeating: 0, count: degree)
        for byte in data {
            let factor = byte ^ remainder[0]
            remainder.removeFirst()
            remainder.append(0)
            for index in 0..<degree {
                remainder[index] ^= GaloisField256.multiply(generator[index], factor)
            }
        }
        return remainder
    }
}
