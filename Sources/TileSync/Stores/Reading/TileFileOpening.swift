/// The role of a reader whose store keeps each tile in a file of its own
/// (`TileReaderRoles.tileFiles`): a folder tree.
protocol TileFileOpening: AnyObject {
    /// The tile's file opened for reading, nil when the store has no tile there.
    /// - Throws: `TileStoreError` (`.invalidTile`, naming the file) when the file is there but
    ///   cannot be opened, is not a regular file, is empty or is over `FileBytes.maxTileSize`.
    func openTileFile(at coordinate: TileCoordinate) throws -> TileFile?
}
