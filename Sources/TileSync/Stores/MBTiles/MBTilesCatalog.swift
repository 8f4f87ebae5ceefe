/// What an SQLite file holds, read from `sqlite_master` and `PRAGMA table_info`: which tile
/// schema it uses and the SQL that yields `zoom_level, tile_column, tile_row, tile_data`.
struct MBTilesCatalog {
    let schema: MBTilesSchema
    /// A table, view or sub-select usable in `FROM`.
    let tileSource: String
    let hasMetadataTable: Bool
    /// `tiles` is a view of a shape TileSync does not know: its rows may be any number (a cross
    /// join of small tables gives millions), so scans of it are bounded.
    let tilesIsUnknownView: Bool

    static let tileColumns = ["zoom_level", "tile_column", "tile_row", "tile_data"]

    /// - Throws: `TileStoreError` (`.corrupt`, `.notATileStore`) naming what is missing.
    init(connection: SQLiteConnection, store: String) throws(TileStoreError) {
        let objects: [[String?]]
        do {
            objects = try connection.rows("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')")
        } catch {
            throw MBTilesCatalog.openError(error, store: store)
        }
        let names = Set(objects.compactMap { $0[0]?.lowercased() })
        let views = Set(objects.filter { $0[1] == "view" }.compactMap { $0[0]?.lowercased() })
        func columns(_ table: String) throws(TileStoreError) -> Set<String> {
            do {
                return Set(try connection.rows("PRAGMA table_info(\"\(table)\")").compactMap { $0[1]?.lowercased() })
            } catch {
                throw MBTilesCatalog.openError(error, store: store)
            }
        }
        let metadataColumns = names.contains("metadata") ? try columns("metadata") : []
        hasMetadataTable = metadataColumns.isSuperset(of: ["name", "value"])

        let required = Set(Self.tileColumns)
        if names.contains("tiles_with_hash"),
           try columns("tiles_with_hash").isSuperset(of: required.union(["tile_hash"])) {
            schema = .flatWithHash
            tileSource = "tiles_with_hash"
            tilesIsUnknownView = false
        } else if names.contains("map"), names.contains("images"),
                  try columns("map").isSuperset(of: ["zoom_level", "tile_column", "tile_row", "tile_id"]),
                  try columns("images").isSuperset(of: ["tile_data", "tile_id"]) {
            schema = .normalized
            tileSource = Self.normalizedSource(join: "JOIN")
            tilesIsUnknownView = false
        } else if names.contains("tiles") {
            let found = try columns("tiles")
            let missing = Self.tileColumns.filter { !found.contains($0) }
            guard missing.isEmpty else {
                throw TileStoreError(
                    .notATileStore, store: store, item: "table tiles",
                    message: "has no column \(missing.joined(separator: ", ")) (it has \(found.sorted().joined(separator: ", ")))",
                    hint: "an MBTiles tiles table has zoom_level, tile_column, tile_row, tile_data")
            }
            schema = .flat
            tileSource = "tiles"
            tilesIsUnknownView = views.contains("tiles")
        } else {
            throw TileStoreError(
                .notATileStore, store: store,
                message: names.isEmpty ? "SQLite database with no tables, not an MBTiles file"
                    : "no tiles table or view, not an MBTiles file (tables: \(names.sorted().joined(separator: ", ")))")
        }
    }

    /// Like `tileSource`, but a normalized `map` row without its image gives a row with NULL
    /// `tile_data` (a deletion, in a patch file) instead of none.
    var tileSourceKeepingMissingImages: String {
        schema == .normalized ? Self.normalizedSource(join: "LEFT JOIN") : tileSource
    }

    private static func normalizedSource(join: String) -> String {
        """
        (SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, \
        map.tile_row AS tile_row, images.tile_data AS tile_data \
        FROM map \(join) images ON images.tile_id = map.tile_id)
        """
    }

    /// An SQLite failure while writing, with the disk-full hint when it is one.
    static func writeError(_ error: SQLiteError, store: String, item: String?) -> TileStoreError {
        error.writingError(store: store, item: item)
    }

    /// Any failure while finishing a write (SQLite, the flush and rename of the file) as a store error.
    static func writeError(_ error: any Error, store: String) -> TileStoreError {
        switch error {
        case let error as SQLiteError: writeError(error, store: store, item: nil)
        case let error as POSIXFileError: error.storeError(store: store)
        default: TileStoreError(wrapping: error, store: store)
        }
    }

    /// Maps an SQLite failure while opening to a store error with a useful kind.
    static func openError(_ error: SQLiteError, store: String) -> TileStoreError {
        error.openingError(store: store)
    }
}
