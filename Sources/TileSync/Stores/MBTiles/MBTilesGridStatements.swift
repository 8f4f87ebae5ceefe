import Foundation

/// Writes UTFGrids into an MBTiles file as mb-util does: `grids(zoom_level, tile_column,
/// tile_row, grid)` with the grid object (without `data`) zlib-compressed, and one
/// `grid_data(zoom_level, tile_column, tile_row, key_name, key_json)` row per data key. The
/// tables and their unique indexes are created when missing. Rows are TMS.
final class MBTilesGridStatements {
    static let schemaSQL = """
        CREATE TABLE IF NOT EXISTS grids (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, \
        tile_row INTEGER NOT NULL, grid BLOB);
        CREATE UNIQUE INDEX IF NOT EXISTS grid_index ON grids (zoom_level, tile_column, tile_row);
        CREATE TABLE IF NOT EXISTS grid_data (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, \
        tile_row INTEGER NOT NULL, key_name TEXT, key_json TEXT);
        CREATE UNIQUE INDEX IF NOT EXISTS grid_data_index ON grid_data (zoom_level, tile_column, tile_row, key_name);
        """

    private let insertGrid: SQLiteStatement
    private let deleteGrid: SQLiteStatement
    private let insertData: SQLiteStatement
    private let deleteData: SQLiteStatement

    /// - Throws: `SQLiteError` when the tables cannot be made (e.g. `grids` is a view of the
    ///   normalized UTFGrid schema, which cannot be written through).
    init(connection: SQLiteConnection) throws(SQLiteError) {
        try connection.execute(Self.schemaSQL)
        insertGrid = try connection.prepare("INSERT OR REPLACE INTO grids (zoom_level, tile_column, tile_row, grid) VALUES (?1, ?2, ?3, ?4)")
        deleteGrid = try connection.prepare("DELETE FROM grids WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
        insertData = try connection.prepare("INSERT OR REPLACE INTO grid_data (zoom_level, tile_column, tile_row, key_name, key_json) VALUES (?1, ?2, ?3, ?4, ?5)")
        deleteData = try connection.prepare("DELETE FROM grid_data WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
    }

    /// Adds or replaces a coordinate's grid and its data rows.
    /// - Throws: `SQLiteError` when writing fails, `CompressionError` when zlib cannot start.
    func put(_ grid: UTFGrid) throws {
        try remove(grid.coordinate)
        let (object, data) = UTFGridJSON.split(grid.json)
        let compressed = try GzipCodec.compress(object, zlibHeader: true)
        try insertGrid.bindMBTilesCoordinate(grid.coordinate)
        try insertGrid.bind(Data(compressed), at: 4)
        try insertGrid.run()
        for entry in data {
            try insertData.bindMBTilesCoordinate(grid.coordinate)
            try insertData.bind(entry.key, at: 4)
            try insertData.bind(entry.json, at: 5)
            try insertData.run()
        }
    }

    /// Removes a coordinate's grid and data rows (nothing when it has none).
    /// - Throws: `SQLiteError` when writing fails.
    func remove(_ coordinate: TileCoordinate) throws(SQLiteError) {
        for statement in [deleteGrid, deleteData] {
            try statement.bindMBTilesCoordinate(coordinate)
            try statement.run()
        }
    }
}
