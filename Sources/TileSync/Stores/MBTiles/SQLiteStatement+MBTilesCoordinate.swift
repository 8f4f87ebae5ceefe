import Foundation

extension SQLiteStatement {
    /// Binds a coordinate as MBTiles stores it: `?1` zoom_level, `?2` tile_column, `?3` the
    /// TMS tile_row.
    /// - Throws: `SQLiteError`.
    func bindMBTilesCoordinate(_ coordinate: TileCoordinate) throws(SQLiteError) {
        try bind(coordinate.z, at: 1)
        try bind(coordinate.x, at: 2)
        try bind(coordinate.tmsY, at: 3)
    }
}
