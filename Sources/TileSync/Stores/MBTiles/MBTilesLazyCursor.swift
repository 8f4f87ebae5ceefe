import Foundation

/// An MBTiles file's coordinates from its tile index alone, each tile read when asked: the
/// listing query names no `tile_data` (SQLite walks the index without touching the table), and
/// a second query in the same order reads the tiles asked for. That one steps on while the tiles
/// asked for follow each other (every tile of a source that wins everywhere is read as a stream
/// would read it) and seeks to a coordinate past the next row (tiles passed over are not read).
/// Where the listing has one row per coordinate and no filter but zooms, a range of the index is
/// counted and passed over inside SQLite (`countAhead`, `skipAhead`).
final class MBTilesLazyCursor: LazyTileCursor {
    @exclusivity(unchecked) private var listing: MBTilesRows
    /// `zoom_level, tile_column, tile_row, tile_data` from a coordinate on (`?1`-`?3`, TMS rows).
    private let tiles: SQLiteStatement
    private let reader: MBTilesReader
    private let store: String
    private let filter: TileFilter
    @exclusivity(unchecked) private var current: TileCoordinate?
    /// The coordinate the tile query stands at (its last row), nil before it runs or at its end.
    @exclusivity(unchecked) private var tilesAt: TileCoordinate?
    /// The coordinate the listing gave last, kept at its end (the point to count and skip from).
    @exclusivity(unchecked) private var listed: TileCoordinate?
    @exclusivity(unchecked) private var counting: SQLiteStatement?
    @exclusivity(unchecked) private var listingAfter: SQLiteStatement?
    let skipped = SkippedItems()

    init(listing: MBTilesRows, tiles: SQLiteStatement, reader: MBTilesReader, filter: TileFilter) {
        self.listing = listing
        self.tiles = tiles
        self.reader = reader
        store = reader.location.address
        self.filter = filter
    }

    func next() throws -> TileCoordinate? {
        current = nil
        while try listing.step(reader: reader, item: nil) {
            let coordinate = try MBTilesCursor.coordinate(of: listing.statement, store: store)
            guard filter.contains(coordinate) else { continue }
            current = coordinate
            listed = coordinate
            return coordinate
        }
        return nil
    }

    var knownSize: Int? { nil }

    func data() throws -> Data {
        guard let current else {
            throw TileStoreError.askedPastTheEnd(of: store)
        }
        do {
            if tilesAt != nil, try step(), tilesAt == current {
                return try reader.validatedData(tiles.blob(at: 3), coordinate: current)
            }
            tiles.reset()
            try tiles.bindMBTilesCoordinate(current)
            if try step(), tilesAt == current {
                return try reader.validatedData(tiles.blob(at: 3), coordinate: current)
            }
        } catch let error as SQLiteError {
            tilesAt = nil
            throw reader.readError(error, item: MBTilesReader.describe(current))
        }
        throw TileStoreError(.corrupt, store: store, item: MBTilesReader.describe(current),
                             message: "is in the tile index but its row cannot be read (the file changed during the read?)")
    }

    /// Steps the tile query; `tilesAt` is its row's coordinate, nil at the end or at a row that
    /// is not a tile coordinate.
    private func step() throws -> Bool {
        tilesAt = nil
        guard try tiles.step() else { return false }
        tilesAt = try? MBTilesCursor.coordinate(of: tiles, store: store)
        return true
    }

    var countsAhead: Bool { filter.isZoomRangeOnly && reader.rereadsExactly }

    /// Counts the index rows after the coordinate listed last, through `last`, inside SQLite,
    /// checking each is a tile coordinate (with integer arithmetic where the columns' affinity
    /// keeps whole numbers as INTEGERs, else with `typeof`). nil
    /// (nothing counted) before the first coordinate, with a filter beyond zooms, without a
    /// unique index (a coordinate could repeat), or when a row in the range is not a valid tile
    /// coordinate (the listing reports those one by one).
    /// - Throws: `TileStoreError` when SQLite cannot read the index.
    func countAhead(through last: TileCoordinate) throws -> Int? {
        guard let listed, countsAhead else { return nil }
        do {
            let statement: SQLiteStatement
            if let counting {
                statement = counting
            } else {
                let valid = reader.keepsCoordinatesAsIntegers
                    ? "(zoom_level | 0) = zoom_level AND (tile_column | 0) = tile_column AND (tile_row | 0) = tile_row"
                        + " AND zoom_level BETWEEN 0 AND \(TileCoordinate.maxZoom) AND (tile_column | tile_row) >> zoom_level = 0"
                    : "typeof(zoom_level) = 'integer' AND typeof(tile_column) = 'integer' AND typeof(tile_row) = 'integer'"
                        + " AND zoom_level BETWEEN 0 AND \(TileCoordinate.maxZoom)"
                        + " AND tile_column BETWEEN 0 AND (1 << zoom_level) - 1 AND tile_row BETWEEN 0 AND (1 << zoom_level) - 1"
                statement = try reader.connection.prepare(
                    "SELECT count(*), count(CASE WHEN \(valid) THEN 1 END) FROM \(reader.catalog.tileSource)"
                        + " WHERE (zoom_level, tile_column, tile_row) > (?1, ?2, ?3) AND (zoom_level, tile_column, tile_row) <= (?4, ?5, ?6)")
                counting = statement
            }
            defer { statement.reset() }
            try statement.bindMBTilesCoordinate(listed)
            try statement.bind(last.z, at: 4)
            try statement.bind(last.x, at: 5)
            try statement.bind(last.tmsY, at: 6)
            guard try statement.step() else { return nil }
            let rows = statement.int(at: 0)
            return rows == statement.int(at: 1) ? rows : nil
        } catch {
            throw reader.readError(error, item: nil)
        }
    }

    /// Moves the listing on to the first row after `last` (in the index), passing over the rows
    /// between without reading them; false (nothing moved) where `countAhead` cannot count.
    /// - Throws: `TileStoreError` when SQLite cannot read the index.
    func skipAhead(past last: TileCoordinate) throws -> Bool {
        guard listed != nil, countsAhead else { return false }
        do {
            let statement: SQLiteStatement
            if let listingAfter {
                statement = listingAfter
                statement.reset()
            } else {
                let zooms = filter.isEverything ? "" : " AND zoom_level BETWEEN \(filter.zooms.lowerBound) AND \(filter.zooms.upperBound)"
                statement = try reader.connection.prepare(
                    "SELECT zoom_level, tile_column, tile_row FROM \(reader.catalog.tileSource) WHERE (zoom_level, tile_column, tile_row) > (?1, ?2, ?3)"
                        + zooms + " ORDER BY zoom_level, tile_column, tile_row")
                listingAfter = statement
            }
            try statement.bindMBTilesCoordinate(last)
            listing = MBTilesRows(statement)
            current = nil
            listed = last
            return true
        } catch {
            throw reader.readError(error, item: nil)
        }
    }
}
