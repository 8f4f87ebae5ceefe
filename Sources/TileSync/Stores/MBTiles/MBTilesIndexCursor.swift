/// Streams (coordinate, size, hash) rows of an MBTiles query: stored hashes where the file keeps
/// verified ones, else computed from the bytes (an index) or left out (a listing).
final class MBTilesIndexCursor: TileIndexCursor {
    private var rows: MBTilesRows
    private var statement: SQLiteStatement { rows.statement }
    private let reader: MBTilesReader
    private let filter: TileFilter
    private let computeMissingHashes: Bool
    let skipped = SkippedItems()

    /// - Parameter computeMissingHashes: read and hash a tile whose row has no usable hash
    ///   (an index); false leaves the hash nil (a listing).
    init(rows: MBTilesRows, reader: MBTilesReader, filter: TileFilter, computeMissingHashes: Bool) {
        self.rows = rows
        self.reader = reader
        self.filter = filter
        self.computeMissingHashes = computeMissingHashes
    }

    func next() throws -> TileIndexEntry? {
        while try rows.step(reader: reader, item: nil) {
            let coordinate = try MBTilesCursor.coordinate(of: statement, store: reader.location.address)
            guard filter.contains(coordinate) else { continue }
            guard !statement.isNull(at: 3) else {
                throw TileStoreError(.invalidTile, store: reader.location.address, item: MBTilesReader.describe(coordinate), message: "tile_data is NULL")
            }
            let size = statement.int(at: 3)
            guard size > 0 else {
                throw TileStoreError(.invalidTile, store: reader.location.address, item: MBTilesReader.describe(coordinate),
                                     message: "tile_data is empty (0 bytes)")
            }
            if let hash = statement.text(at: 4).flatMap({ ContentHash(hex: $0) }) {
                return TileIndexEntry(coordinate: coordinate, size: size, hash: hash)
            }
            guard computeMissingHashes else { return TileIndexEntry(coordinate: coordinate, size: size, hash: nil) }
            guard let data = try reader.tile(at: coordinate) else { continue }
            return TileIndexEntry(coordinate: coordinate, size: data.count, hash: ContentHash(of: data))
        }
        return nil
    }
}
