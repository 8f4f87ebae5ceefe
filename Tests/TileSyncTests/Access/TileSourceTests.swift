import Foundation
import Testing
@testable import TileSync
@testable import TileSyncMapKitSample

@Suite("TileSource: reads for apps")
struct TileSourceTests {
    /// 341 distinct tiles (zooms 0-4) in a store of the given kind.
    static func store(_ name: String, in directory: TemporaryDirectory) throws -> (String, [Tile]) {
        let tiles = GeneratedStore.pyramid(maxZoom: 4)
        try GeneratedStore.write(tiles, to: directory.file(name))
        return (directory.file(name), tiles)
    }

    @Test("8 threads reading random coordinates get the same bytes as one thread", arguments: ["a.mbtiles", "a-folder", "a.tar", "a.tar.gz"])
    func concurrentReads(store name: String) throws {
        let directory = try TemporaryDirectory()
        let (path, tiles) = try Self.store(name, in: directory)
        let source = try TileSource(path: path)
        let queries = (0..<4000).map { i in
            // Deterministic pseudo-random coordinates, a quarter of them absent (zoom 5).
            let z = (i * 7919) % 6, size = 1 << z
            return TileCoordinate(unchecked: z, (i * 104_729) % size, (i * 1_299_709) % size)
        }
        let sequential = try queries.map { try source.tile(at: $0) }
        let expected = Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) })
        #expect(sequential == queries.map { expected[$0] })
        #expect(sequential.contains(nil) && sequential.contains { $0 != nil })

        let results = ResultsBox(count: queries.count)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in stride(from: thread, to: queries.count, by: 8) {
                results.set(index, Result { try source.tile(at: queries[index]) })
            }
        }
        #expect(results.values() == sequential)
    }

    @Test("Opening a large MBTiles reads no tiles: open and first read take milliseconds (reported)")
    func largeOpen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("large.mbtiles")
        let writer = try MBTilesWriter(location: TileStoreLocation(kind: .mbtiles, address: path), overwrite: false)
        try writer.begin(metadata: TileMetadata())
        var written = 0
        outer: for z in 0...10 {
            for coordinate in try TileRange.world(z: z) {
                try writer.write(Tile(coordinate: coordinate, data: Data("t\(coordinate)".utf8)))
                written += 1
                if written == 350_000 { break outer }
            }
        }
        try writer.finish()
        let clock = ContinuousClock()
        var tile: Data?
        let elapsed = try clock.measure {
            let source = try TileSource(path: path)
            tile = try source.tile(z: 9, x: 300, y: 200)
        }
        #expect(tile == Data("t9/300/200".utf8))
        print("TileSource: opened a 350,000-tile MBTiles and read one tile in \(elapsed)")
    }

    @Test("A folder's tile files open without being read: identity, bytes, a descriptor handed over; an MBTiles keeps no files")
    func tileFiles() throws {
        let directory = try TemporaryDirectory()
        let (folder, _) = try Self.store("a-folder", in: directory)
        let source = try TileSource(path: folder)
        #expect(source.keepsTilesInFiles)
        let coordinate = try TileCoordinate(z: 3, x: 5, y: 2)
        let expected = GeneratedStore.bytes(for: coordinate)
        let file = try #require(try source.tileFile(at: coordinate))
        var status = stat()
        #expect(lstat(folder + "/3/5/2.png", &status) == 0)
        #expect(file.size == expected.count)
        #expect(file.identity.inode == UInt64(status.st_ino) && file.identity.device == UInt64(status.st_dev))
        #expect(file.identity.modificationTime == Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec))
        #expect(try file.bytes() == expected)
        #expect(try file.bytes() == expected, "read from the start again")
        let descriptor = file.takeDescriptor()
        #expect(descriptor >= 0 && file.takeDescriptor() == -1)
        #expect(throws: TileStoreError.self) { try file.bytes() }
        #expect(lseek(descriptor, 0, SEEK_END) == off_t(expected.count))
        close(descriptor)
        #expect(try source.tileFile(at: TileCoordinate(z: 4, x: 15, y: 15)) != nil)
        #expect(try source.tileFile(at: TileCoordinate(z: 5, x: 0, y: 0)) == nil, "no tile there")

        #expect(FileManager.default.createFile(atPath: folder + "/2/0/0.png", contents: Data()))
        #expect(throws: TileStoreError(.invalidTile, store: folder, item: "file 2/0/0.png", message: "empty file (0 bytes)")) {
            try source.tileFile(at: TileCoordinate(z: 2, x: 0, y: 0))
        }
        let (mbtiles, _) = try Self.store("a.mbtiles", in: directory)
        let database = try TileSource(path: mbtiles)
        #expect(!database.keepsTilesInFiles)
        #expect(try database.tileFile(at: coordinate) == nil)
        #expect(try database.tile(at: coordinate) == expected)
    }

    @Test("Bad coordinates and missing stores are errors, not traps")
    func errors() throws {
        let directory = try TemporaryDirectory()
        let (path, _) = try Self.store("a.mbtiles", in: directory)
        let source = try TileSource(path: path)
        #expect(throws: TileCoordinateError.columnOutOfRange(z: 1, x: 2)) { try source.tile(z: 1, x: 2, y: 0) }
        #expect(try source.tile(longitude: 13.4, latitude: 52.5, zoom: 4) == GeneratedStore.bytes(for: try TileCoordinate(z: 4, x: 8, y: 5)))
        #expect(throws: TileStoreError.self) { try TileSource(path: directory.file("none.mbtiles")) }
    }

    @Test("The MapKit sample's loader serves the bundled sample by XYZ path")
    func mapKitLoader() throws {
        let world = Fixtures.packageRoot.appendingPathComponent("Samples/world.mbtiles").path
        let loader = try MBTilesTileLoader(path: world)
        #expect(loader.zooms == 0...3)
        let northWest = try loader.data(for: .init(x: 0, y: 0, z: 1))
        #expect(northWest == FileManager.default.contents(atPath: Fixtures.packageRoot.appendingPathComponent("Samples/world/1/0/0.png").path))
        #expect(try loader.data(for: .init(x: 0, y: 0, z: 5)) == nil, "beyond maxzoom")
        #expect(try loader.data(for: .init(x: 9, y: 0, z: 2)) == nil, "outside the grid")
    }

    @Test("The MapKit sample's async loader gives the same bytes through TileSource.loadTile")
    func mapKitAsyncLoader() async throws {
        let world = Fixtures.packageRoot.appendingPathComponent("Samples/world.mbtiles").path
        let loader = try MBTilesTileLoader(path: world)
        for (x, y, z) in [(0, 0, 1), (1, 1, 1), (5, 2, 3)] {
            let expected = try loader.data(for: .init(x: x, y: y, z: z))
            #expect(expected != nil)
            #expect(try await loader.loadData(for: .init(x: x, y: y, z: z)) == expected)
        }
        #expect(try await loader.loadData(for: .init(x: 0, y: 0, z: 5)) == nil)
    }
}

/// Results written from several threads at distinct indexes.
final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Result<Data?, any Error>?]

    init(count: Int) {
        storage = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ value: Result<Data?, any Error>) {
        lock.lock()
        storage[index] = value
        lock.unlock()
    }

    func values() -> [Data?] {
        lock.lock()
        defer { lock.unlock() }
        return storage.map { (try? $0?.get()) ?? nil }
    }
}
