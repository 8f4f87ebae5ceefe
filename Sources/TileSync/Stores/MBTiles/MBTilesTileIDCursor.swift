import Foundation

/// Streams an MBTiles' tiles in PMTiles tile-ID order, for a writer that lays them out in that
/// order as they come (a PMTiles archive): first the coordinates alone (from the unique index,
/// no blob read), sorted on disk by tile ID, then windows of consecutive tile IDs, each read
/// with one range query per column it touches (a run of tile IDs is a compact block of tiles).
/// When the file has a rollback journal, a companion connection in the same version reads half
/// of each window's columns on a second thread (`TileWindowReread`): reading is the longest
/// of the conversion's three threads (read, hash, write). A WAL file is read on the
/// cursor's thread alone (a second connection could see a later version). Since the windows
/// jump across the file, the file is read into the page cache front to back meanwhile
/// (`FileReadahead`).
///
/// Only for files with a unique index on the coordinates (`rereadsExactly`): each coordinate is
/// one tile. A tile deleted between the two passes (outside a consistent read) is not streamed.
final class MBTilesTileIDCursor: TileCursor {
    /// Bytes of tiles a window aims at; its tile count follows the mean tile size so far.
    static let windowBytes = 2 << 20
    static let windowTiles = 64...8192
    /// Bytes of tile IDs the coordinate sort holds in memory.
    static let sortBudget = 2 << 20

    let skipped = SkippedItems()
    private let reader: MBTilesReader
    private let filter: TileFilter
    private var scan: SQLiteStatement?
    private var sorter: ExternalSorter<UInt64>?
    private var sorted: SortedRecords<UInt64>?
    private var ids: [UInt64] = []
    private var blobs: [Data?] = []
    private var position = 0
    private var tilesRead = 0
    private var bytesRead = 0
    private var isDone = false
    /// The reader and its companion, once the first window is read (empty at the end, which
    /// ends the companion's read transaction).
    private var sources: [any TileColumnRereading]?
    /// The file read into the page cache front to back while the windows jump across it.
    private var readahead: FileReadahead?

    /// - Throws: `TileStoreError` when the coordinate query cannot be prepared.
    init(reader: MBTilesReader, filter: TileFilter) throws {
        self.reader = reader
        self.filter = filter
        do {
            scan = try reader.connection.prepare(
                "SELECT zoom_level, tile_column, tile_row FROM \(reader.catalog.tileSource)" + MBTilesReader.whereClause(filter))
        } catch {
            throw reader.readError(error, item: nil)
        }
        sorter = ExternalSorter(ascendingIn: NSTemporaryDirectory(), purpose: "mbtiles-tile-ids", memoryBudget: Self.sortBudget)
        readahead = FileReadahead(path: reader.location.address)
    }

    func next() throws -> Tile? {
        while !isDone {
            if scan != nil {
                try scanCoordinates()
                continue
            }
            if position < ids.count {
                let index = position
                position += 1
                guard let data = blobs[index] else { continue }
                blobs[index] = nil
                let tile = try TileID.zxy(of: ids[index])
                let coordinate = TileCoordinate(unchecked: tile.z, tile.x, tile.y)
                if data.isEmpty {
                    // NULL and empty blobs get the plain cursor's message.
                    _ = try reader.tile(at: coordinate)
                    continue
                }
                return Tile(coordinate: coordinate, data: data)
            }
            try readWindow()
        }
        return nil
    }

    /// Steps through the coordinate query into the sort; an invalid row is thrown (the scan
    /// goes on at the next call).
    private func scanCoordinates() throws {
        guard let statement = scan, let sorter else { return }
        while true {
            let hasRow: Bool
            do {
                hasRow = try statement.step()
            } catch {
                scan = nil
                isDone = true
                throw reader.readError(error, item: nil)
            }
            guard hasRow else { break }
            let coordinate = try MBTilesCursor.coordinate(of: statement, store: reader.location.address)
            guard filter.contains(coordinate) else { continue }
            do {
                try sorter.append(TileID.id(of: coordinate))
            } catch {
                isDone = true
                throw error.storeError(store: reader.location.address)
            }
        }
        scan = nil
        do {
            sorted = try sorter.sorted()
        } catch {
            isDone = true
            throw error.storeError(store: reader.location.address)
        }
        self.sorter = nil
    }

    /// Reads the next window of tile IDs (a repeated ID, from a file without a unique index,
    /// counts once).
    private func readWindow() throws {
        let mean = tilesRead > 0 ? max(1, bytesRead / tilesRead) : Self.windowBytes / 512
        let limit = min(max(Self.windowBytes / mean, Self.windowTiles.lowerBound), Self.windowTiles.upperBound)
        ids.removeAll(keepingCapacity: true)
        do {
            while ids.count < limit, let id = try sorted?.next() {
                if id != ids.last { ids.append(id) }
            }
        } catch {
            isDone = true
            throw error.storeError(store: reader.location.address)
        }
        position = 0
        guard !ids.isEmpty else {
            isDone = true
            sorted = nil
            sources = []
            readahead?.stop()
            readahead = nil
            return
        }
        let sources = self.sources ?? reader.withCompanion()
        self.sources = sources
        blobs = Array(repeating: nil, count: ids.count)
        var copied = [Bool](repeating: false, count: ids.count)
        let found = try ids.withUnsafeBufferPointer { ids in
            try copied.withUnsafeMutableBufferPointer { copied in
                try blobs.withUnsafeMutableBufferPointer { blobs in
                    let slots = BlobSlots(blobs: blobs)
                    let reread = TileWindowReread(sources: sources, ids: ids, copied: copied) { index, _, bytes in
                        slots.blobs[index] = Data(bytes)
                    }
                    return try reread.run(TileWindowReread.columns(of: ids))
                }
            }
        }
        tilesRead += found
        bytesRead += blobs.reduce(0) { $0 + ($1?.count ?? 0) }
    }

    /// The window's blobs, each slot written by the thread that read its tile only.
    private struct BlobSlots: @unchecked Sendable {
        let blobs: UnsafeMutableBufferPointer<Data?>
    }
}
