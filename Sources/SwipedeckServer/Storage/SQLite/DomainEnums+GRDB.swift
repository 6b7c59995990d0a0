import GRDB
import SwipePhysics

// The domain's enums as SQLite columns: each is stored as its raw value (the text the columns
// held before they were typed), and a text naming no case fails the read with GRDB's decoding
// error instead of turning into a default.

extension Decision: DatabaseValueConvertible {}
extension SwipeInput: DatabaseValueConvertible {}
extension CardOrder: DatabaseValueConvertible {}
