import Foundation
import Synchronization

/// A list of tiles to work on, as a renderer's expire list gives them (osm2pgsql writes one
/// `z/x/y` a line; `z x y` and `z,x,y` lines, blank lines and `#` comments are read too),
/// optionally widened to each tile's ancestors and descendants within a zoom range.
///
/// Memory stays flat at any length: the tiles are sorted on disk (repeats removed) into a
/// scratch file of 64-bit keys in (z, x, y) order; memory holds the first key of each block of
/// `blockKeys` keys, the counts and extents per zoom, and one block read last. A lookup reads
/// at most one block; lookups in order read each block once. (Unchecked `Sendable`: after `init`
/// the scratch file is only read at offsets, and the block read last is behind a mutex.)
public final class TileList: @unchecked Sendable, Equatable, CustomStringConvertible {
    /// Where the list came from (`-` for standard input).
    public let file: String
    /// Tiles in the list, after widening and without repeats.
    public let count: Int
    /// Lines that held a tile (before widening; repeats counted).
    public let listedLines: Int
    /// Invalid lines skipped (with `skipInvalid`); 0 otherwise.
    public let skippedLines: Int
    /// An MD5 of the sorted tiles: lists holding the same tiles have the same fingerprint.
    public let fingerprint: String
    /// Tiles per zoom, with their extent.
    let zooms: [Int: TileRange]
    let counts: [Int: Int]
    private let keys: ScratchFile
    private let blockFirsts: [UInt64]
    private let cache = Mutex<(block: Int, keys: [UInt64])>((-1, []))

    /// Keys per block read at once.
    static let blockKeys = 1024
    /// The most tiles a widened list may hold.
    public static let maximumTiles = 1_000_000_000

    /// Reads a list.
    /// - Parameters:
    ///   - path: the file, or `-` for standard input.
    ///   - widening: each tile is replaced by its ancestors, itself and its descendants at these
    ///     zooms (nil: the tiles as listed).
    ///   - skipInvalid: skip (and count) invalid lines instead of failing on the first.
    ///   - scratchFolder: where the sorted keys are kept (an unlinked file; the temporary folder by default).
    /// - Throws: `TileListError` naming the file and the line.
    public init(path: String, widening: ClosedRange<Int>? = nil, skipInvalid: Bool = false,
                scratchFolder: String? = nil) throws(TileListError) {
        file = path
        let scratchFolder = scratchFolder ?? NSTemporaryDirectory()
        let sorter = ExternalSorter<UInt64>(folder: scratchFolder, purpose: "tile-list", memoryBudget: 32 << 20, by: <)
        var reading = TileListReading(file: path, widening: widening, skipInvalid: skipInvalid)
        try reading.read { key throws(TileListError) in
            do {
                try sorter.append(key)
            } catch {
                throw TileListError(file: path, message: "cannot sort the list: \(error)")
            }
        }
        listedLines = reading.listed
        skippedLines = reading.skipped
        do {
            let written = try TileListKeys.write(try sorter.sorted(), folder: scratchFolder)
            keys = written.file
            count = written.count
            blockFirsts = written.blockFirsts
            zooms = written.extents
            counts = written.counts
            fingerprint = written.fingerprint
        } catch {
            throw TileListError(file: path, message: "cannot keep the sorted list: \(error)")
        }
    }

    public static func == (lhs: TileList, rhs: TileList) -> Bool { lhs.fingerprint == rhs.fingerprint }

    /// `FILE (N tiles)`.
    public var description: String { "\(file) (\(count) tiles)" }

    /// True when the list holds the tile.
    public func contains(_ coordinate: TileCoordinate) -> Bool {
        let key = TileList.key(coordinate)
        guard zooms[coordinate.z]?.contains(coordinate) == true, let block = block(blockIndex(for: key)) else { return false }
        var first = 0, last = block.count
        while first < last {
            let middle = (first + last) / 2
            if block[middle] < key { first = middle + 1 } else { last = middle }
        }
        return first < block.count && block[first] == key
    }

    /// The lowest and highest zoom with a listed tile, nil for an empty list.
    public var zoomRange: ClosedRange<Int>? {
        guard let low = zooms.keys.min(), let high = zooms.keys.max() else { return nil }
        return low...high
    }

    /// The number of listed tiles at zoom `z`.
    public func count(atZoom z: Int) -> Int { counts[z] ?? 0 }

    /// The listed tiles of zoom `z` at positions `indexes` among them (from 0, in (x, y) order);
    /// positions past the last are left out.
    func tiles(atZoom z: Int, indexes: [Int]) -> [TileCoordinate] {
        guard (0...TileCoordinate.maxZoom).contains(z) else { return [] }
        let first = firstIndex(atOrAfter: Self.firstKey(ofZoom: z)), count = count(atZoom: z)
        return indexes.compactMap { index in
            guard index >= 0, index < count else { return nil }
            return key(at: first + index).map(Self.coordinate)
        }
    }

    /// True when a tile of column `x` at zoom `z` is listed (one block read at most).
    public func holdsColumn(_ x: Int, atZoom z: Int) -> Bool {
        guard zooms[z]?.columns.contains(x) == true else { return false }
        let index = firstIndex(atOrAfter: Self.key(TileCoordinate(unchecked: z, x, 0)))
        guard let key = key(at: index) else { return false }
        return key <= Self.key(TileCoordinate(unchecked: z, x, (1 << z) - 1))
    }

    /// The extent of the listed tiles at zoom `z`, nil when none is listed there.
    public func extent(atZoom z: Int) -> TileRange? { zooms[z] }

    /// The listed tiles inside `range`, in (x, y) order: per column that holds a listed tile, a
    /// seek to its first row (columns without one are passed over, however wide the range).
    public func tiles(in range: TileRange) -> [TileCoordinate] {
        guard let extent = zooms[range.z], let columns = Self.overlap(range.columns, extent.columns),
              let rows = Self.overlap(range.rows, extent.rows) else { return [] }
        var found: [TileCoordinate] = []
        let zoomEnd = Self.firstKey(ofZoom: range.z + 1)
        var x = columns.lowerBound
        while x <= columns.upperBound {
            let last = TileList.key(TileCoordinate(unchecked: range.z, x, rows.upperBound))
            var index = firstIndex(atOrAfter: TileList.key(TileCoordinate(unchecked: range.z, x, rows.lowerBound)))
            while let key = key(at: index), key <= last {
                found.append(Self.coordinate(key))
                index += 1
            }
            guard let next = key(at: index), next < zoomEnd else { break }
            x = max(x + 1, Self.coordinate(next).x)
        }
        return found
    }

    /// The key at position `index` of the sorted list (nil outside it or when the scratch file
    /// cannot be read).
    func key(at index: Int) -> UInt64? {
        guard index >= 0, index < count, let block = block(index / Self.blockKeys) else { return nil }
        let offset = index % Self.blockKeys
        return offset < block.count ? block[offset] : nil
    }

    /// The position of the first key at or after `key` (`count` when every key is before it).
    func firstIndex(atOrAfter key: UInt64) -> Int {
        let blockIndex = blockIndex(for: key)
        guard let block = block(blockIndex) else { return count }
        var first = 0, last = block.count
        while first < last {
            let middle = (first + last) / 2
            if block[middle] < key { first = middle + 1 } else { last = middle }
        }
        return blockIndex * Self.blockKeys + first
    }

    /// The listed tiles at `zooms` as runs of consecutive rows in one column, in (z, x) order,
    /// rows ascending or descending within a column, read from the sorted keys in order.
    func columnRuns(zooms: ClosedRange<Int>, rowsDescending: Bool) -> TileListColumnRuns {
        TileListColumnRuns(list: self, zooms: zooms, rowsDescending: rowsDescending)
    }

    /// The key of a zoom's first tile (zoom 31: past every tile).
    static func firstKey(ofZoom z: Int) -> UInt64 { UInt64(((1 << (2 * z)) - 1) / 3) }

    /// The block whose first key is the last at or before `key` (0 when none is).
    private func blockIndex(for key: UInt64) -> Int {
        var low = 0, high = blockFirsts.count
        while low < high {
            let middle = (low + high) / 2
            if blockFirsts[middle] <= key { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    private static func overlap(_ a: ClosedRange<Int>, _ b: ClosedRange<Int>) -> ClosedRange<Int>? {
        let low = max(a.lowerBound, b.lowerBound), high = min(a.upperBound, b.upperBound)
        return low <= high ? low...high : nil
    }

    private func block(_ index: Int) -> [UInt64]? {
        guard index >= 0, index < blockFirsts.count else { return nil }
        if let cached = cache.withLock({ $0.block == index ? $0.keys : nil }) { return cached }
        let total = count - index * Self.blockKeys, keysHere = min(Self.blockKeys, total)
        var block = [UInt64](repeating: 0, count: keysHere)
        let read: Bool = block.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return false }
            return (try? keys.read(at: UInt64(index * Self.blockKeys * 8), count: keysHere * 8, into: base)) != nil
        }
        guard read else { return nil }
        cache.withLock { $0 = (index, block) }
        return block
    }

    /// A tile's key: its position among all tiles of zooms 0 to 30 in (z, x, y) order.
    static func key(_ coordinate: TileCoordinate) -> UInt64 {
        UInt64(((1 << (2 * coordinate.z)) - 1) / 3 + (coordinate.x << coordinate.z | coordinate.y))
    }

    /// The coordinate of a (z, x, y) key.
    static func coordinate(_ key: UInt64) -> TileCoordinate {
        var z = 0
        while z < TileCoordinate.maxZoom, key >= UInt64(((1 << (2 * (z + 1))) - 1) / 3) { z += 1 }
        let rest = Int(key) - ((1 << (2 * z)) - 1) / 3
        return TileCoordinate(unchecked: z, rest >> z, rest & ((1 << z) - 1))
    }
}
