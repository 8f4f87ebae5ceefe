import Foundation
@testable import TileSync

/// Changes a memory store on a copy and swaps it in at `finish()` (a missing store is created).
final class MemoryUpdater: TileUpdater {
    let location: TileStoreLocation
    private let storage: MemoryTileStorage
    private var contents: MemoryTileStorage.Contents?

    init(location: TileStoreLocation, storage: MemoryTileStorage) {
        self.location = location
        self.storage = storage
    }

    func begin(metadata: TileMetadata, format: SniffedTileFormat) throws {
        var contents = storage[location.address] ?? MemoryTileStorage.Contents()
        contents.metadata = metadata
        self.contents = contents
    }

    func put(_ tile: Tile, hash: ContentHash, modificationTime: Int64) throws {
        guard contents != nil else { throw TileStoreError(.unsupported, store: location.address, message: "put before begin") }
        contents?.tiles[tile.coordinate] = tile.data
    }

    func remove(_ coordinate: TileCoordinate) throws {
        contents?.tiles[coordinate] = nil
    }

    func finish() throws {
        guard let contents else { throw TileStoreError(.unsupported, store: location.address, message: "finish before begin") }
        storage[location.address] = contents
        self.contents = nil
    }

    func abort() {
        contents = nil
    }
}
