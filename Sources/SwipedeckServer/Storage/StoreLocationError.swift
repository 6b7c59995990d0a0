/// A database location that cannot be used, described as a sentence.
public struct StoreLocationError: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ description: String) { self.description = description }
}
