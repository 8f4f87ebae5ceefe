import Foundation
@testable import TileSync

/// Reads a snapshot of a memory store taken when it was opened, in the kind's order (sorted,
/// or a fixed shuffle for `.unordered`); empty tiles are invalid, as in every store.
final class MemoryReader: TileReader {
    let location: TileStoreLocation
    private let contents: MemoryTileStorage.Contents
    private let kind: MemoryStoreKind

    init(location: TileStoreLocation, contents: MemoryTileStorage.Contents, kind: MemoryStoreKind) {
        self.location = location
        self.contents = contents
        self.kind = kind
        kind.storage.readerOpened()
    }

    deinit {
        kind.storage.readerClosed()
    }

    var schemaDescription: String { "memory" }
    var order: TileOrder { kind.capabilities.nativeOrder }
    var traits: TileReaderTraits { TileReaderTraits(hasCheapRandomAccess: kind.capabilities.hasCheapRandomAccess) }

    func metadata() throws -> TileMetadata { contents.metadata }

    /// The coordinates that pass `filter`, in this reader's order.
    func coordinates(matching filter: TileFilter) -> [TileCoordinate] {
        let sorted = contents.tiles.keys.filter(filter.contains).sorted { order.sortKey($0) < order.sortKey($1) }
        guard order == .unordered else { return sorted }
        return sorted.enumerated().sorted { ($0.offset * 7919) % 104_729 < ($1.offset * 7919) % 104_729 }.map(\.element)
    }

    func tiles(matching filter: TileFilter) throws -> any TileCursor {
        MemoryCursor(reader: self, coordinates: coordinates(matching: filter).filter { !kind.streamOmits.contains($0) })
    }

    func tiles(matching filter: TileFilter, preferring preferred: TileOrder) throws -> any TileCursor {
        kind.storage.asked(preferred)
        return try tiles(matching: filter)
    }

    func tile(at coordinate: TileCoordinate) throws -> Data? {
        guard let data = contents.tiles[coordinate] else { return nil }
        guard !data.isEmpty else { throw invalid(coordinate) }
        return data
    }

    func listing(matching filter: TileFilter) throws -> any TileIndexCursor {
        MemoryListingCursor(reader: self, coordinates: coordinates(matching: filter), storage: kind.storage,
                            failsAfter: kind.failsListingAfter)
    }

    func index(matching filter: TileFilter) throws -> any TileIndexCursor {
        try listing(matching: filter)
    }

    func summary(matching filter: TileFilter, countingBytes: Bool) throws -> TileSetSummary {
        var summary = TileSetSummary()
        for coordinate in coordinates(matching: filter) { summary.add(coordinate, size: countingBytes ? contents.tiles[coordinate]?.count ?? 0 : 0) }
        return summary
    }

    func invalid(_ coordinate: TileCoordinate) -> TileStoreError {
        TileStoreError(.invalidTile, store: location.address, item: "tile \(coordinate)", message: "empty tile (0 bytes)")
    }
}

/// Streams a memory reader's tiles.
final class MemoryCursor: TileCursor {
    private let reader: MemoryReader
    private var coordinates: IndexingIterator<[TileCoordinate]>
    let skipped = SkippedItems()

    init(reader: MemoryReader, coordinates: [TileCoordinate]) {
        self.reader = reader
        self.coordinates = coordinates.makeIterator()
    }

    func next() throws -> Tile? {
        guard let coordinate = coordinates.next() else { return nil }
        guard let data = try reader.tile(at: coordinate) else { throw reader.invalid(coordinate) }
        return Tile(coordinate: coordinate, data: data)
    }
}

/// A memory reader's listing with MD5s, noting the thread that reads it.
final class MemoryListingCursor: TileIndexCursor {
    private let reader: MemoryReader
    private var coordinates: IndexingIterator<[TileCoordinate]>
    private let storage: MemoryTileStorage
    private let failsAfter: Int?
    private var count = 0
    let skipped = SkippedItems()

    init(reader: MemoryReader, coordinates: [TileCoordinate], storage: MemoryTileStorage, failsAfter: Int?) {
        self.reader = reader
        self.coordinates = coordinates.makeIterator()
        self.storage = storage
        self.failsAfter = failsAfter
    }

    func next() throws -> TileIndexEntry? {
        storage.listed(on: Thread.current)
        if let failsAfter, count >= failsAfter {
            throw TileStoreError(.corrupt, store: reader.location.address, item: "entry \(count)", message: "listing failed on purpose")
        }
        count += 1
        guard let coordinate = coordinates.next() else { return nil }
        guard let data = try reader.tile(at: coordinate) else { throw reader.invalid(coordinate) }
        return TileIndexEntry(coordinate: coordinate, size: data.count, hash: ContentHash(of: data))
    }
}
