/// The role of a reader that helps a merge of many sources (`TileReaderRoles.mergeStreaming`):
/// it can name its last tile without streaming, keep less in memory when streamed once, and list
/// its coordinates without reading the tiles a merge passes over.
protocol MergeStreaming: AnyObject {
    /// A coordinate no tile of `tiles(matching:)` comes after in the reader's order (its last, or
    /// a bound), found without streaming (an MBTiles' index); nil when it cannot say cheaply.
    func lastStreamedCoordinate(matching filter: TileFilter) -> TileCoordinate?

    /// Says the reader will stream its tiles once, in order, and look none up.
    func willStreamOnce()

    /// The coordinates `tiles(matching:)` streams, in the same order, each tile read only when
    /// asked; nil when the reader cannot list them more cheaply than it reads its tiles.
    /// - Throws: `TileStoreError` when the store cannot be read.
    func lazyTiles(matching filter: TileFilter) throws -> (any LazyTileCursor)?
}

extension MergeStreaming {
    func willStreamOnce() {}

    func lazyTiles(matching filter: TileFilter) throws -> (any LazyTileCursor)? { nil }
}
