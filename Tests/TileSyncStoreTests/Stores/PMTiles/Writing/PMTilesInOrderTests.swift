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
            ids.append(TileID.id(of: tile.coordinate))
            read[tile.coordinate] = tile.data
        }
        #expect(ids == Array(0..<UInt64(1_365)))
        for tile in tiles { #expect(read[tile.coordinate] == tile.data, "tile \(tile.coordinate)") }

        let zooms = try TileFilter(minZoom: 2, maxZoom: 3)
        var filtered: [UInt64] = []
        let some = try reader.tiles(matching: zooms, preferring: .tileID)
        while let tile = try some.next() { filtered.append(TileID.id(of: tile.coordinate)) }
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

    @Test("The recent blobs forget the one repeated least, first stored first, and halve the others' repeats")
    func recentBlobs() {
        var recent = PMTilesRecentBlobs(limit: 5)
        #expect(recent.limit == 8)
        let hashes = (0..<10).map { ContentHash(of: Self.blob($0)) }
        for index in 0..<8 { recent.remember(hashes[index], offset: UInt64(index * 100), length: UInt32(index + 1)) }
        #expect(!recent.hasEvicted)
        #expect(recent.place(of: hashes[3])?.offset == 300)
        #expect(recent.place(of: hashes[3])?.length == 4)
        #expect(recent.place(of: hashes[0])?.offset == 0)
        recent.remember(hashes[8], offset: 800, length: 9)
        #expect(recent.hasEvicted)
        #expect(recent.place(of: hashes[1]) == nil)
        #expect(recent.place(of: hashes[8])?.offset == 800)
        // Halved: 0's one repeat went, 3 keeps one of two and 8 has one: 0 is the oldest without any.
        recent.remember(hashes[9], offset: 900, length: 10)
        #expect(recent.place(of: hashes[0]) == nil)
        for index in [2, 3, 4, 5, 6, 7, 8, 9] { #expect(recent.place(of: hashes[index]) != nil, "blob \(index)") }
    }

    @Test("Blobs forgotten and stored again are removed at the end: the same tile data and directories as laid out, bytes moved in place")
    func storedTwice() throws {
        let folder = try TemporaryDirectory()
        // 400 tiles over 40 blobs in a scattered order, some of 300 KB: far more distinct blobs than
        // the 8 remembered, so most repeats come after their blob was forgotten.
        let blobs = (0..<40).map { index in
            index % 7 == 0 ? Self.blob(index) + Data(repeating: UInt8(index), count: 300_000) : Self.blob(index)
        }
        let tiles = try (0..<UInt64(400)).map { id in
            let tile = try TileID.zxy(of: id)
            let pick = id < 40 ? Int(id) : Int((id * 7 + id / 13) % 40)
            return Tile(coordinate: TileCoordinate(unchecked: tile.z, tile.x, tile.y), data: blobs[pick])
        }
        var archives: [(header: PMTilesHeader, bytes: Data, duplicates: Int?)] = []
        for (name, ordered) in [("in-order", tiles), ("laid-out", tiles.reversed())] {
            let path = folder.file("\(name).pmtiles")
            let writer = try PMTilesWriter(location: TileStoreLocation(kind: .pmtiles, address: path), overwrite: false)
            writer.recentBlobLimit = 8
            try writer.begin(metadata: TileMetadata(), format: SniffedTileFormat(.png))
            for tile in ordered { try writer.write(tile, hash: ContentHash(of: tile.data), duplicateOf: nil) }
            try writer.finish()
            let header = try Self.archive(path).header
            archives.append((header, try Data(contentsOf: URL(fileURLWithPath: path)), writer.repeatCounts?.duplicateTiles))
            let read = try StoreContents.tiles(path)
            #expect(read.count == 400)
            for tile in tiles { #expect(read[tile.coordinate] == tile.data, "\(name) tile \(tile.coordinate)") }
            #expect(try Self.archive(path).integrityProblems() == [], "\(name)")
        }
        let (inOrder, laidOut) = (archives[0], archives[1])
        #expect(inOrder.header.metadataOffset == 16_384)
        #expect(laidOut.header.metadataOffset == 127 + laidOut.header.rootLength)
        #expect(inOrder.header.tileContentsCount == 40)
        #expect(laidOut.header.tileContentsCount == 40)
        #expect(inOrder.header.addressedTilesCount == 400)
        #expect(inOrder.header.tileEntriesCount == laidOut.header.tileEntriesCount)
        #expect(inOrder.duplicates == 360)
        #expect(laidOut.duplicates == 360)
        let dataLength = blobs.reduce(0) { $0 + $1.count }
        #expect(inOrder.header.tileDataLength == UInt64(dataLength))
        #expect(laidOut.header.tileDataLength == UInt64(dataLength))
        func section(_ archive: (header: PMTilesHeader, bytes: Data, duplicates: Int?), _ offset: UInt64, _ length: UInt64) -> Data {
            archive.bytes.subdata(in: Int(offset)..<Int(offset + length))
        }
        #expect(section(inOrder, inOrder.header.tileDataOffset, inOrder.header.tileDataLength)
                == section(laidOut, laidOut.header.tileDataOffset, laidOut.header.tileDataLength))
        #expect(section(inOrder, inOrder.header.rootOffset, inOrder.header.rootLength)
                == section(laidOut, laidOut.header.rootOffset, laidOut.header.rootLength))
        #expect(inOrder.bytes.count == 16_384 + Int(inOrder.header.metadataLength) + dataLength)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers == [])
    }

    @Test("Tiles written in order so far are handed on in tile-ID order, with their MD5s")
    func replay() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("small.pmtiles")
        let metadata = try GzipCodec.compress(Array("{}".utf8), level: 9)
        let writer = try PMTilesInOrderWriter(path: path, folder: folder.path, metadata: metadata, recentBlobLimit: 8)
        for id in 0..<UInt64(12) { try writer.add(Self.blob(Int(id)), id: id, hash: ContentHash(of: Self.blob(Int(id)))) }
        try writer.add(Self.blob(1), id: 12, hash: ContentHash(of: Self.blob(1)))
        try writer.add(Self.blob(11), id: 13, hash: ContentHash(of: Self.blob(11)))
        #expect(writer.follows(14))
        #expect(!writer.follows(13))
        var replayed: [(UInt64, Data)] = []
        try writer.replay { tile, hash in
            #expect(hash == ContentHash(of: tile.data))
            replayed.append((TileID.id(of: tile.coordinate), tile.data))
        }
        #expect(replayed.map(\.0) == Array(0..<UInt64(14)))
        #expect(replayed.map(\.1) == (0..<12).map(Self.blob) + [Self.blob(1), Self.blob(11)])
    }
}
