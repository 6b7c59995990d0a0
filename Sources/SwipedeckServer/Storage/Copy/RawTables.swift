/// Table-level reads and writes for `StoreCopier` (both engines conform); nothing else uses
/// them, so the app keeps to the intent-named writes of `Store`.
public protocol RawTables: Sendable {
    /// Rows in the table.
    func rowCount(_ table: CopyTable) async throws -> Int
    /// Up to `limit` rows after the row whose key is `after` (nil: from the start), in key order
    /// (storage order for `swipes`), each with its key (for the next call) and its values in
    /// `table.columns` order.
    func readRows(_ table: CopyTable, after: [CopyValue]?, limit: Int) async throws -> [(
        key: [CopyValue], values: [CopyValue]
    )]
    /// Inserts rows (values in `table.columns` order) in one transaction, in the order given.
    func writeRows(_ table: CopyTable, _ rows: [[CopyValue]]) async throws
    /// Work after every table is copied (PostgreSQL moves its id sequences past the copied ids).
    func finishCopy() async throws
}
