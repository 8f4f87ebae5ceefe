/// Streams (coordinate, size, stored hash) rows of an MBTiles file that keeps verified hashes.
final class MBTilesIndexCursor: TileIndexCursor {
    private let statement: SQLiteStatement
    private let reader: MBTilesReader
    private let filter: TileFilter
    let skipped = SkippedItems()

    init(statement: SQLiteStatement, reader: MBTilesReader, filter: TileFilter) {
        self.statement = statement
        self.reader = reader
        self.filter = filter
    }

    func next() throws -> TileIndexEntry? {
        while true {
            let hasRow: Bool
            do {
                hasRow = try statement.step()
            } catch {
                throw reader.readError(error, item: nil)
            }
            guard hasRow else { return nil }
            let coordinate = try MBTilesCursor.coordinate(of: statement, store: reader.location.path)
            guard filter.contains(coordinate) else { continue }
            let item = MBTilesReader.describe(coordinate)
            guard !statement.isNull(at: 3) else {
                throw TileStoreError(.invalidTile, store: reader.location.path, item: item, message: "tile_data is NULL")
            }
            let size = statement.int(at: 3)
            guard size > 0 else {
                throw TileStoreError(.invalidTile, store: reader.location.path, item: item, message: "tile_data is empty (0 bytes)")
            }
            if let hash = statement.text(at: 4).flatMap({ ContentHash(hex: $0) }) {
                return TileIndexEntry(coordinate: coordinate, size: size, hash: hash)
            }
            guard let data = try reader.tile(at: coordinate) else { continue }
            return TileIndexEntry(coordinate: coordinate, size: data.count, hash: ContentHash(of: data))
        }
    }
}
