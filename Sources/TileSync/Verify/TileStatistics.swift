import Foundation

/// `info --stats`: what a store's tiles weigh. Per zoom and in all the tile count, bytes and the
/// smallest, median, 90th, 99th percentile and largest tile size (nearest rank: the smallest
/// size that at least p% of the tiles do not exceed), the largest tiles with their coordinates,
/// how many tiles repeat another's content, and for vector tiles per layer the tiles that hold
/// it, its features, its uncompressed bytes and its field names. Sizes come from the store's
/// listing (SQL `length()`, PMTiles directories, file sizes) without reading tiles; the layers
/// and, where the store keeps no hashes, the repeated contents need a read of every tile,
/// decoded on every core. Memory grows with the distinct sizes and layers, not with the tiles.
public struct TileStatistics: Sendable {
    /// The figures of one zoom level (or of all, `zoom` nil).
    public struct Sizes: Sendable, Equatable {
        public let zoom: Int?
        public internal(set) var tiles = 0
        public internal(set) var bytes = 0
        public internal(set) var minimum = 0
        public internal(set) var median = 0
        public internal(set) var p90 = 0
        public internal(set) var p99 = 0
        public internal(set) var maximum = 0
    }

    /// One layer of the vector tiles.
    public struct Layer: Sendable, Equatable {
        public let name: String
        /// Tiles that hold the layer.
        public internal(set) var tiles = 0
        public internal(set) var features = 0
        /// The layer's bytes in the uncompressed tiles.
        public internal(set) var bytes = 0
        /// Its field names, sorted.
        public internal(set) var fields: [String] = []
    }

    public let store: TileStoreLocation
    /// Per zoom, lowest first.
    public internal(set) var zooms: [Sizes] = []
    /// Every tile.
    public internal(set) var total = Sizes(zoom: nil)
    /// The largest tiles, largest first, equal sizes in (zoom, column, row) order (at most
    /// `largestKept`).
    public internal(set) var largest: [TileIndexEntry] = []
    /// Tiles whose content another tile has; nil when not known without reading every tile.
    public internal(set) var repeatedTiles: Int?
    /// The vector layers, in the order first met; empty unless asked for, or for raster tiles.
    public internal(set) var layers: [Layer] = []
    /// Tiles whose bytes could not be read as vector tiles in the layer pass.
    public internal(set) var undecodedTiles = 0

    /// How many of the largest tiles are kept.
    public static let largestKept = 10

    /// - Parameters:
    ///   - layers: read every tile and count the vector layers (and repeated contents where the
    ///     store keeps no hashes); MapLibre Tiles are not decoded (no layers).
    ///   - isCancelled: polled between batches; true throws `TileStoreError` `.interrupted`.
    /// - Throws: `TileStoreError` when the store cannot be read.
    public static func compute(_ location: TileStoreLocation, filter: TileFilter = .all, layers: Bool = false,
                               isCancelled: @escaping @Sendable () -> Bool = { false }) throws -> TileStatistics {
        do {
            let reader = try location.openReader()
            reader.setCancellation(isCancelled)
            var statistics = TileStatistics(store: location)
            try statistics.measureSizes(reader, filter: filter, countsRepeats: !layers, isCancelled: isCancelled)
            if layers { try statistics.countLayers(reader, filter: filter, isCancelled: isCancelled) }
            return statistics
        } catch {
            throw TileStoreError(wrapping: error, store: location.address)
        }
    }

    private mutating func measureSizes(_ reader: any TileReader, filter: TileFilter, countsRepeats: Bool,
                                       isCancelled: () -> Bool) throws {
        var histograms = [[Int: Int]](repeating: [:], count: TileCoordinate.maxZoom + 1)
        var repeats = countsRepeats ? try DedupIndex() : nil
        var repeated = 0
        let cursor = try reader.roles.inspection?.unorderedListing(matching: filter) ?? reader.listing(matching: filter)
        var seen = 0
        while let entry = try cursor.next() {
            seen += 1
            if seen % 4096 == 0, isCancelled() { throw TileStoreError(.interrupted, store: store.address, message: "interrupted") }
            histograms[entry.coordinate.z][entry.size, default: 0] += 1
            keepIfLarge(entry)
            if repeats != nil {
                if let hash = entry.hash {
                    if try repeats?.isNew(hash, recording: entry.coordinate) == false { repeated += 1 }
                } else {
                    repeats = nil
                }
            }
        }
        repeatedTiles = repeats == nil ? nil : repeated
        zooms = histograms.indices.filter { !histograms[$0].isEmpty }.map { Self.sizes(zoom: $0, histograms[$0]) }
        var all: [Int: Int] = [:]
        for histogram in histograms { all.merge(histogram, uniquingKeysWith: +) }
        total = Self.sizes(zoom: nil, all)
    }

    /// Keeps the largest tiles, ties in coordinate order, whatever order the listing has.
    private mutating func keepIfLarge(_ entry: TileIndexEntry) {
        func before(_ a: TileIndexEntry, _ b: TileIndexEntry) -> Bool { a.size != b.size ? a.size > b.size : a.coordinate < b.coordinate }
        guard largest.count < Self.largestKept || largest.last.map({ before(entry, $0) }) == true else { return }
        let index = largest.firstIndex { before(entry, $0) } ?? largest.count
        largest.insert(TileIndexEntry(coordinate: entry.coordinate, size: entry.size, hash: nil), at: index)
        if largest.count > Self.largestKept { largest.removeLast() }
    }

    /// Nearest-rank figures of a histogram (size to count).
    static func sizes(zoom: Int?, _ histogram: [Int: Int]) -> Sizes {
        var sizes = Sizes(zoom: zoom)
        let ordered = histogram.sorted { $0.key < $1.key }
        sizes.tiles = ordered.reduce(0) { $0 + $1.value }
        sizes.bytes = ordered.reduce(0) { $0 + $1.key * $1.value }
        guard let first = ordered.first, let last = ordered.last else { return sizes }
        sizes.minimum = first.key
        sizes.maximum = last.key
        func rank(_ percent: Int) -> Int {
            let needed = (sizes.tiles * percent + 99) / 100
            var running = 0
            for (size, count) in ordered {
                running += count
                if running >= needed { return size }
            }
            return last.key
        }
        sizes.median = rank(50)
        sizes.p90 = rank(90)
        sizes.p99 = rank(99)
        return sizes
    }

    private mutating func countLayers(_ reader: any TileReader, filter: TileFilter, isCancelled: () -> Bool) throws {
        let declared = try reader.declaredTileCompression()
        let metadata = try reader.metadata()
        let declaredFormat = metadata.format
        let cursor = try reader.tiles(matching: filter)
        let repeats = try DedupIndex()
        var repeated = 0
        var batch: [Tile] = []
        var census = LayerTally()
        func flush() {
            let tiles = batch
            var found = [[VectorLayerCensus.Layer]?](repeating: nil, count: tiles.count)
            found.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let output = buffer
                let runs = min(tiles.count, ProcessInfo.processInfo.activeProcessorCount * 4)
                DispatchQueue.concurrentPerform(iterations: runs) { run in
                    let codecs = TileRecompressor.Codecs()
                    for index in stride(from: run, to: tiles.count, by: runs) {
                        output[index] = Self.census(of: tiles[index].data, declared: declared, declaredFormat: declaredFormat, codecs: codecs)
                    }
                }
            }
            for layers in found { census.add(layers) }
            batch.removeAll(keepingCapacity: true)
        }
        while let tile = try cursor.next() {
            if try !repeats.isNew(ContentHash(of: tile.data), recording: tile.coordinate) { repeated += 1 }
            batch.append(tile)
            if batch.count >= 512 {
                if isCancelled() { throw TileStoreError(.interrupted, store: store.address, message: "interrupted") }
                flush()
            }
        }
        flush()
        repeatedTiles = repeated
        layers = census.layers
        undecodedTiles = census.undecoded
    }

    /// The layers of one tile; nil for a vector tile that cannot be read, [] for other content.
    /// Bytes of no known format are read as a vector tile (as the layer filter reads them): those
    /// that do not decode count as unreadable where the store declares `pbf`, as other content
    /// elsewhere. The bytes are sniffed with the store's declarations (brotli, MapLibre Tiles,
    /// which are not decoded).
    static func census(of data: Data, declared: TileCompression?, declaredFormat: TileFormat?,
                       codecs: TileRecompressor.Codecs) -> [VectorLayerCensus.Layer]? {
        let sniffed = SniffedTileFormat(sniffing: data.prefix(16), declaredCompression: declared, declaredFormat: declaredFormat)
        guard let (compression, isGuess) = sniffed.vectorReading(declared: declared) else { return [] }
        let layers = try? codecs.withDecoded(data, compression) { bytes in try? VectorLayerCensus.layers(in: bytes) }
        return layers ?? (isGuess && declaredFormat != .pbf ? [] : nil)
    }
}
