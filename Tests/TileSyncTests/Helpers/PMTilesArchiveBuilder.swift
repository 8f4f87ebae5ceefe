import Foundation
@testable import TileSync

/// Hand-made PMTiles archives for tests, hostile ones included: a root directory, optional
/// leaves and tile data, laid out as the spec's usual order with gzip directories.
struct PMTilesArchiveBuilder {
    var root: [UInt8]
    var leaves: [UInt8] = []
    var data: [UInt8] = Array(GeneratedStore.bytes(for: TileCoordinate(unchecked: 0, 0, 0)))
    var metadata: [UInt8] = Array("{}".utf8)
    var compresses = true
    /// The header's max zoom (31 unless a test says otherwise: every tile ID is then in range).
    var maxZoom: UInt8 = 31
    /// The header's `addressed_tiles_count` and `tile_entries_count` (0: unknown).
    var addressedTiles: UInt64 = 0
    var tileEntries: UInt64 = 0

    init(root entries: [PMTilesEntry]) {
        root = PMTilesDirectory.encode(entries)
    }

    init(rawRoot: [UInt8]) {
        root = rawRoot
    }

    /// Adds a leaf directory; returns its offset and length in the leaf section.
    mutating func addLeaf(_ entries: [PMTilesEntry]) throws -> (offset: UInt64, length: UInt32) {
        let bytes = try GzipCodec.compress(PMTilesDirectory.encode(entries))
        let offset = UInt64(leaves.count)
        leaves += bytes
        return (offset, UInt32(bytes.count))
    }

    func bytes() throws -> [UInt8] {
        let root = compresses ? try GzipCodec.compress(self.root) : self.root
        let metadata = compresses ? try GzipCodec.compress(self.metadata) : self.metadata
        var header = PMTilesHeader()
        header.internalCompressionValue = compresses ? PMTilesHeader.Compression.gzip.rawValue : PMTilesHeader.Compression.none.rawValue
        header.tileTypeValue = PMTilesHeader.TileType.png.rawValue
        header.isClustered = true
        header.maxZoom = maxZoom
        header.addressedTilesCount = addressedTiles
        header.tileEntriesCount = tileEntries
        header.rootOffset = 127
        header.rootLength = UInt64(root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(metadata.count)
        header.leafDirectoriesOffset = header.metadataOffset + header.metadataLength
        header.leafDirectoriesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leafDirectoriesOffset + header.leafDirectoriesLength
        header.tileDataLength = UInt64(data.count)
        return header.serialized() + root + metadata + leaves + data
    }

    func write(to path: String) throws {
        try Data(try bytes()).write(to: URL(fileURLWithPath: path))
    }
}
