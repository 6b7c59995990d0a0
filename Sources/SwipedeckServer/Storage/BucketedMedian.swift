/// The exact median of values counted in buckets that order like the values (the decision-time
/// aggregates, `SwipeAggregates`): the buckets' counts locate the middle rank(s), then the values
/// of one bucket give them. Each engine fetches the counts; this decides, so both agree.
struct BucketedMedian {
    /// (bucket, count) in bucket order, counts > 0.
    let buckets: [(bucket: Int64, n: Int)]

    /// The 0-based ranks of the middle values: one for an odd total, two for an even one, none
    /// when nothing is counted.
    var middleRanks: [Int] {
        let total = buckets.reduce(0) { $0 + $1.n }
        if total == 0 { return [] }
        return total % 2 == 0 ? [total / 2 - 1, total / 2] : [(total - 1) / 2]
    }

    /// The bucket holding `rank`, and how many values lie in the buckets before it.
    func locate(_ rank: Int) -> (bucket: Int64, before: Int)? {
        var before = 0
        for b in buckets {
            if rank < before + b.n { return (b.bucket, before) }
            before += b.n
        }
        return nil
    }

    /// The value at `rank` among one bucket's (value, count) pairs in value order, `before`
    /// values lying in earlier buckets; nil when the bucket holds fewer.
    static func value(at rank: Int, before: Int, in values: [(value: Double, n: Int)]) -> Double? {
        var seen = before
        for v in values {
            seen += v.n
            if rank < seen { return v.value }
        }
        return nil
    }

    /// The mean of the middle values (the median of an even count), nil for none.
    static func mean(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }
}
