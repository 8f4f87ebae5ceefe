import Foundation
import Testing
@testable import TileSync

/// Small archives that claim huge outputs: each is refused, or counted by arithmetic, within
/// seconds, and nothing is written.
@Suite("PMTiles: small archives that claim huge outputs")
struct PMTilesAmplificationTests {
    let folder: TemporaryDirectory
    let length = UInt32(GeneratedStore.bytes(for: TileCoordinate(unchecked: 0, 0, 0)).count)

    init() throws {
        folder = try TemporaryDirectory()
    }

    func location(_ name: String, _ builder: PMTilesArchiveBuilder) throws -> TileStoreLocation {
        try builder.write(to: folder.file(name))
        return TileStoreLocation(kind: .pmtiles, address: folder.file(name))
    }

    /// Every way a reader reads the whole archive must fail with `expected`, and a conversion must
    /// fail with it too, leaving no destination.
    func expectEveryReadFails(_ location: TileStoreLocation, item: String, message: String) throws {
        let expected = TileStoreError(.corrupt, store: location.address, item: item, message: message)
        let reader = try PMTilesReader(location: location)
        #expect(throws: expected) { try reader.summary(matching: .all) }
        #expect(throws: expected) { try reader.amount(matching: .all, upTo: 1000) }
        #expect(throws: expected) {
            let cursor = try reader.tiles(matching: .all)
            while try cursor.next() != nil {}
        }
        #expect(throws: expected) {
            let cursor = try reader.tiles(matching: .all, preferring: .zoomColumnRow)
            while try cursor.next() != nil {}
        }
        #expect(throws: expected) {
            let cursor = try reader.listing(matching: .all)
            while try cursor.next() != nil {}
        }
        let report = try StoreVerifier.verify(location)
        #expect(report.problems.filter { !$0.category.isWarning }.map(\.description) == ["\(item): \(message)"])
        #expect(!report.isClean)
        let destination = TileStoreLocation(kind: .mbtiles, address: folder.file("out.mbtiles"))
        #expect(throws: expected) { try TileConverter.convert(from: location, to: destination) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("out") || $0.hasPrefix(".out") } == [])
    }

    @Test("A run of 2^31 tiles in an archive whose header says 2 tiles up to zoom 1 (the 291-byte archive)")
    func runPastTheHeader() throws {
        var builder = PMTilesArchiveBuilder(root: [PMTilesEntry(tileID: 0, offset: 0, length: length, runLength: 1 << 31)])
        builder.maxZoom = 1
        builder.addressedTiles = 2
        builder.tileEntries = 1
        let archive = try location("run.pmtiles", builder)
        #expect(try Data(contentsOf: URL(fileURLWithPath: archive.address)).count < 300)
        let started = Date()
        try expectEveryReadFails(archive, item: "root directory",
                                 message: "the entry at tile ID 0 runs 2147483648 tiles, past tile ID 4, the last of the header's max zoom 1")
        #expect(throws: TileStoreError.self) { try PMTilesReader(location: archive).tile(at: TileCoordinate(unchecked: 1, 1, 1)) }
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("Runs whose sum passes the header's addressed_tiles_count, or fall short of it; entries past tile_entries_count")
    func countsAgainstTheHeader() throws {
        /// Runs of `runs` tiles from each tile ID, under a header of max zoom 1 with these counts.
        func archive(_ name: String, _ runs: [(id: UInt64, run: UInt32)], addressed: UInt64 = 0, entries: UInt64 = 0) throws -> TileStoreLocation {
            var builder = PMTilesArchiveBuilder(root: runs.map { PMTilesEntry(tileID: $0.id, offset: 0, length: length, runLength: $0.run) })
            (builder.maxZoom, builder.addressedTiles, builder.tileEntries) = (1, addressed, entries)
            return try location(name, builder)
        }
        try expectEveryReadFails(try archive("over.pmtiles", [(0, 1), (1, 4)], addressed: 2), item: "root directory",
                                 message: "the entry at tile ID 1 (run length 4) brings the tiles addressed to 5, more than the header's addressed_tiles_count of 2")
        try expectEveryReadFails(try archive("short.pmtiles", [(0, 5)], addressed: 9), item: "header",
                                 message: "says 9 addressed tiles (addressed_tiles_count), the directories address 5")
        try expectEveryReadFails(try archive("entries.pmtiles", [(0, 1), (3, 1)], entries: 1), item: "root directory",
                                 message: "the entry at tile ID 3 is tile entry 2, more than the header's tile_entries_count of 1")
    }

    @Test("Two pointers to one leaf: the second is refused as a loop")
    func leafVisitedTwice() throws {
        var builder = PMTilesArchiveBuilder(root: [])
        let inner = try builder.addLeaf([PMTilesEntry(tileID: 5, offset: 0, length: length, runLength: 1)])
        builder.root = PMTilesDirectory.encode([PMTilesEntry(tileID: 5, offset: inner.offset, length: inner.length, runLength: 0),
                                                PMTilesEntry(tileID: 6, offset: inner.offset, length: inner.length, runLength: 0)])
        try expectEveryReadFails(try location("twice.pmtiles", builder), item: "root directory",
                                 message: "the pointer at tile ID 6 leads to the leaf directory at offset 0 a second time (a loop?)")
    }

    @Test("A directory bomb (32 MiB of zeros in 32 KB of gzip) and an oversized plain directory are refused by size")
    func directoryBombs() throws {
        var bomb = PMTilesArchiveBuilder(root: [])
        bomb.leaves = try GzipCodec.compress([UInt8](repeating: 0, count: 32 << 20))
        #expect(bomb.leaves.count < 64 << 10)
        bomb.root = PMTilesDirectory.encode([PMTilesEntry(tileID: 0, offset: 0, length: UInt32(bomb.leaves.count), runLength: 0)])
        try expectEveryReadFails(try location("bomb.pmtiles", bomb), item: "leaf directory at offset 0",
                                 message: "decompresses to more than 16777216 bytes, TileSync's limit (a decompression bomb?)")

        var plain = PMTilesArchiveBuilder(root: [])
        plain.compresses = false
        plain.leaves = [UInt8](repeating: 0, count: (16 << 20) + 1)
        plain.root = PMTilesDirectory.encode([PMTilesEntry(tileID: 0, offset: 0, length: UInt32(plain.leaves.count), runLength: 0)])
        try expectEveryReadFails(try location("plain.pmtiles", plain), item: "leaf directory at offset 0",
                                 message: "is 16777217 bytes, larger than TileSync reads")
    }

    /// An archive of 2^30 tiles at zoom 15 in one run, as its header says.
    func hugeRun() -> PMTilesArchiveBuilder {
        var builder = PMTilesArchiveBuilder(root: [PMTilesEntry(tileID: TileID.firstID(ofZoom: 15), offset: 0, length: length, runLength: 1 << 30)])
        builder.maxZoom = 15
        builder.addressedTiles = 1 << 30
        builder.tileEntries = 1
        return builder
    }

    @Test("An honest archive of 2^30 tiles in one run: counted by arithmetic, and a conversion is refused by --max-tiles")
    func honestHugeRun() throws {
        let archive = try location("ocean.pmtiles", hugeRun())
        let reader = try PMTilesReader(location: archive)
        let started = Date()
        let summary = try reader.summary(matching: .all)
        #expect(summary.zooms == [TileSetSummary.Zoom(z: 15, tileCount: 1 << 30, byteCount: (1 << 30) * Int(length),
                                                      columns: 0...32767, rows: 0...32767)])
        #expect(try reader.amount(matching: .all, upTo: 10) == TileAmount(tiles: 1 << 30, bytes: (1 << 30) * Int(length), distinctBytes: Int(length)))
        let box = try BoundingBox(west: 13.0, south: 52.3, east: 13.8, north: 52.7)
        let berlin = try reader.summary(matching: TileFilter(boundingBox: box))
        #expect(berlin.tileCount == (try WebMercator.tileRanges(covering: box, zoom: 15)).reduce(0) { $0 + $1.count })
        let destination = TileStoreLocation(kind: .mbtiles, address: folder.file("out.mbtiles"))
        #expect(throws: TileStoreError(.limitExceeded, store: archive.address,
                                       message: "holds 1073741824 tiles, more than the 50000000 of --max-tiles; stopped before reading them",
                                       hint: "pass --max-tiles 1073741824 to allow it")) {
            try TileConverter.convert(from: archive, to: destination)
        }
        var options = TileConverter.Options()
        options.limits.maxTiles = 1 << 31
        do {
            _ = try TileConverter.convert(from: archive, to: destination, options: options)
            Issue.record("converted 2^30 tiles")
        } catch let error as TileStoreError {
            #expect(error.kind == .limitExceeded && error.store == destination.address)
            #expect(error.message.hasPrefix("1073741824 tiles need about \((1 << 30) * (Int(length) + 64)) bytes here, and its file system has "))
        }
        #expect(throws: TileStoreError.self) { try TileSynchronizer.sync(from: archive, to: destination) }
        // As a destination or the other side of a comparison, it is refused before it is listed.
        let small = TileStoreLocation(kind: .mbtiles, address: folder.file("small.mbtiles"))
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: small.address)
        let refusal = TileStoreError(.limitExceeded, store: archive.address,
                                     message: "holds 1073741824 tiles, more than the 50000000 of --max-tiles; stopped before reading them",
                                     hint: "pass --max-tiles 1073741824 to allow it")
        #expect(throws: refusal) { try TileSynchronizer.sync(from: small, to: archive) }
        #expect(throws: refusal) { try StoreComparison.compare(small, archive) }
        #expect(!AtomicFile.exists(destination.address))
        #expect(try PMTilesReader(location: archive).header.addressedTilesCount == 1 << 30)
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("A damaged archive that says it holds 2^30 tiles: verify reports the damage and refuses to read them, at once")
    func damagedHugeRun() throws {
        let archive = try location("damaged.pmtiles", hugeRun())
        let handle = try #require(FileHandle(forWritingAtPath: archive.address))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3, 4, 5]))
        try handle.close()
        let started = Date()
        let report = try StoreVerifier.verify(archive)
        #expect(report.problems.map(\.description) == ["header: the sections add up to 200 bytes, the file has 205",
                                                       "header: min zoom 0, the first tile is at zoom 15", "header: the bounds have no area"])
        #expect(report.tilesChecked == 0)
        #expect(report.notes.contains("its tiles were not read: it holds 1073741824 tiles, more than the 50000000 of --max-tiles; stopped before reading them"))
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test("The arithmetic summary equals the tile-by-tile one, with and without a box and a shard")
    func arithmeticMatchesTheWalk() throws {
        var generator = SystemRandomNumberGenerator()
        var entries: [PMTilesEntry] = []
        var id: UInt64 = 0
        while id < TileID.firstID(ofZoom: 7) {
            let run = UInt32.random(in: 1...300, using: &generator)
            entries.append(PMTilesEntry(tileID: id, offset: 0, length: UInt32.random(in: 1...length, using: &generator), runLength: run))
            id += UInt64(run) + UInt64.random(in: 0...200, using: &generator)
        }
        var builder = PMTilesArchiveBuilder(root: entries)
        builder.maxZoom = 8
        let reader = try PMTilesReader(location: try location("random.pmtiles", builder))
        let filters = [TileFilter.all, try TileFilter(minZoom: 2, maxZoom: 5),
                       try TileFilter(boundingBox: try BoundingBox(west: -20, south: -10, east: 60, north: 50)),
                       try TileFilter(boundingBox: try BoundingBox(west: 170, south: -40, east: -170, north: 10)),
                       try TileFilter(boundingBox: try BoundingBox(west: 5, south: 5, east: 30, north: 30), shard: try TileShard(index: 2, count: 3))]
        for filter in filters {
            var walked = TileSetSummary()
            let cursor = try reader.listing(matching: filter)
            while let entry = try cursor.next() { walked.add(entry.coordinate, size: entry.size) }
            #expect(try reader.summary(matching: filter) == walked, "\(filter)")
            let amount = try reader.amount(matching: filter, upTo: 10)
            #expect(amount?.tiles == walked.tileCount && amount?.bytes == walked.byteCount, "\(filter)")
        }
    }
}
