import Foundation
import Testing
@testable import TileSync

@Suite("UTFGrids travel with their tiles between MBTiles, folders and tars, and count in sync, diff and verify")
struct UTFGridStoreTests {
    /// A grid document unique to a coordinate (and `salt`), as mb-util writes them.
    static func document(_ coordinate: TileCoordinate, salt: String = "") -> String {
        "grid({\"grid\":[\"  !\",\"!!#\"],\"keys\":[\"\",\"\(coordinate.x)\",\"k\(salt)\"],"
            + "\"data\":{\"\(coordinate.x)\":{\"name\":\"tile \(coordinate) é\",\"n\":\(coordinate.y).5},\"k\(salt)\":{\"z\":\(coordinate.z)}}});"
    }

    static func grid(_ coordinate: TileCoordinate, salt: String = "") throws -> UTFGrid {
        try UTFGrid(coordinate: coordinate, document: Data(document(coordinate, salt: salt).utf8))
    }

    /// Grids on every tile of zooms 0-1, one zoom-2 tile, and one coordinate without a tile.
    static func grids() throws -> [UTFGrid] {
        let coordinates = try [TileCoordinate(z: 0, x: 0, y: 0), TileCoordinate(z: 1, x: 0, y: 0), TileCoordinate(z: 1, x: 0, y: 1),
                               TileCoordinate(z: 1, x: 1, y: 0), TileCoordinate(z: 1, x: 1, y: 1), TileCoordinate(z: 2, x: 3, y: 1),
                               TileCoordinate(z: 3, x: 5, y: 2)]
        return try coordinates.map { try grid($0) }
    }

    static func expected(_ grids: [UTFGrid]) -> [TileCoordinate: String] {
        Dictionary(uniqueKeysWithValues: grids.map { ($0.coordinate, String(decoding: $0.json, as: UTF8.self)) })
    }

    /// An MBTiles of zooms 0-2 with `grids`.
    static func writeSource(_ path: String, grids: [UTFGrid]) throws {
        let writer = try TileStoreLocation(parsing: path).makeWriter()
        try writer.begin(metadata: GeneratedStore.defaultMetadata, format: SniffedTileFormat(.png))
        for tile in GeneratedStore.pyramid(maxZoom: 2) { try writer.write(tile) }
        for grid in grids { try writer.write(grid: grid) }
        try writer.finish()
    }

    @Test("MBTiles -> folder -> tar -> MBTiles keeps every grid byte for byte, at the tiles' layout and scheme",
          arguments: ["{z}/{x}/{y}.{ext}", "{z}/{x}/{-y}.{ext}", "tc", "{z}/{x}/{y}"])
    func roundTrip(_ layoutText: String) throws {
        let directory = try TemporaryDirectory()
        let grids = try Self.grids()
        let source = directory.file("source.mbtiles")
        try Self.writeSource(source, grids: grids)
        let layout = try PathTemplate(layoutText)
        var options = TileStoreOptions()
        options.layout = layout
        let folder = directory.file("tree"), tar = directory.file("tree.tar"), back = directory.file("back.mbtiles")
        let first = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: folder, options: options))
        #expect(first.gridsWritten == 7 && first.tilesWritten == 21 && first.uncarried.isEmpty && first.nonTiles.count == 0)
        #expect(try TileConverter.convert(from: TileStoreLocation(parsing: folder), to: TileStoreLocation(parsing: tar)).gridsWritten == 7)
        let last = try TileConverter.convert(from: TileStoreLocation(parsing: tar), to: TileStoreLocation(parsing: back))
        #expect(last.gridsWritten == 7 && last.nonTiles.count == 0)
        for path in [source, folder, tar, back] {
            #expect(try StoreContents.grids(path) == Self.expected(grids), "\(path)")
        }
        let deep = try TileCoordinate(z: 3, x: 5, y: 2)
        let gridPath = try #require(layout.gridTemplate).path(for: deep, fileExtension: "")
        #expect(gridPath == ["{z}/{x}/{y}.{ext}": "3/5/2.grid.json", "{z}/{x}/{-y}.{ext}": "3/5/5.grid.json",
                             "tc": "03/000/000/005/000/000/005.grid.json", "{z}/{x}/{y}": "3/5/2.grid.json"][layoutText])
        let expectedBytes = Data(("grid(" + (Self.expected(grids)[deep] ?? "") + ");").utf8)
        #expect(FileManager.default.contents(atPath: folder + "/" + gridPath) == expectedBytes)
        #expect(try StoreContents.tiles(back) == StoreContents.tiles(source))

        let connection = try SQLiteConnection(path: back, mode: .readOnly)
        #expect(try connection.rows("SELECT zoom_level, tile_column, tile_row FROM grids ORDER BY zoom_level, tile_column, tile_row").last == ["3", "5", "5"])
        #expect(try connection.rows("SELECT key_name, key_json FROM grid_data WHERE zoom_level = 3 ORDER BY key_name")
            == [["5", #"{"n":2.5,"name":"tile 3/5/2 é"}"#], ["k", #"{"z":3}"#]])
        let statement = try connection.prepare("SELECT grid FROM grids WHERE zoom_level = 3")
        #expect(try statement.step())
        let blob = try #require(statement.blob(at: 0))
        #expect(blob.first == 0x78, "zlib, as mb-util and node-mbtiles write it")
        #expect(try GzipCodec.decompress(blob, limit: 1 << 20) == Array(#"{"grid":["  !","!!#"],"keys":["","5","k"]}"#.utf8))
    }

    @Test("Zoom and box filters apply to grids as to tiles")
    func filtered() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mbtiles")
        try Self.writeSource(source, grids: try Self.grids())
        var options = TileConverter.Options()
        options.filter = try TileFilter(minZoom: 1, maxZoom: 3, boundingBox: BoundingBox(parsing: "0,0,180,85"))
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: directory.file("part")), options: options)
        #expect(summary.gridsWritten == 3)
        #expect(Set(try StoreContents.grids(directory.file("part")).keys)
            == Set(try [TileCoordinate(z: 1, x: 1, y: 0), TileCoordinate(z: 2, x: 3, y: 1), TileCoordinate(z: 3, x: 5, y: 2)]))
    }

    @Test("A PMTiles archive keeps no grids: one warning with their count, and the tiles still convert")
    func notCarried() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mbtiles")
        try Self.writeSource(source, grids: try Self.grids())
        let target = directory.file("out.pmtiles")
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: target))
        #expect(summary.tilesWritten == 21 && summary.gridsWritten == 0)
        #expect(summary.uncarried == [UncarriedContent(item: "UTFGrids", rows: 7, unit: "grid", reason: "a PMTiles archive keeps no UTFGrids")])
        #expect(summary.warnings == ["\(source): UTFGrids (7 grids) is not carried to \(target) (a PMTiles archive keeps no UTFGrids)"])
        let synced = try TileSynchronizer.sync(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: target))
        #expect(synced.uncarried == summary.uncarried && synced.isInSync)
    }

    @Test("sync and diff count a grid as part of its coordinate: added, replaced, deleted or kept, then nothing to do",
          arguments: ["mirror.mbtiles", "mirror", "mirror.tar"])
    func sync(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let folder = directory.file("tree")
        try Self.writeSource(directory.file("source.mbtiles"), grids: try Self.grids())
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: directory.file("source.mbtiles")), to: TileStoreLocation(parsing: folder))
        let source = try TileStoreLocation(parsing: folder), mirror = try TileStoreLocation(parsing: directory.file(name))
        let created = try TileSynchronizer.sync(from: source, to: mirror)
        #expect(created.gridsAdded == 7 && created.added == 21)
        let again = try TileSynchronizer.sync(from: source, to: mirror)
        #expect(again.isInSync && again.gridsUnchanged == 7)

        let changed = try TileCoordinate(z: 1, x: 0, y: 1), removed = try TileCoordinate(z: 2, x: 3, y: 1), added = try TileCoordinate(z: 2, x: 0, y: 0)
        #expect(FileManager.default.createFile(atPath: folder + "/1/0/1.grid.json", contents: Data(Self.document(changed, salt: "new").utf8)))
        #expect(FileManager.default.createFile(atPath: folder + "/2/0/0.grid.json", contents: Data(Self.document(added).utf8)))
        try FileManager.default.removeItem(atPath: folder + "/2/3/1.grid.json")

        let plan = try TileSynchronizer.diff(from: source, to: mirror)
        #expect((plan.gridsAdded, plan.gridsReplaced, plan.gridsDeleted, plan.gridsUnchanged) == (1, 1, 1, 5))
        #expect(!plan.isInSync && plan.added + plan.replaced + plan.deleted == 0)
        let kept = try TileSynchronizer.sync(from: source, to: mirror)
        #expect((kept.gridsAdded, kept.gridsReplaced, kept.gridsKept, kept.gridsDeleted) == (1, 1, 1, 0))
        var expected = Self.expected(try Self.grids())
        expected[changed] = String(decoding: try Self.grid(changed, salt: "new").json, as: UTF8.self)
        expected[added] = String(decoding: try Self.grid(added).json, as: UTF8.self)
        #expect(try StoreContents.grids(mirror.address) == expected)
        var options = TileSynchronizer.Options()
        options.delete = true
        let deleted = try TileSynchronizer.sync(from: source, to: mirror, options: options)
        #expect((deleted.gridsAdded, deleted.gridsReplaced, deleted.gridsDeleted, deleted.gridsUnchanged) == (0, 0, 1, 7))
        expected[removed] = nil
        #expect(try StoreContents.grids(mirror.address) == expected)
        #expect(try TileSynchronizer.sync(from: source, to: mirror, options: options).isInSync)
        #expect(try StoreContents.tiles(mirror.address).count == 21)
    }

    @Test("Rewriting a tar (a metadata edit, a sync of tiles only) keeps its grids")
    func tarRewriteKeepsGrids() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mbtiles"), tar = directory.file("tree.tar")
        try Self.writeSource(source, grids: try Self.grids())
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: tar))
        _ = try TileMetadataEditor.edit(TileStoreLocation(parsing: tar), setting: [("name", "edited")])
        #expect(try StoreContents.grids(tar) == Self.expected(try Self.grids()))
        #expect(try TileStoreLocation(parsing: tar).openReader().metadata()["name"] == "edited")
    }

    @Test("verify A B counts grid differences; verify STORE names a broken grid")
    func verify() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mbtiles"), other = directory.file("other.mbtiles")
        try Self.writeSource(source, grids: try Self.grids())
        try Self.writeSource(other, grids: try Array(Self.grids().dropFirst()) + [Self.grid(TileCoordinate(z: 1, x: 0, y: 0), salt: "x")])
        let comparison = try StoreComparison.compare(TileStoreLocation(parsing: source), TileStoreLocation(parsing: other))
        #expect(!comparison.isIdentical && comparison.same == 21)
        #expect((comparison.gridsOnlyInFirst, comparison.gridsOnlyInSecond, comparison.gridsDifferent, comparison.gridsSame) == (1, 0, 1, 5))

        try SQLiteConnection(path: other, mode: .readWrite).execute("UPDATE grids SET grid = x'00ff' WHERE zoom_level = 3")
        let report = try StoreVerifier.verify(TileStoreLocation(parsing: other))
        #expect(report.gridsChecked == 5)
        #expect(report.problems.map(\.message) == ["grid is not zlib-compressed JSON (damaged gzip stream (incorrect header check))"])
        #expect(report.problems.map(\.item) == ["grid 3/5/2 (TMS row 5)"])
    }

    @Test("Broken grid rows fail naming the grid; --skip-invalid passes over them", arguments: [
        ("UPDATE grids SET grid = NULL WHERE zoom_level = 3", "grid 3/5/2 (TMS row 5)", "grid is NULL or empty"),
        ("UPDATE grids SET grid = CAST('{\"grid\":[' AS BLOB) WHERE zoom_level = 3", "grid 3/5/2 (TMS row 5)", "not JSON: expected a value at byte 9"),
        ("UPDATE grid_data SET key_json = 'oops' WHERE zoom_level = 3 AND key_name = 'k'", "grid 3/5/2 (TMS row 5)",
         "the key_json of key 'k' is not JSON: expected a value at byte 0"),
        ("UPDATE grids SET tile_column = 99 WHERE zoom_level = 3", "grid zoom_level 3, tile_column 99, tile_row 5", "column x=99 is out of range at zoom 3 (0...7)"),
        ("UPDATE grids SET tile_row = 'x' WHERE zoom_level = 3", "grids row (zoom_level 3, tile_column 5, tile_row x)", "tile_row is 'x', not an integer"),
    ])
    func hostileRows(_ sql: String, item: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mbtiles")
        try Self.writeSource(source, grids: try Self.grids())
        try SQLiteConnection(path: source, mode: .readWrite).execute(sql)
        let destination = directory.file("out")
        #expect(throws: TileStoreError(.invalidTile, store: source, item: item, message: message)) {
            try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: destination))
        }
        #expect(!FileManager.default.fileExists(atPath: destination))
        var options = TileConverter.Options()
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: destination), options: options)
        #expect(summary.gridsWritten == 6 && summary.invalidTiles.count == 1 && summary.invalidTiles.named.first?.item == item)
    }

    @Test("Grid files that are not grids fail naming the file; tiles beside grids are never counted as skipped")
    func badGridFile() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.file("tree")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: folder)
        #expect(FileManager.default.createFile(atPath: folder + "/1/1/1.grid.json", contents: Data("grid({\"keys\":[]});".utf8)))
        #expect(throws: TileStoreError(.invalidTile, store: folder, item: "file 1/1/1.grid.json", message: "not a UTFGrid: has no 'grid' array")) {
            try TileConverter.convert(from: TileStoreLocation(parsing: folder), to: TileStoreLocation(parsing: directory.file("out.mbtiles")))
        }
        var options = TileConverter.Options()
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: folder), to: TileStoreLocation(parsing: directory.file("out.mbtiles")), options: options)
        #expect(summary.tilesWritten == 5 && summary.nonTiles.count == 0 && summary.invalidTiles.count == 1)
    }

    @Test("A folder or tar whose tiles were all read with no grid beside them is not walked again for grids")
    func noSecondPass() throws {
        let directory = try TemporaryDirectory()
        for name in ["plain", "plain.tar"] {
            let path = directory.file(name)
            try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: path)
            let reader = try TileStoreLocation(parsing: path).openReader()
            #expect(try reader.grids(matching: .all) != nil, "unknown before a pass")
            let cursor = try reader.tiles(matching: .all)
            while try cursor.next() != nil {}
            #expect(try reader.grids(matching: .all) == nil, "\(name): a complete pass met no grid")
            #expect(try reader.grids(matching: TileFilter(minZoom: 1, maxZoom: 1)) != nil, "another filter is not known")
            let counted = try TileStoreLocation(parsing: path).openReader()
            _ = try counted.summary(matching: .all, countingBytes: false)
            #expect(try counted.grids(matching: .all) == nil, "\(name): a summary is a complete pass too")
        }
        let withGrids = directory.file("grids")
        try Self.writeSource(directory.file("source.mbtiles"), grids: try Self.grids())
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: directory.file("source.mbtiles")), to: TileStoreLocation(parsing: withGrids))
        let reader = try TileStoreLocation(parsing: withGrids).openReader()
        let cursor = try reader.tiles(matching: .all)
        while try cursor.next() != nil {}
        #expect(try reader.grids(matching: .all) != nil)
    }

    @Test("grid-callback: empty writes plain JSON, a name wraps in it, anything else is refused before writing",
          arguments: ["tree", "tree.tar"])
    func gridCallback(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mbtiles")
        try Self.writeSource(source, grids: try Self.grids())
        let origin = try TileCoordinate(z: 0, x: 0, y: 0)
        let json = Self.expected(try Self.grids())[origin] ?? ""
        for (callback, expected) in [("", json), ("app.onGrid", "app.onGrid(" + json + ");")] {
            var options = TileStoreOptions()
            options.gridCallback = callback
            let path = directory.file(callback.isEmpty ? "plain-" + name : name)
            _ = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: path, options: options))
            if name.hasSuffix(".tar") {
                #expect(try StoreContents.grids(path) == Self.expected(try Self.grids()))
            } else {
                #expect(FileManager.default.contents(atPath: path + "/0/0/0.grid.json") == Data(expected.utf8))
            }
        }
        var bad = TileStoreOptions()
        bad.gridCallback = "1nope"
        let target = try TileStoreLocation(parsing: directory.file("bad-" + name), options: bad)
        #expect(throws: TileStoreError(.invalidOptions, store: target.address, item: "option grid-callback",
                                       message: "'1nope' is not a JavaScript name (letters, digits, _, $ and .; empty for plain JSON)")) {
            try TileConverter.convert(from: TileStoreLocation(parsing: source), to: target)
        }
        #expect(!FileManager.default.fileExists(atPath: target.address))
    }
}
