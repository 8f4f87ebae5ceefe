import Foundation

/// An MBTiles file's coordinates from its tile index alone, each tile read when asked: the
/// listing query names no `tile_data` (SQLite walks the index without touching the table), and
/// a second query in the same order reads the tiles asked for. That one steps on while the tiles
/// asked for follow each other (every tile of a source that wins everywhere is read as a stream
/// would read it) and seeks to a coordinate past the next row (tiles passed over are not read).
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
}
