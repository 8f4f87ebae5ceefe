/// The role of a reader that helps a merge of many sources (`TileReaderRoles.mergeStreaming`):
/// it can name its last tile without streaming, and keep less in memory when streamed once.
protocol MergeStreaming: AnyObject {
    /// A coordinate no tile of `tiles(matching:)` comes after in the reader's order (its last, or
    /// a bound), found without streaming (an MBTiles' index); nil when it cannot say cheaply.
    func lastStreamedCoordinate(matching filter: TileFilter) -> TileCoordinate?

    /// Says the reader will stream its tiles once, in order, and look none up.
    func willStreamOnce()
}

extension MergeStreaming {
    func willStreamOnce() {}
}
