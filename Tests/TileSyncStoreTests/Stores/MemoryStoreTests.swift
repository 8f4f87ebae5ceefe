import Foundation
import Testing
@testable import TileSync

/// The converter, sync, verify and `TileSource` on a kind of store the library does not know:
/// `MemoryStoreKind`, registered from the test target.
@Suite("In-memory store (a kind added from the test target)")
struct MemoryStoreTests {
    static func contents(maxZoom: Int = 3, salt: String = "") -> MemoryTileStorage.Contents {
        var metadata = TileMetadata()
        metadata["name"] = "memory"
        metadata["custom key"] = "kept ✓"
        let tiles = GeneratedStore.pyramid(maxZoom: maxZoom).map { ($0.coordinate, GeneratedStore.bytes(for: $0.coordinate, salt: salt)) }
        return MemoryTileStorage.Contents(metadata: metadata, tiles: Dictionary(uniqueKeysWithValues: tiles))
    }

    @Test("Found by its prefix only; the standard registry does not know it")
    func registry() throws {
        let kind = MemoryStoreKind()
        let location = try kind.registry.location(parsing: "memory:a")
        #expect(location.kind.name == "memory" && location.address == "a")
        let directory = try TemporaryDirectory()
        #expect(try kind.registry.location(parsing: directory.file("new")).kind.name == "dir")
        let unknown = try TileStoreRegistry.standard.location(parsing: "memory:a")
        #expect(unknown.kind.name == "dir" && unknown.address == "memory:a")
    }

    @Test("convert memory -> memory copies every tile and key and fills zooms, bounds and format")
    func convert() throws {
        let kind = MemoryStoreKind()
        kind.storage["a"] = Self.contents()
        let summary = try TileConverter.convert(from: try kind.registry.location(parsing: "memory:a"),
                                                to: try kind.registry.location(parsing: "memory:b"))
        #expect(summary.tilesWritten == 85 && summary.distinctBlobs == 85 && summary.bytesSaved == 0)
        let copy = try #require(kind.storage["b"])
        #expect(copy.tiles == Self.contents().tiles)
        #expect(copy.metadata["custom key"] == "kept ✓" && copy.metadata["minzoom"] == "0" && copy.metadata["maxzoom"] == "3")
        #expect(copy.metadata["format"] == "png" && copy.metadata["bounds"] == "-180,-85.051129,180,85.051129")
        #expect(kind.storage.writeLog(of: "b")?.format == SniffedTileFormat(.png))
        #expect(kind.storage.askedOrders == [.zoomColumnRow])
        #expect {
            _ = try TileConverter.convert(from: try kind.registry.location(parsing: "memory:a"),
                                          to: try kind.registry.location(parsing: "memory:b"))
        } throws: { ($0 as? TileStoreError)?.kind == .destinationExists }
    }

    @Test("memory (unordered) -> MBTiles -> memory keeps every byte; the MBTiles writer gets its index order")
    func throughMBTiles() throws {
        let directory = try TemporaryDirectory()
        let kind = MemoryStoreKind(order: .unordered, randomAccess: false)
        kind.storage["a"] = Self.contents()
        let file = TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles"))
        _ = try TileConverter.convert(from: try kind.registry.location(parsing: "memory:a"), to: file)
        #expect(kind.storage.askedOrders == [.zoomColumnTMSRow])
        _ = try TileConverter.convert(from: file, to: try kind.registry.location(parsing: "memory:b"))
        #expect(kind.storage["b"]?.tiles == Self.contents().tiles)
        #expect(try StoreComparison.compare(file, try kind.registry.location(parsing: "memory:a")).same == 85)
    }

    @Test("A writer that keeps each blob once gets every MD5; a linking writer also gets each repeat's first tile",
          arguments: [TileStoreCapabilities.Deduplication.storesEachBlobOnce, .linksRepeats])
    func writerNeeds(deduplication: TileStoreCapabilities.Deduplication) throws {
        let storage = MemoryTileStorage()
        let source = MemoryStoreKind(storage: storage), destination = MemoryStoreKind(storage: storage, deduplication: deduplication)
        storage["a"] = MemoryTileStorage.Contents(tiles: Dictionary(uniqueKeysWithValues: DedupTests.repeatingTiles().map { ($0.coordinate, $0.data) }))
        let summary = try TileConverter.convert(from: TileStoreLocation(kind: source, address: "a"), to: TileStoreLocation(kind: destination, address: "b"))
        #expect(summary.duplicateTiles == 30 && summary.bytesSaved == 270 && summary.destinationDeduplicates)
        let writes = try #require(storage.writeLog(of: "b")?.writes)
        #expect(writes.count == 85)
        let tiles = try #require(storage["a"]?.tiles)
        #expect(writes.allSatisfy { $0.hash == ContentHash(of: tiles[$0.coordinate] ?? Data()) })
        var firstWith: [ContentHash: TileCoordinate] = [:]
        for write in writes {
            let expected = deduplication == .linksRepeats ? firstWith[write.hash] : nil
            #expect(write.original == expected, "\(write.coordinate)")
            if firstWith[write.hash] == nil { firstWith[write.hash] = write.coordinate }
        }
        #expect(writes.filter { $0.original != nil }.count == (deduplication == .linksRepeats ? 30 : 0))
    }

    @Test("sync memory -> memory writes only the differences; dry run and a second sync write nothing")
    func sync() throws {
        let kind = MemoryStoreKind()
        kind.storage["a"] = Self.contents()
        var changed = Self.contents()
        let z3 = try TileRange.world(z: 3).map { $0 }
        for coordinate in z3.prefix(3) { changed.tiles[coordinate] = GeneratedStore.bytes(for: coordinate, salt: "old") }
        for coordinate in z3.suffix(2) { changed.tiles[coordinate] = nil }
        for x in 0..<4 { changed.tiles[try TileCoordinate(z: 4, x: x, y: 0)] = Data([0x89, 0x50, 0x4E, 0x47, UInt8(x)]) }
        kind.storage["b"] = changed
        let a = try kind.registry.location(parsing: "memory:a"), b = try kind.registry.location(parsing: "memory:b")
        var options = TileSynchronizer.Options()
        options.delete = true
        options.dryRun = true
        let plan = try TileSynchronizer.sync(from: a, to: b, options: options)
        #expect([plan.added, plan.replaced, plan.deleted, plan.unchanged] as [Int] == [2, 3, 4, 80])
        #expect(kind.storage["b"] == changed)
        options.dryRun = false
        var entries: [TileSynchronizer.PlanEntry] = []
        let done = try TileSynchronizer.sync(from: a, to: b, options: options) { entries.append($0) }
        #expect([done.added, done.replaced, done.deleted, done.unchanged] as [Int] == [2, 3, 4, 80])
        #expect(!done.wroteNothing)
        #expect(entries.map(\.action).filter { $0 == .delete }.count == 4)
        #expect(kind.storage["b"]?.tiles == kind.storage["a"]?.tiles)
        #expect(kind.storage["b"]?.metadata["custom key"] == "kept ✓")
        let again = try TileSynchronizer.sync(from: a, to: b, options: options)
        #expect(again.isInSync && again.wroteNothing && again.unchanged == 85)
    }

    @Test("An unordered source without random access is sorted on the prefetching thread and applied in one pass")
    func unorderedSource() throws {
        let source = MemoryStoreKind(order: .unordered, randomAccess: false), destination = MemoryStoreKind()
        source.storage["a"] = Self.contents(maxZoom: 5)
        destination.storage["b"] = Self.contents(maxZoom: 4, salt: "old")
        var options = TileSynchronizer.Options()
        options.delete = true
        // Taken (and kept alive) before the sync: a thread object freed meanwhile could
        // otherwise leave its address, and so its identifier, to the caller's.
        let caller = Thread.current
        let summary = try TileSynchronizer.sync(from: TileStoreLocation(kind: source, address: "a"),
                                                to: TileStoreLocation(kind: destination, address: "b"), options: options)
        #expect((summary.added, summary.replaced, summary.deleted) == (1024, 341, 0))
        #expect(destination.storage["b"]?.tiles == source.storage["a"]?.tiles)
        let threads = source.storage.threadsThatListed
        #expect(!threads.isEmpty)
        withExtendedLifetime(caller) { #expect(!threads.contains(ObjectIdentifier(caller))) }
    }

    @Test("A sync that fails mid-merge throws the store's error and leaves no thread holding a reader")
    func failureMidMerge() throws {
        let source = MemoryStoreKind(), destination = MemoryStoreKind(failsListingAfter: 10)
        source.storage["a"] = Self.contents(maxZoom: 7)
        destination.storage["b"] = Self.contents(maxZoom: 2)
        #expect {
            _ = try TileSynchronizer.sync(from: TileStoreLocation(kind: source, address: "a"), to: TileStoreLocation(kind: destination, address: "b"))
        } throws: { ($0 as? TileStoreError)?.description == "b: entry 10: listing failed on purpose" }
        #expect(source.storage.openReaders == 0)
        #expect(destination.storage.openReaders == 0)
        #expect(destination.storage["b"] == Self.contents(maxZoom: 2))
    }

    @Test("A streamed source that lost planned tiles since it was listed fails the sync and leaves the destination as it was")
    func plannedTilesGone() throws {
        let gone: Set<TileCoordinate> = [try TileCoordinate(z: 5, x: 3, y: 7), try TileCoordinate(z: 5, x: 30, y: 1)]
        let source = MemoryStoreKind(randomAccess: false, streamOmits: gone), destination = MemoryStoreKind()
        source.storage["a"] = Self.contents(maxZoom: 5)
        destination.storage["b"] = Self.contents(maxZoom: 4, salt: "old")
        #expect {
            _ = try TileSynchronizer.sync(from: TileStoreLocation(kind: source, address: "a"), to: TileStoreLocation(kind: destination, address: "b"))
        } throws: {
            ($0 as? TileStoreError)?.description
                == "a: 2 of 1365 planned tiles: disappeared during the sync (the source changed while it was read)"
        }
        #expect(destination.storage["b"] == Self.contents(maxZoom: 4, salt: "old"))
        #expect(source.storage.openReaders == 0 && destination.storage.openReaders == 0)
    }

    @Test("verify reports an empty tile; TileSource serves a store without random access through a scratch copy")
    func verifyAndServe() throws {
        let kind = MemoryStoreKind(order: .unordered, randomAccess: false)
        var contents = Self.contents()
        let empty = try TileCoordinate(z: 3, x: 1, y: 2)
        contents.tiles[empty] = Data()
        kind.storage["a"] = contents
        let location = try kind.registry.location(parsing: "memory:a")
        let report = try StoreVerifier.verify(location)
        #expect(report.tilesChecked == 84 && report.counts == [.invalidTile: 1])
        #expect(report.problems.first?.description == "tile 3/1/2: empty tile (0 bytes)")
        let source = try TileSource(location: location)
        let tile = try TileCoordinate(z: 2, x: 3, y: 1)
        #expect(try source.tile(at: tile) == GeneratedStore.bytes(for: tile))
        #expect(try source.tile(at: empty) == nil)
        #expect(source.metadata["custom key"] == "kept ✓")
    }
}
