/// The prepared statements that put and remove tiles in each MBTiles schema: flat `tiles`,
/// `tiles_with_hash` with the MD5, or normalized `map` + `images` (one image per distinct blob).
/// Shared by the writer (new files) and the updater (sync in place). XYZ rows become TMS here.
final class MBTilesTileStatements {
    private let schema: MBTilesSchema
    private let put: SQLiteStatement
    private let image: SQLiteStatement?
    private let delete: SQLiteStatement

    init(connection: SQLiteConnection, schema: MBTilesSchema) throws(SQLiteError) {
        self.schema = schema
        let table: String
        switch schema {
        case .flat:
            table = "tiles"
            put = try connection.prepare(
                "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)", persistent: true)
            image = nil
        case .flatWithHash:
            table = "tiles_with_hash"
            put = try connection.prepare(
                "INSERT OR REPLACE INTO tiles_with_hash (zoom_level, tile_column, tile_row, tile_data, tile_hash) VALUES (?1, ?2, ?3, ?4, ?5)",
                persistent: true)
            image = nil
        case .normalized:
            table = "map"
            put = try connection.prepare(
                "INSERT OR REPLACE INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?1, ?2, ?3, ?5)", persistent: true)
            image = try connection.prepare("INSERT OR IGNORE INTO images (tile_id, tile_data) VALUES (?1, ?2)", persistent: true)
        }
        delete = try connection.prepare(
            "DELETE FROM \(table) WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3", persistent: true)
    }

    /// Adds or replaces a tile.
    /// - Parameter storesBlob: false when an earlier tile of this run already stored the same
    ///   bytes (normalized only: the `images` row exists).
    func put(_ tile: Tile, hash: ContentHash, storesBlob: Bool = true) throws(SQLiteError) {
        try put.bindMBTilesCoordinate(tile.coordinate)
        switch schema {
        case .flat:
            try put.run(binding: tile.data, at: 4)
        case .flatWithHash:
            try put.bind(hash.hex, at: 5)
            try put.run(binding: tile.data, at: 4)
        case .normalized:
            let hex = hash.hex
            if storesBlob, let image {
                try image.bind(hex, at: 1)
                try image.run(binding: tile.data, at: 2)
            }
            try put.bind(hex, at: 5)
            try put.run()
        }
    }

    func remove(_ coordinate: TileCoordinate) throws(SQLiteError) {
        try delete.bindMBTilesCoordinate(coordinate)
        try delete.run()
    }
}
