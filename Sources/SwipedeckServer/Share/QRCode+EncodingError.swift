extension QRCode {
    /// Why a text could not be encoded.
    public enum EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The text's UTF-8 form (`byteCount` bytes) exceeds what the largest symbol, version 40,
        /// holds in byte mode at `correction` (`maximumByteCount`: 2,953 at L, 2,331 at M,
        /// 1,663 at Q, 1,273 at H).
        case textTooLong(byteCount: Int, maximumByteCount: Int, correction: Correction)

        public var description: String {
            switch self {
            case .textTooLong(let byteCount, let maximumByteCount, let correction):
                "The text is \(byteCount) bytes of UTF-8, but a QR code at error-correction level "
                    + "\(correction.letter) holds at most \(maximumByteCount) bytes."
            }
        }
    }
}
