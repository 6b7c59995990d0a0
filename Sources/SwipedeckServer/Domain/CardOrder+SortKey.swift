extension CardOrder {
    /// The sort key of a card in a shuffled deck for one participant: FNV-1a of both, 0…2³¹-1.
    /// SQLite registers it as the SQL function `sd_shuffle_key` on every connection; PostgreSQL
    /// sorts in Swift.
    public static func shuffleKey(participant: String, cardId: Int64) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(participant.utf8) + withUnsafeBytes(of: cardId.littleEndian, Array.init) {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return Int((hash ^ (hash >> 31)) & 0x7FFF_FFFF)
    }

    /// The sort key of `card` in this order for the participant (the cursor after it). An adaptive
    /// deck's order changes with every vote, so its pages ignore the cursor (`Dealer`); its key is
    /// the shuffle key, its tie-break.
    public func sortKey(_ card: Card, participant: String?) -> Int {
        self == .listed ? card.position : Self.shuffleKey(participant: participant ?? "", cardId: card.id)
    }
}
