/// The rows of a patch file in (zoom_level, tile_column, TMS tile_row) order, each checked: a
/// coordinate that is not an integer or outside its zoom's grid, or a row given twice, is an
/// error naming the row, as is an empty (0-byte, not NULL) `tile_data`.
final class PatchChangeCursor {
    private let statement: SQLiteStatement
    private let path: String
    private var last: (z: Int, x: Int, row: Int)?

    init(statement: SQLiteStatement, path: String) {
        self.statement = statement
        self.path = path
    }

    /// The next row, or nil after the last.
    /// - Throws: `TileStoreError` `.invalidTile` for a bad row, `.corrupt` when SQLite fails.
    func next() throws(TileStoreError) -> PatchChange? {
        let hasRow: Bool
        do {
            hasRow = try statement.step()
        } catch {
            throw TileStoreError(.corrupt, store: path, message: "cannot read the tile rows: \(error.message)")
        }
        guard hasRow else { return nil }
        let coordinate = try MBTilesCursor.coordinate(of: statement, store: path)
        let key = (coordinate.z, coordinate.x, coordinate.tmsY)
        if let last, !(last < key) {
            throw TileStoreError(.invalidTile, store: path, item: MBTilesReader.describe(coordinate), message: "appears twice in the patch")
        }
        last = key
        let data = statement.blob(at: 3)
        if data?.isEmpty == true {
            throw TileStoreError(.invalidTile, store: path, item: MBTilesReader.describe(coordinate),
                                 message: "tile_data is empty (0 bytes); a patch deletes a tile with NULL")
        }
        return PatchChange(coordinate: coordinate, data: data)
    }
}
