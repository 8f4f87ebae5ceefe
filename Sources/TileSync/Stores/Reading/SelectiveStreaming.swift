/// Streams only the tiles a caller wants, their bytes fetched together: the role of a reader
/// whose `tile(at:)` costs a request per tile (a PMTiles archive over HTTP or S3), so that the
/// tiles a sync changes arrive in a few merged range requests instead of one request each.
protocol SelectiveStreaming {
    /// The tiles matching `filter` at the coordinates `wanted` accepts, in the reader's order;
    /// the others are passed over without their bytes being fetched.
    /// - Throws: `TileStoreError` as `tiles(matching:)`; an error `wanted` throws ends the
    ///   stream at that tile.
    func tiles(matching filter: TileFilter, wanted: @escaping (TileCoordinate) throws -> Bool) throws -> any TileCursor
}
