import Foundation
@testable import TileSync

/// Writes a new memory store, visible at `finish()`; records what the converter gave it (the
/// hashes and originals it asked for, the order tiles came in).
final class MemoryWriter: TileWriter {
    let location: TileStoreLocation
    private let kind: MemoryStoreKind
    private var contents: MemoryTileStorage.Contents?
    /// Every write, in order: the tile, its hash, and the original it repeats.
    private(set) var writes: [MemoryTileStorage.Write] = []
    /// The format `begin` was given.
    private(set) var format: SniffedTileFormat?

    init(location: TileStoreLocation, kind: MemoryStoreKind) {
        self.location = location
        self.kind = kind
    }

    var wantsHashes: Bool { kind.capabilities.deduplication != .none }
    var deduplication: TileStoreCapabilities.Deduplication { kind.capabilities.deduplication }
    var preferredOrder: TileOrder { kind.capabilities.preferredWriteOrder }

    func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        contents = MemoryTileStorage.Contents(metadata: metadata)
        self.format = format
    }

    func write(_ tile: Tile, hash: ContentHash, duplicateOf original: TileCoordinate?) throws {
        guard contents != nil else { throw TileStoreError(.unsupported, store: location.address, message: "write before begin") }
        contents?.tiles[tile.coordinate] = tile.data
        writes.append(MemoryTileStorage.Write(coordinate: tile.coordinate, hash: hash, original: original))
    }

    func finish() throws {
        guard let contents else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        kind.storage[location.address] = contents
        kind.storage.recordWrites(MemoryTileStorage.WriteLog(writes: writes, format: format), of: location.address)
    }

    func abort() {
        contents = nil
    }

}
