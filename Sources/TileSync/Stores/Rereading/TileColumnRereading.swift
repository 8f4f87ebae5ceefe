/// A reader that can read tiles again by column, from the same version of the store it streamed
/// them from (inside `withConsistentReads`): a PMTiles writer then keeps only records of the
/// tiles and reads each distinct blob again when it lays the archive out, instead of spooling
/// every blob to a scratch file.
protocol TileColumnRereading: AnyObject {
    /// The store read again (named in errors).
    var location: TileStoreLocation { get }

    /// True when a coordinate holds at most one tile (a unique index), so that a reread finds
    /// exactly the tile that was streamed; rereads are used only then.
    var rereadsExactly: Bool { get }

    /// Another rereader of the same version of the store, for a second thread reading other
    /// columns at the same time (its own connection), or nil when the store cannot promise that
    /// version; its reads end when it is released. Call inside `withConsistentReads`.
    func companionRereader() -> (any TileColumnRereading)?

    /// Calls `body` with each tile of column `x` at zoom `z` whose XYZ row is in `rows` and
    /// that `wanted` accepts, in any order: its row and its bytes, valid only during the call.
    /// The bytes of a tile not wanted are not read.
    /// - Throws: `TileStoreError` from the store, or what `body` throws.
    func rereadColumn(z: Int, x: Int, rows: ClosedRange<Int>, wanted: (_ y: Int) -> Bool,
                      _ body: (_ y: Int, _ bytes: UnsafeRawBufferPointer) throws -> Void) throws
}

extension TileColumnRereading {
    /// This rereader, then its companion when it has one: the sources of a `TileWindowReread`.
    func withCompanion() -> [any TileColumnRereading] {
        [self] + (companionRereader().map { [$0] } ?? [])
    }
}
