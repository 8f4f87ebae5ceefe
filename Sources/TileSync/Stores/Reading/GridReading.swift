/// The role of a reader whose store keeps UTFGrids beside its tiles (`TileReaderRoles.grids`):
/// MBTiles `grids` and `grid_data`, `.grid.json` files beside a tree's tiles.
protocol GridReading: AnyObject {
    /// The store's UTFGrids within `filter`; nil when the store keeps none.
    /// - Throws: `TileStoreError` when the store cannot be read.
    func grids(matching filter: TileFilter) throws -> (any UTFGridCursor)?
}
