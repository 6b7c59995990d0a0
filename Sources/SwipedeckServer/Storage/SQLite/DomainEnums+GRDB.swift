import GRDB
import SwipePhysics

// The domain's enums as SQLite columns: each is stored as its raw value (the text the columns
// held before they were typed), and a text naming no case fails the read with GRDB's decoding
// error instead of turning into a default.

extension Decision: DatabaseValueConvertible {}
extension SwipeInput: DatabaseValueConvertible {}
extension CardOrder: DatabaseValueConvertible {}
extension DeckAccessMode: DatabaseValueConvertible {}
extension DeckEventKind: DatabaseValueConvertible {}
extension Participant.Kind: DatabaseValueConvertible {}

/// A deck's stop rule, stored as `StopRule.stored`'s JSON; a text that is no rule fails the read.
extension StopRule: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { stored.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> StopRule? {
        String.fromDatabaseValue(dbValue).flatMap(StopRule.init(stored:))
    }
}

/// A deck's counted inputs, stored as `CountedInput.stored`'s text (a `Codable` set would be a
/// JSON array). `@retroactive`: neither `Set` nor GRDB is ours; the conformance is constrained
/// to this element type, which is.
// swift-format-ignore: AvoidRetroactiveConformances
extension Set: @retroactive SQLExpressible, @retroactive StatementBinding, @retroactive DatabaseValueConvertible
where Element == CountedInput {
    public var databaseValue: DatabaseValue { CountedInput.stored(self).databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Set<CountedInput>? {
        String.fromDatabaseValue(dbValue).flatMap(CountedInput.set(stored:))
    }
}
