/// One stored swipe as the per-swipe export writes it.
public struct SwipeExportRow: Sendable {
    /// Where the next page starts (`SwipeStore.swipePage`): the row's place in storage order
    /// (SQLite's rowid, PostgreSQL's `seq`), increasing with insertion.
    public var cursor: Int64
    public var swipe: Swipe
}
