import Foundation

/// The tiles of one window of tile IDs, read from a source by column and handed to `deliver`: on
/// one thread, or, with the source's companion, in two parts of the window's columns on two
/// threads at once. Used by the PMTiles layout (blobs read again into their places) and by the
/// MBTiles cursor in tile-ID order. Unchecked `Sendable`: the parts hold disjoint columns, so
/// their calls touch disjoint tiles (`deliver` must only touch what belongs to its index).
struct TileWindowReread: @unchecked Sendable {
    typealias Column = (key: TileRereadColumn, value: (rows: ClosedRange<Int>, tiles: Int))

    /// A window with fewer tiles than twice this is read on one thread.
    static let minimumTilesPerThread = 32

    /// The source, then its companion if it has one (part `i` is read from `sources[i]`).
    let sources: [any TileColumnRereading]
    /// The window's tile IDs, ascending.
    let ids: UnsafeBufferPointer<UInt64>
    /// Set for each tile found.
    let copied: UnsafeMutableBufferPointer<Bool>
    /// Takes the bytes of the tile at an index of `ids`, read from the given source (valid
    /// during the call only); called once per tile, from either thread.
    let deliver: (_ index: Int, _ source: any TileColumnRereading, _ bytes: UnsafeRawBufferPointer) throws -> Void

    /// The columns that the ascending `ids` touch, sorted by zoom and column, with the rows
    /// each spans and how many of the tiles it holds.
    static func columns(of ids: UnsafeBufferPointer<UInt64>) -> [Column] {
        var columns: [TileRereadColumn: (rows: ClosedRange<Int>, tiles: Int)] = [:]
        for id in ids {
            guard let tile = try? TileID.zxy(of: id) else { continue }
            let column = TileRereadColumn(z: tile.z, x: tile.x)
            columns[column] = columns[column].map { (min($0.rows.lowerBound, tile.y)...max($0.rows.upperBound, tile.y), $0.tiles + 1) }
                ?? (tile.y...tile.y, 1)
        }
        return columns.sorted { ($0.key.z, $0.key.x) < ($1.key.z, $1.key.x) }
    }

    /// Reads the window's `columns` (sorted), in two halves of about as many tiles when there is
    /// a companion and enough tiles, and returns how many tiles were found.
    /// - Throws: the first part's error (a source's, or `deliver`'s).
    func run(_ columns: [Column]) throws -> Int {
        guard sources.count > 1, ids.count >= 2 * Self.minimumTilesPerThread else { return try read(columns[...], from: sources[0]) }
        var tiles = 0
        let half = columns.firstIndex { column in
            tiles += column.value.tiles
            return 2 * tiles >= ids.count
        } ?? columns.count - 1
        let parts = [columns[...half], columns[(half + 1)...]]
        let results = UnsafeMutableBufferPointer<Result<Int, any Error>>.allocate(capacity: parts.count)
        results.initialize(repeating: .success(0))
        defer { results.deallocate() }
        let slots = ResultSlots(results: results)
        DispatchQueue.concurrentPerform(iterations: parts.count) { part in
            slots.results[part] = Result { try read(parts[part], from: sources[part]) }
        }
        var found = 0
        for result in results { found += try result.get() }
        return found
    }

    /// One result per part, each written by its own thread only.
    private struct ResultSlots: @unchecked Sendable {
        let results: UnsafeMutableBufferPointer<Result<Int, any Error>>
    }

    private func read(_ columns: ArraySlice<Column>, from source: any TileColumnRereading) throws -> Int {
        var found = 0
        var index = 0
        for (column, value) in columns {
            try source.rereadColumn(z: column.z, x: column.x, rows: value.rows, wanted: { y in
                index = Self.index(of: TileID.unchecked(z: column.z, x: UInt64(column.x), y: UInt64(y)), in: ids)
                return index >= 0 && !copied[index]
            }) { _, bytes in
                try deliver(index, source, bytes)
                copied[index] = true
                found += 1
            }
        }
        return found
    }

    /// The position of `id` in the ascending `ids`, or -1.
    private static func index(of id: UInt64, in ids: UnsafeBufferPointer<UInt64>) -> Int {
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : -1
    }
}
