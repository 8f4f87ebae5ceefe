import Foundation
import Testing
@testable import TileSync

@Suite("PMTiles written in one pass while tiles come in tile-ID order")
struct PMTilesInOrderTests {
    private static func blob(_ index: Int) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("blob \(index)".utf8))
    }

    private static func archive(_ path: String) throws -> PMTilesReader {
        try PMTilesReader(location: TileStoreLocation(kind: .pmtiles, address: path))
    }

    @Test("An indexed MBTiles streams in ascending tile IDs, every tile once, filters kept, bad rows named")
    func tileIDCursor() throws {
        let folder = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 5)
        let path = folder.file("a.mbtiles")
        try GeneratedStore.write(tiles, to: path)
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path))
        let cursor = try reader.tiles(matching: .all, preferring: .tileID)
        #expect(cursor is MBTilesTileIDCursor)
        var ids: [UInt64] = []
        var read: [TileCoordinate: Data] = [:]
        while let tile = try cursor.next() {
            ids.append(PMTilesTileID.id(of: tile.coordinate))
            read[tile.coordinate] = tile.data
        }
        #expect(ids == Array(0..<UInt64(1_365)))
        for tile in tiles { #expect(read[tile.coordinate] == tile.data, "tile \(tile.coordinate)") }

        let zooms = try TileFilter(minZoom: 2, maxZoom: 3)
        var filtered: [UInt64] = []
        let some = try reader.tiles(matching: zooms, preferring: .tileID)
        while let tile = try some.next() { filtered.append(PMTilesTileID.id(of: tile.coordinate)) }
        #expect(filtered == Array(5..<85))

        let connection = try SQLiteConnection(path: path, mode: .readWrite)
        try connection.execute("INSERT INTO tiles VALUES (1, 'x', 0, X'01'); UPDATE tiles SET tile_data = NULL WHERE zoom_level = 2 AND tile_column = 0 AND tile_row = 3")
        let again = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path)).tiles(matching: .all, preferring: .tileID)
        var messages: [String] = []
        var count = 0
        while true {
            do {
                guard try again.next() != nil else { break }
                count += 1
            } catch let error as TileStoreError {
                messages.append("\(error.item ?? ""): \(error.message)")
            }
        }
        #expect(count == 1_364)
        #expect(messages == ["row (zoom_level 1, tile_column x, tile_row 0): tile_column is 'x', not an integer",
                             "tile 2/0/0 (TMS row 3): tile_data is NULL"])
    }

    @Test("A folder (out of tile-ID order) and an indexed MBTiles give the same tiles, counts and directories")
    func bothWays() throws {
        let folder = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 6).enumerated().map { index, tile in
            Tile(coordinate: tile.coordinate, data: index % 3 == 0 ? Self.blob(index % 5) : tile.data)
        }
        try GeneratedStore.write(tiles, to: folder.file("a.mbtiles"))
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: folder.file("a.mbtiles")), to: TileStoreLocation(parsing: folder.file("tree")))
        for name in ["a.mbtiles", "tree"] {
            _ = try TileConverter.convert(from: TileStoreLocation(parsing: folder.file(name)),
                                          to: TileStoreLocation(parsing: folder.file("\(name).pmtiles")))
        }
        let inOrder = try Self.archive(folder.file("a.mbtiles.pmtiles")).header
        let laidOut = try Self.archive(folder.file("tree.pmtiles")).header
        #expect(inOrder.metadataOffset == 16_384)
        #expect(inOrder.tileDataOffset == 16_384 + inOrder.metadataLength)
        #expect(laidOut.metadataOffset == 127 + laidOut.rootLength)
        for header in [inOrder, laidOut] {
            #expect(header.addressedTilesCount == 5_461)
            #expect(header.tileContentsCount == UInt64(5_461 - 1_821 + 5))
        }
        #expect(inOrder.tileEntriesCount == laidOut.tileEntriesCount)
        #expect(inOrder.rootLength == laidOut.rootLength)
        #expect(inOrder.tileDataLength == laidOut.tileDataLength)
        for name in ["a.mbtiles.pmtiles", "tree.pmtiles"] {
            let read = try StoreContents.tiles(folder.file(name))
            #expect(read.count == tiles.count)
            for tile in tiles { #expect(read[tile.coordinate] == tile.data, "\(name) tile \(tile.coordinate)") }
            #expect(try Self.archive(folder.file(name)).integrityProblems() == [])
        }
    }

    @Test("A forgotten blob that comes again is caught: the archive is laid out again and stores it once")
    func forgottenBlob() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("small.pmtiles")
        let metadata = try GzipCodec.compress(Array("{}".utf8), level: 9)
        var writer = try PMTilesInOrderWriter(path: path, folder: folder.path, metadata: metadata, recentBlobLimit: 4)
        for id in 0..<UInt64(8) { try writer.add(Self.blob(Int(id)), id: id, hash: ContentHash(of: Self.blob(Int(id)))) }
        try writer.add(Self.blob(1), id: 8, hash: ContentHash(of: Self.blob(1)))
        #expect(try writer.endTileData() == false)
        var replayed: [(UInt64, Data)] = []
        try writer.replay { tile, hash in
            #expect(hash == ContentHash(of: tile.data))
            replayed.append((PMTilesTileID.id(of: tile.coordinate), tile.data))
        }
        #expect(replayed.map(\.0) == Array(0..<UInt64(9)))
        #expect(replayed.map(\.1) == (0..<8).map(Self.blob) + [Self.blob(1)])

        writer = try PMTilesInOrderWriter(path: path, folder: folder.path, metadata: metadata, recentBlobLimit: 4)
        for id in 0..<UInt64(12) { try writer.add(Self.blob(Int(id % 3)), id: id, hash: ContentHash(of: Self.blob(Int(id % 3)))) }
        #expect(try writer.endTileData())
        #expect(writer.contents == 3)

        let tiles = try (0..<UInt64(40)).map { id in
            let tile = try PMTilesTileID.zxy(of: id)
            return Tile(coordinate: TileCoordinate(unchecked: tile.z, tile.x, tile.y), data: Self.blob(id < 20 ? Int(id) : Int(id - 20)))
        }
        let whole = try PMTilesWriter(location: TileStoreLocation(kind: .pmtiles, address: folder.file("whole.pmtiles")), overwrite: false)
        whole.recentBlobLimit = 4
        try whole.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
        for tile in tiles { try whole.write(tile, hash: ContentHash(of: tile.data), duplicateOf: nil) }
        try whole.finish()
        #expect(whole.repeatCounts?.duplicateTiles == 20)
        let header = try Self.archive(folder.file("whole.pmtiles")).header
        #expect(header.tileContentsCount == 20)
        #expect(header.addressedTilesCount == 40)
        #expect(header.metadataOffset == 127 + header.rootLength)
        let read = try StoreContents.tiles(folder.file("whole.pmtiles"))
        for tile in tiles { #expect(read[tile.coordinate] == tile.data, "tile \(tile.coordinate)") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers == [])
    }
}
