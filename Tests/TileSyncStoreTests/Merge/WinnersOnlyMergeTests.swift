import Foundation
import Testing
@testable import TileSync

@Suite("A merge under ignore and override reads only the winning tiles of MBTiles sources: their coordinates come from the tile index")
struct WinnersOnlyMergeTests {
    /// Two MBTiles of zooms 0-1 at the same coordinates with other bytes (`b` salted), and
    /// `nulled` (`a` or `b`) holding NULL bytes at 1/0/0 (TMS row 1).
    static func sources(_ directory: TemporaryDirectory, nulled: String) throws -> [TileStoreLocation] {
        let names = ["a", "b"]
        for name in names {
            let tiles = GeneratedStore.pyramid(maxZoom: 1).map { Tile(coordinate: $0.coordinate, data: GeneratedStore.bytes(for: $0.coordinate, salt: name == "b" ? "b" : "")) }
            try GeneratedStore.write(tiles, to: directory.file("\(name).mbtiles"))
        }
        try SQLiteConnection(path: directory.file("\(nulled).mbtiles"), mode: .readWrite)
            .execute("UPDATE tiles SET tile_data = NULL WHERE zoom_level = 1 AND tile_column = 0 AND tile_row = 1")
        return names.map { TileStoreLocation(kind: .mbtiles, address: directory.file("\($0).mbtiles")) }
    }

    @Test("A losing tile is never read: ignore passes over b's NULL bytes; override and --compare-duplicates read them and stop")
    func losersUnread() throws {
        let directory = try TemporaryDirectory()
        let sources = try Self.sources(directory, nulled: "b")
        let merged = TileStoreLocation.merging(sources, onDuplicate: .ignore)
        let destination = TileStoreLocation(kind: .mbtiles, address: directory.file("ignore.mbtiles"))
        #expect(try TileConverter.convert(from: merged, to: destination).tilesWritten == 5)
        #expect(try StoreComparison.compare(sources[0], destination).isIdentical)
        let tally = try #require((merged.kind as? MergedStoreKind)?.tally)
        #expect(tally.tilesGiven == [5, 0] && tally.heldAlike == 0 && tally.decidedByPolicy == 0 && tally.decidedUncompared == 5)
        let nulled = try TileCoordinate(parsing: "1/0/0")
        for (policy, comparing) in [(MergedStoreKind.DuplicatePolicy.override, false), (.ignore, true)] {
            let other = TileStoreLocation(kind: .mbtiles, address: directory.file("\(policy.rawValue)-\(comparing).mbtiles"))
            #expect(throws: TileStoreError(.invalidTile, store: sources[1].address, item: MBTilesReader.describe(nulled), message: "tile_data is NULL"),
                    "\(policy) comparing: \(comparing)") {
                try TileConverter.convert(from: TileStoreLocation.merging(sources, onDuplicate: policy, comparesDuplicates: comparing), to: other)
            }
            #expect(!FileManager.default.fileExists(atPath: other.address))
        }
    }

    /// Merges `sources` under `ignore`, where the first holds NULL bytes at `nulled`: expects the
    /// merge to stop there naming it, then merges with `--skip-invalid`.
    static func mergeWithNulledWinner(_ sources: [TileStoreLocation], nulled: TileCoordinate,
                                      into destination: TileStoreLocation) throws -> (TileConverter.Summary, MergedStoreKind.Tally) {
        #expect(throws: TileStoreError(.invalidTile, store: sources[0].address, item: MBTilesReader.describe(nulled), message: "tile_data is NULL")) {
            try TileConverter.convert(from: TileStoreLocation.merging(sources, onDuplicate: .ignore), to: destination)
        }
        var options = TileConverter.Options()
        options.skipInvalid = true
        let merged = TileStoreLocation.merging(sources, onDuplicate: .ignore)
        let summary = try TileConverter.convert(from: merged, to: destination, options: options)
        return (summary, try #require((merged.kind as? MergedStoreKind)?.tally))
    }

    @Test("A winner whose bytes prove invalid gives way to the next holder with --skip-invalid, as when its source streamed; without, it stops the merge")
    func invalidWinnerGivesWay() throws {
        let directory = try TemporaryDirectory()
        let sources = try Self.sources(directory, nulled: "a")
        let nulled = try TileCoordinate(parsing: "1/0/0")
        let destination = TileStoreLocation(kind: .mbtiles, address: directory.file("merged.mbtiles"))
        let (summary, tally) = try Self.mergeWithNulledWinner(sources, nulled: nulled, into: destination)
        #expect(summary.tilesWritten == 5 && summary.invalidTiles.count == 1)
        let tiles = try StoreContents.tiles(destination.address)
        #expect(tiles.count == 5)
        #expect(tiles[nulled] == GeneratedStore.bytes(for: nulled, salt: "b"))
        #expect(tiles[try TileCoordinate(parsing: "1/1/1")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "1/1/1")))
        #expect(tally.tilesGiven == [4, 1] && tally.decidedUncompared == 4, "1/0/0 counts as held by b alone")
    }

    @Test("A folder's losing files are not opened (an empty one passes unseen under ignore); a local PMTiles lists its sizes, so different ones are decided for free")
    func foldersAndArchives() throws {
        let directory = try TemporaryDirectory()
        let pyramid = GeneratedStore.pyramid(maxZoom: 1)
        for (name, salt) in [("a", ""), ("b", "bb")] {
            let tiles = pyramid.map { Tile(coordinate: $0.coordinate, data: GeneratedStore.bytes(for: $0.coordinate, salt: salt)) }
            try GeneratedStore.write(tiles, to: directory.file(name))
            try GeneratedStore.write(tiles, to: directory.file("\(name).pmtiles"))
        }
        let emptied = directory.file("b/1/0/0.png")
        #expect(FileManager.default.createFile(atPath: emptied, contents: Data()))
        let folders = ["a", "b"].map { TileStoreLocation(kind: .directory, address: directory.file($0)) }
        let merged = TileStoreLocation.merging(folders, onDuplicate: .ignore)
        let destination = TileStoreLocation(kind: .mbtiles, address: directory.file("folders.mbtiles"))
        #expect(try TileConverter.convert(from: merged, to: destination).tilesWritten == 5)
        #expect(try StoreComparison.compare(folders[0], destination).isIdentical)
        let folderTally = try #require((merged.kind as? MergedStoreKind)?.tally)
        #expect(folderTally.decidedByPolicy == 0 && folderTally.decidedUncompared == 5, "a folder lists no sizes")
        #expect(throws: TileStoreError(.invalidTile, store: folders[1].address, item: "file 1/0/0.png", message: "empty file (0 bytes)")) {
            try TileConverter.convert(from: TileStoreLocation.merging(folders, onDuplicate: .override),
                                      to: TileStoreLocation(kind: .mbtiles, address: directory.file("override.mbtiles")))
        }
        let archives = ["a", "b"].map { TileStoreLocation(kind: .pmtiles, address: directory.file("\($0).pmtiles")) }
        let joined = TileStoreLocation.merging(archives, onDuplicate: .override)
        let archiveDestination = TileStoreLocation(kind: .mbtiles, address: directory.file("archives.mbtiles"))
        #expect(try TileConverter.convert(from: joined, to: archiveDestination).tilesWritten == 5)
        #expect(try StoreComparison.compare(archives[1], archiveDestination).isIdentical)
        let archiveTally = try #require((joined.kind as? MergedStoreKind)?.tally)
        #expect(archiveTally.tilesGiven == [0, 5] && archiveTally.decidedByPolicy == 5 && archiveTally.decidedUncompared == 0)
    }

    @Test("The lazy cursor lists coordinates in index order and reads any tile asked for: each, every third, none then the last")
    func lazyCursorReadsWhatIsAsked() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("pyramid.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 3), to: path)
        let expected = GeneratedStore.pyramid(maxZoom: 3).map(\.coordinate)
            .sorted { ($0.z, $0.x, $0.tmsY) < ($1.z, $1.x, $1.tmsY) }
        let asks: [(String, (Int) -> Bool)] = [("each", { _ in true }), ("every third", { $0 % 3 == 2 }), ("the last", { $0 == expected.count - 1 })]
        for (name, asked) in asks {
            let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path))
            let cursor = try #require(try reader.lazyTiles(matching: .all))
            #expect(throws: TileStoreError.self) { try cursor.data() }
            var listed: [TileCoordinate] = []
            while let coordinate = try cursor.next() {
                if asked(listed.count) {
                    #expect(try cursor.data() == GeneratedStore.bytes(for: coordinate), "\(name): \(coordinate)")
                    #expect(try cursor.data() == GeneratedStore.bytes(for: coordinate), "\(name): \(coordinate) asked twice")
                }
                listed.append(coordinate)
                #expect(cursor.knownSize == nil)
            }
            #expect(listed == expected, "\(name)")
        }
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: path))
        let zoomTwo = try #require(try reader.lazyTiles(matching: try TileFilter(minZoom: 2, maxZoom: 2)))
        var count = 0
        while let coordinate = try zoomTwo.next() {
            let data = try zoomTwo.data()
            #expect(coordinate.z == 2 && data == GeneratedStore.bytes(for: coordinate))
            count += 1
        }
        #expect(count == 16)
    }
}
