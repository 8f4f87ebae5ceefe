import Foundation
import Testing
@testable import TileSync

@Suite("PMTiles store: writer, reader, updater")
struct PMTilesStoreTests {
    static let shared = (0..<8).map { Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("shared \($0)".utf8)) }

    /// Tiles of zooms 0-6 in a shuffled order, every third one a shared blob.
    static func shuffledTiles() -> [Tile] {
        var generator = SystemRandomNumberGenerator()
        let tiles = GeneratedStore.pyramid(maxZoom: 6).enumerated().map { index, tile in
            index % 3 == 0 ? Tile(coordinate: tile.coordinate, data: shared[index % shared.count]) : tile
        }
        return tiles.shuffled(using: &generator)
    }

    @Test("Tiles in any order come back byte for byte, in tile-ID order, clustered, equal blobs once")
    func roundTrip() throws {
        let folder = try TemporaryDirectory()
        let tiles = Self.shuffledTiles()
        let location = TileStoreLocation(kind: .pmtiles, address: folder.file("a.pmtiles"))
        let writer = try PMTilesWriter(location: location, overwrite: false)
        try writer.begin(metadata: GeneratedStore.defaultMetadata, format: SniffedTileFormat(.png))
        for tile in tiles { try writer.write(tile) }
        try writer.write(Tile(coordinate: TileCoordinate(unchecked: 3, 2, 1), data: Self.shared[1]))
        try writer.finish()

        var expected = Dictionary(tiles.map { ($0.coordinate, $0.data) }, uniquingKeysWith: { $1 })
        expected[TileCoordinate(unchecked: 3, 2, 1)] = Self.shared[1]
        let reader = try PMTilesReader(location: location)
        let header = reader.header
        let distinctBlobs = Set(expected.values).count
        #expect(header.addressedTilesCount == 5461)
        #expect(header.tileContentsCount == UInt64(distinctBlobs))
        #expect(header.isClustered && header.minZoom == 0 && header.maxZoom == 6)
        #expect(header.tileTypeValue == PMTilesHeader.TileType.png.rawValue && header.tileCompressionValue == PMTilesHeader.Compression.none.rawValue)
        #expect(header.leafDirectoriesLength == 0 && header.rootOffset + header.rootLength <= 16_384)
        #expect(try reader.integrityProblems() == [])

        let cursor = try reader.tiles(matching: .all)
        var lastID: UInt64?
        var read = 0
        while let tile = try cursor.next() {
            let id = TileID.id(of: tile.coordinate)
            if let lastID { #expect(id > lastID) }
            lastID = id
            #expect(tile.data == expected[tile.coordinate], "tile \(tile.coordinate)")
            read += 1
        }
        #expect(read == 5461)
        #expect(try reader.tile(at: TileCoordinate(unchecked: 3, 2, 1)) == Self.shared[1])
        #expect(try reader.tile(at: TileCoordinate(unchecked: 6, 63, 63)) == expected[TileCoordinate(unchecked: 6, 63, 63)])
        #expect(try reader.tile(at: TileCoordinate(unchecked: 7, 0, 0)) == nil)
        let metadata = try reader.metadata()
        #expect(metadata["custom key"] == "kept ✓" && metadata.contains("nothing") && metadata["nothing"] == nil)
        #expect(metadata["name"] == "generated" && metadata["minzoom"] == "0" && metadata["maxzoom"] == "6")
        #expect(writer.repeatCounts?.repeated.count == 1)
        #expect(writer.repeatCounts?.duplicateTiles == 5461 - distinctBlobs)
    }

    @Test("Consecutive tile IDs with one blob are one run-length entry")
    func runLengths() throws {
        let folder = try TemporaryDirectory()
        let location = TileStoreLocation(kind: .pmtiles, address: folder.file("ocean.pmtiles"))
        let writer = try PMTilesWriter(location: location, overwrite: false)
        try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        for tile in GeneratedStore.pyramid(maxZoom: 5) where tile.coordinate.z == 5 {
            try writer.write(Tile(coordinate: tile.coordinate, data: Self.shared[0]))
        }
        try writer.write(GeneratedStore.pyramid(maxZoom: 0)[0])
        try writer.finish()
        let reader = try PMTilesReader(location: location)
        #expect(reader.header.addressedTilesCount == 1025)
        #expect(reader.header.tileEntriesCount == 2)
        #expect(reader.header.tileContentsCount == 2)
        #expect(reader.archive.root == [
            PMTilesEntry(tileID: 0, offset: 0, length: UInt32(GeneratedStore.bytes(for: TileCoordinate(unchecked: 0, 0, 0)).count), runLength: 1),
            PMTilesEntry(tileID: 341, offset: UInt64(GeneratedStore.bytes(for: TileCoordinate(unchecked: 0, 0, 0)).count),
                         length: UInt32(Self.shared[0].count), runLength: 1024),
        ])
        #expect(try reader.summary(matching: .all).tileCount == 1025)
    }

    @Test("Over 16,384 entries go to leaf directories sized as go-pmtiles does; random access still finds every tile")
    func leaves() throws {
        let folder = try TemporaryDirectory()
        let location = TileStoreLocation(kind: .pmtiles, address: folder.file("big.pmtiles"))
        let writer = try PMTilesWriter(location: location, overwrite: false)
        try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        let tiles = GeneratedStore.pyramid(maxZoom: 7)
        for tile in tiles.reversed() { try writer.write(tile) }
        try writer.finish()
        let reader = try PMTilesReader(location: location)
        #expect(reader.header.tileEntriesCount == 21_845)
        #expect(reader.header.leafDirectoriesLength > 0)
        #expect(reader.archive.root.count == 6 && reader.archive.root.allSatisfy(\.isLeaf), "leaves of 4,096 entries")
        #expect(reader.header.rootOffset + reader.header.rootLength <= 16_384)
        #expect(try reader.integrityProblems() == [])
        for tile in tiles where tile.coordinate.x % 7 == 0 {
            #expect(try reader.tile(at: tile.coordinate) == tile.data)
        }
        for order in [TileOrder.zoomColumnRow, .zoomColumnTMSRow] {
            let cursor = try reader.tiles(matching: .all, preferring: order)
            var previous: TileCoordinate?
            var count = 0
            while let tile = try cursor.next() {
                if let previous { #expect(order.precedes(previous, tile.coordinate), "\(previous) before \(tile.coordinate)") }
                #expect(tile.data == GeneratedStore.bytes(for: tile.coordinate))
                previous = tile.coordinate
                count += 1
            }
            #expect(count == tiles.count)
        }
        let zoom7 = try reader.summary(matching: TileFilter(minZoom: 7, maxZoom: 7))
        #expect(zoom7.tileCount == 16_384 && zoom7.zooms.count == 1)
    }

    @Test("Blobs larger than a read, and more than a window of them, come back in tile-ID order")
    func largeBlobs() throws {
        let folder = try TemporaryDirectory()
        let location = TileStoreLocation(kind: .pmtiles, address: folder.file("large.pmtiles"))
        var tiles = GeneratedStore.pyramid(maxZoom: 5).map { tile in
            Tile(coordinate: tile.coordinate, data: tile.data + Data(repeating: UInt8(tile.coordinate.x & 0xFF), count: 8000 + tile.coordinate.y * 101))
        }
        tiles[7] = Tile(coordinate: tiles[7].coordinate, data: tiles[7].data + Data(repeating: 7, count: 3 << 20))
        tiles[900] = Tile(coordinate: tiles[900].coordinate, data: tiles[900].data + Data(repeating: 9, count: 9 << 20))
        let writer = try PMTilesWriter(location: location, overwrite: false)
        try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        for tile in tiles.reversed() { try writer.write(tile) }
        try writer.finish()
        let read = try StoreContents.tiles(location.address)
        #expect(read.count == tiles.count)
        for tile in tiles { #expect(read[tile.coordinate] == tile.data, "tile \(tile.coordinate)") }
        #expect(try PMTilesReader(location: location).integrityProblems() == [])
    }

    @Test("An unclustered archive (blobs in any order, shared) reads by its offsets")
    func unclustered() throws {
        let folder = try TemporaryDirectory()
        let first = Array(GeneratedStore.bytes(for: TileCoordinate(unchecked: 1, 0, 0)))
        let second = Array(GeneratedStore.bytes(for: TileCoordinate(unchecked: 0, 0, 0)))
        var builder = PMTilesArchiveBuilder(root: [
            PMTilesEntry(tileID: 0, offset: UInt64(first.count), length: UInt32(second.count), runLength: 1),
            PMTilesEntry(tileID: 1, offset: 0, length: UInt32(first.count), runLength: 1),
            PMTilesEntry(tileID: 3, offset: UInt64(first.count), length: UInt32(second.count), runLength: 2),
        ])
        builder.data = first + second
        try builder.write(to: folder.file("u.pmtiles"))
        let tiles = try StoreContents.tiles(folder.file("u.pmtiles"))
        #expect(tiles == [TileCoordinate(unchecked: 0, 0, 0): Data(second), TileCoordinate(unchecked: 1, 0, 0): Data(first),
                          TileCoordinate(unchecked: 1, 1, 1): Data(second), TileCoordinate(unchecked: 1, 1, 0): Data(second)])
        let reader = try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: folder.file("u.pmtiles")))
        #expect(try reader.tile(at: TileCoordinate(unchecked: 1, 0, 1)) == nil)
        #expect(try reader.tile(at: TileCoordinate(unchecked: 1, 1, 0)) == Data(second))
    }

    @Test("An empty tile set makes a valid archive of no tiles")
    func empty() throws {
        let folder = try TemporaryDirectory()
        let location = TileStoreLocation(kind: .pmtiles, address: folder.file("none.pmtiles"))
        let writer = try PMTilesWriter(location: location, overwrite: false)
        try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.unknown))
        try writer.finish()
        let reader = try PMTilesReader(location: location)
        #expect(reader.header.addressedTilesCount == 0)
        #expect(try reader.tiles(matching: .all).next() == nil)
    }

    @Test("abort and a refused destination leave nothing behind")
    func atomicity() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("a.pmtiles")
        let location = TileStoreLocation(kind: .pmtiles, address: path)
        let writer = try PMTilesWriter(location: location, overwrite: false)
        try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        for tile in GeneratedStore.pyramid(maxZoom: 3) { try writer.write(tile) }
        writer.abort()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
        let cancelled = try PMTilesWriter(location: location, overwrite: false, isCancelled: { true })
        try cancelled.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        for tile in GeneratedStore.pyramid(maxZoom: 3) { try cancelled.write(tile) }
        #expect(throws: TileStoreError(.interrupted, store: path, message: "interrupted; the destination was not changed")) {
            try cancelled.finish()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [])
        try Data("x".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: TileStoreError.self) { try PMTilesWriter(location: location, overwrite: false) }
    }

    @Test("Conversions: MBTiles -> PMTiles -> MBTiles keeps every tile and every key; sync rewrites only on change")
    func convertAndSync() throws {
        let folder = try TemporaryDirectory()
        var metadata = GeneratedStore.defaultMetadata
        metadata["json"] = #"{"vector_layers":[{"id":"water"}]}"#
        metadata["bounds"] = "-180,-85.0511287,180,85.0511287"
        metadata["center"] = "0,0,2"
        let tiles = GeneratedStore.pyramid(maxZoom: 4)
        try GeneratedStore.write(tiles, to: folder.file("a.mbtiles"), metadata: metadata)
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: folder.file("a.mbtiles")),
                                      to: TileStoreLocation(parsing: folder.file("b.pmtiles")))
        let back = try TileConverter.convert(from: TileStoreLocation(parsing: folder.file("b.pmtiles")),
                                             to: TileStoreLocation(parsing: folder.file("c.mbtiles")))
        #expect(back.tilesWritten == tiles.count)
        #expect(try StoreContents.mbtilesRows(folder.file("c.mbtiles")) == (try StoreContents.mbtilesRows(folder.file("a.mbtiles"))))
        let original = try StoreContents.mbtilesMetadata(folder.file("a.mbtiles"))
        let roundTripped = try StoreContents.mbtilesMetadata(folder.file("c.mbtiles"))
        for (key, value) in original { #expect(roundTripped[key] == value, "key \(key)") }

        let destination = try TileStoreLocation(parsing: folder.file("b.pmtiles"))
        let before = try FileManager.default.attributesOfItem(atPath: destination.address)[.modificationDate] as? Date
        let noop = try TileSynchronizer.sync(from: TileStoreLocation(parsing: folder.file("a.mbtiles")), to: destination)
        #expect(noop.added == 0 && noop.replaced == 0 && noop.deleted == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: destination.address)[.modificationDate] as? Date == before)

        var changed = tiles.filter { $0.coordinate.z < 4 }
        changed[3] = Tile(coordinate: changed[3].coordinate, data: Self.shared[2])
        try GeneratedStore.write(changed, to: folder.file("d.mbtiles"), metadata: metadata)
        var options = TileSynchronizer.Options()
        options.delete = true
        let summary = try TileSynchronizer.sync(from: TileStoreLocation(parsing: folder.file("d.mbtiles")), to: destination, options: options)
        #expect(summary.replaced == 1 && summary.deleted == 256 && summary.added == 0)
        let after = try StoreContents.tiles(destination.address)
        #expect(after.count == changed.count)
        #expect(after[changed[3].coordinate] == Self.shared[2])
        #expect(try PMTilesReader(location: destination).integrityProblems() == [])
    }

    private static func open(_ name: String, _ builder: PMTilesArchiveBuilder, in folder: TemporaryDirectory) throws -> PMTilesReader {
        try builder.write(to: folder.file(name))
        return try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: folder.file(name)))
    }

    private static func readAll(_ reader: PMTilesReader) throws -> Int {
        let cursor = try reader.tiles(matching: .all)
        var count = 0
        while try cursor.next() != nil { count += 1 }
        return count
    }

    private static let hostileTileLength = UInt32(GeneratedStore.bytes(for: TileCoordinate(unchecked: 0, 0, 0)).count)

    @Test("Broken directories (a leaf that points to itself, leaves that go backwards): an error naming the file and the leaf")
    func hostileDirectories() throws {
        let folder = try TemporaryDirectory()
        func open(_ name: String, _ builder: PMTilesArchiveBuilder) throws -> PMTilesReader { try Self.open(name, builder, in: folder) }
        let readAll = Self.readAll, length = Self.hostileTileLength

        // A leaf that points to itself.
        var looping = PMTilesArchiveBuilder(root: [])
        let leaf = try looping.addLeaf([PMTilesEntry(tileID: 0, offset: 0, length: 40, runLength: 0)])
        looping.leaves = try GzipCodec.compress(PMTilesDirectory.encode([PMTilesEntry(tileID: 0, offset: 0, length: leaf.length, runLength: 0)]))
        looping.root = PMTilesDirectory.encode([PMTilesEntry(tileID: 0, offset: 0, length: UInt32(looping.leaves.count), runLength: 0)])
        let loop = try open("loop.pmtiles", looping)
        #expect(throws: TileStoreError(.corrupt, store: folder.file("loop.pmtiles"), item: "leaf directory at offset 0",
                                       message: "the pointer at tile ID 0 leads to the leaf directory at offset 0 a second time (a loop?)")) { try readAll(loop) }
        #expect(throws: TileStoreError.self) { try loop.tile(at: TileCoordinate(unchecked: 0, 0, 0)) }

        // Leaves whose entries go backwards across leaves.
        var backwards = PMTilesArchiveBuilder(root: [])
        let first = try backwards.addLeaf([PMTilesEntry(tileID: 10, offset: 0, length: length, runLength: 1)])
        let second = try backwards.addLeaf([PMTilesEntry(tileID: 4, offset: 0, length: length, runLength: 1)])
        backwards.root = PMTilesDirectory.encode([PMTilesEntry(tileID: 0, offset: first.offset, length: first.length, runLength: 0),
                                                  PMTilesEntry(tileID: 2, offset: second.offset, length: second.length, runLength: 0)])
        #expect(throws: TileStoreError(.corrupt, store: folder.file("backwards.pmtiles"), item: "leaf directory at offset 0",
                                       message: "the run from tile ID 10 passes its parent's next entry (tile ID 2)")) {
            try readAll(try open("backwards.pmtiles", backwards))
        }

    }

    @Test("Tiles past the data section or beyond zoom 30: invalid tiles, named, and the stream goes on")
    func hostileTiles() throws {
        let folder = try TemporaryDirectory()
        func open(_ name: String, _ builder: PMTilesArchiveBuilder) throws -> PMTilesReader { try Self.open(name, builder, in: folder) }
        let length = Self.hostileTileLength

        // A tile past the tile data: an invalid tile, and the stream goes on.
        let past = try open("past.pmtiles", PMTilesArchiveBuilder(root: [PMTilesEntry(tileID: 0, offset: 0, length: length, runLength: 1),
                                                                          PMTilesEntry(tileID: 1, offset: 500, length: 9, runLength: 1),
                                                                          PMTilesEntry(tileID: 2, offset: 0, length: length, runLength: 1)]))
        let cursor = try past.tiles(matching: .all)
        #expect(try cursor.next()?.coordinate == TileCoordinate(unchecked: 0, 0, 0))
        #expect(throws: TileStoreError(.invalidTile, store: folder.file("past.pmtiles"), item: "tile 1/0/0 (tile ID 1)",
                                       message: "its bytes (offset 500, length 9) lie past the end of the tile data section (\(length) bytes)")) {
            try cursor.next()
        }
        #expect(try cursor.next()?.coordinate == TileCoordinate(unchecked: 1, 0, 1))
        #expect(try cursor.next() == nil)

        // Zoom 31 is valid PMTiles but beyond TileSync's zoom 30: an invalid tile, named.
        let deep = try open("deep.pmtiles", PMTilesArchiveBuilder(root: [PMTilesEntry(tileID: 0, offset: 0, length: length, runLength: 1),
                                                                          PMTilesEntry(tileID: TileID.firstID(ofZoom: 31), offset: 0, length: length, runLength: 1)]))
        let deepCursor = try deep.tiles(matching: .all)
        #expect(try deepCursor.next()?.coordinate == TileCoordinate(unchecked: 0, 0, 0))
        #expect(throws: TileStoreError(.invalidTile, store: folder.file("deep.pmtiles"), item: "tile 31/0/0 (tile ID \(TileID.firstID(ofZoom: 31)))",
                                       message: "zoom 31 is beyond TileSync's limit of 30")) { try deepCursor.next() }
        #expect(try deepCursor.next() == nil)
        #expect(try deep.summary(matching: .all).tileCount == 1)
        let deepRows = try deep.tiles(matching: .all, preferring: .zoomColumnRow)
        #expect(throws: TileStoreError.self) { try deepRows.next() }
        #expect(try deepRows.next()?.coordinate == TileCoordinate(unchecked: 0, 0, 0))
        #expect(try deepRows.next() == nil)

    }

    @Test("Files that are no archive (empty, SQLite, short, truncated, metadata not JSON): an error naming the file")
    func hostileFiles() throws {
        let folder = try TemporaryDirectory()
        func open(_ name: String, _ builder: PMTilesArchiveBuilder) throws -> PMTilesReader { try Self.open(name, builder, in: folder) }
        let length = Self.hostileTileLength

        var notJSON = PMTilesArchiveBuilder(root: [PMTilesEntry(tileID: 0, offset: 0, length: length, runLength: 1)])
        notJSON.metadata = Array("name: x".utf8)
        #expect(throws: TileStoreError.self) { try open("meta.pmtiles", notJSON).metadata() }

        for (name, bytes, kind, message) in [
            ("empty.pmtiles", [UInt8](), TileStoreError.Kind.notATileStore, "is empty (0 bytes), not a PMTiles archive"),
            ("sqlite.pmtiles", Array("SQLite format 3\0".utf8) + [UInt8](repeating: 0, count: 200), .notATileStore, "does not start with the PMTiles magic number"),
            ("short.pmtiles", Array("PMTiles".utf8) + [3, 0, 0], .corrupt, "is 10 bytes, shorter than the 127 of a PMTiles v3 header"),
        ] {
            try Data(bytes).write(to: URL(fileURLWithPath: folder.file(name)))
            do {
                _ = try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: folder.file(name)))
                Issue.record("\(name) opened")
            } catch {
                #expect(error.kind == kind && error.message == message, "\(name): \(error)")
            }
        }
        var truncated = try PMTilesArchiveBuilder(root: [PMTilesEntry(tileID: 0, offset: 0, length: length, runLength: 1)]).bytes()
        truncated.removeLast(Int(length) + 5)
        try Data(truncated).write(to: URL(fileURLWithPath: folder.file("cut.pmtiles")))
        #expect(throws: TileStoreError.self) { try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: folder.file("cut.pmtiles"))) }
    }

    @Test("The external sorter spills runs and merges them in several passes, keeping equal records in input order")
    func externalSorter() throws {
        let folder = try TemporaryDirectory()
        let sorter = ExternalSorter<(key: UInt32, order: UInt32)>(folder: folder.path, purpose: "test", memoryBudget: 0) { $0.key < $1.key }
        var generator = SystemRandomNumberGenerator()
        let count = 1024 * 70 + 17
        for order in 0..<count { try sorter.append((UInt32.random(in: 0..<5000, using: &generator), UInt32(order))) }
        let sorted = try sorter.sorted()
        var previous: (key: UInt32, order: UInt32)?
        var seen = 0
        while let record = try sorted.next() {
            if let previous { #expect(previous.key < record.key || previous.key == record.key && previous.order < record.order) }
            previous = record
            seen += 1
        }
        #expect(seen == count)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [], "scratch files are unlinked at once")

        // Ascending integers, sorted in memory without the closure: in memory and in 9 runs.
        for count in [1_000, 9 * 1024 + 5] {
            let ascending = ExternalSorter<UInt64>(ascendingIn: folder.path, purpose: "test", memoryBudget: 1024 * 8)
            let values = (0..<count).map { UInt64(($0 * 7_919) % count) }
            for value in values { try ascending.append(value) }
            var out: [UInt64] = []
            let records = try ascending.sorted()
            while let value = try records.next() { out.append(value) }
            #expect(out == values.sorted(), "\(count) values")
        }

        let array = ScratchArray(folder: folder.path)
        for index in stride(from: 0, to: 3_000_000, by: 997) { try array.set(UInt64(index * 3), at: index) }
        for index in stride(from: 0, to: 3_000_000, by: 997) { #expect(try array.value(at: index) == UInt64(index * 3)) }
        #expect(try array.value(at: 5) == nil)
    }
}
