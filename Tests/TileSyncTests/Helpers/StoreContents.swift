import Foundation
@testable import TileSync

/// Reads a whole (small) store into memory for comparisons in tests.
enum StoreContents {
    /// Tiles keyed by XYZ coordinate.
    static func tiles(_ location: String, layout: PathTemplate? = nil) throws -> [TileCoordinate: Data] {
        var options = TileStoreOptions()
        options.layout = layout
        return try tiles(TileStoreLocation(parsing: location, options: options).openReader())
    }

    /// Tiles of an open reader keyed by XYZ coordinate.
    static func tiles(_ reader: any TileReader) throws -> [TileCoordinate: Data] {
        let cursor = try reader.tiles(matching: .all)
        var tiles: [TileCoordinate: Data] = [:]
        while let tile = try cursor.next() { tiles[tile.coordinate] = tile.data }
        return tiles
    }

    /// UTFGrids keyed by XYZ coordinate (canonical JSON); empty when the store keeps none.
    static func grids(_ location: String, layout: PathTemplate? = nil, filter: TileFilter = .all) throws -> [TileCoordinate: String] {
        var options = TileStoreOptions()
        options.layout = layout
        guard let cursor = try TileStoreLocation(parsing: location, options: options).openReader().grids(matching: filter) else { return [:] }
        var grids: [TileCoordinate: String] = [:]
        while let grid = try cursor.next() { grids[grid.coordinate] = String(decoding: grid.json, as: UTF8.self) }
        return grids
    }

    /// The raw MBTiles rows `(zoom_level, tile_column, tile_row) -> tile_data`, read with SQL
    /// from the `tiles` table or view, bypassing the reader's TMS flip.
    static func mbtilesRows(_ path: String) throws -> [String: Data] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let statement = try connection.prepare("SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
        var rows: [String: Data] = [:]
        while try statement.step() {
            rows["\(statement.int(at: 0))/\(statement.int(at: 1))/\(statement.int(at: 2))"] = statement.blob(at: 3)
        }
        return rows
    }

    /// The `metadata` table as `name -> value` (NULL as nil inside the optional).
    static func mbtilesMetadata(_ path: String) throws -> [String: String?] {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        var result: [String: String?] = [:]
        for row in try connection.rows("SELECT name, value FROM metadata") {
            if let name = row[0] { result[name] = row[1] }
        }
        return result
    }
}
