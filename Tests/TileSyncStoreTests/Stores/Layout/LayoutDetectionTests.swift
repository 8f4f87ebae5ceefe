import Foundation
import Testing
@testable import TileSync

@Suite("Folders and tars that name no layout are read with the one their paths show")
struct LayoutDetectionTests {
    /// Zooms 0-3 and, for wide numbers, two tiles at zoom 20 whose column has seven digits.
    static let tiles: [Tile] = GeneratedStore.pyramid(maxZoom: 3) + [(1_048_575, 12), (1_000_001, 999_999)].compactMap { x, y in
        (try? TileCoordinate(z: 20, x: x, y: y)).map { Tile(coordinate: $0, data: GeneratedStore.bytes(for: $0)) }
    }

    static var expected: [TileCoordinate: Data] {
        Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) })
    }

    /// A tree with `layout` and no metadata at all, as other tools leave them.
    static func foreignFolder(_ layout: PathTemplate, at path: String, tiles: [Tile] = tiles) throws {
        try GeneratedStore.write(tiles, to: path, layout: layout)
        try FileManager.default.removeItem(atPath: path + "/metadata.json")
    }

    /// GNU tar of a folder's contents (`./0/0/0.png` entries).
    static func tar(_ folder: String, to archive: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tar", "-cf", archive, "-C", folder, "."]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    static func read(_ path: String) throws -> (tiles: [TileCoordinate: Data], notes: [String], schema: String) {
        let reader = try TileStoreLocation(parsing: path).openReader()
        let cursor = try reader.tiles(matching: .all)
        var tiles: [TileCoordinate: Data] = [:]
        while let tile = try cursor.next() { tiles[tile.coordinate] = tile.data }
        return (tiles, reader.notes, reader.schemaDescription)
    }

    @Test("tilelive safe, MapProxy tc and mp, ArcGIS, quadkeys and flat names: found in a folder and in a tar, every tile right",
          arguments: ["safe", "tc", "mp", "arcgis", "quadkey", "{z}/{x}/{y}", "{z}_{x}_{y}.{ext}", "{z}-{x}-{y}.{ext}"])
    func eachLayout(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let layout = try PathTemplate(name)
        let folder = directory.file("tree")
        try Self.foreignFolder(layout, at: folder)
        let archive = directory.file("tree.tar")
        try Self.tar(folder, to: archive)
        let label = layout.name.map { " (\($0))" } ?? ""
        for path in [folder, archive] {
            let read = try Self.read(path)
            #expect(read.tiles == Self.expected, "\(name) \(path)")
            #expect(read.notes == ["\(path): read with layout \(layout.text)\(label), found from its paths (87 of 87 sampled paths fit); "
                                   + "--source-layout chooses another"])
            #expect(read.schema == "\(layout.text) (found from its paths)")
        }
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: archive), to: TileStoreLocation(parsing: directory.file("out.mbtiles")))
        #expect(summary.tilesWritten == 87 && summary.notes.count == 1)
        #expect(try StoreContents.tiles(directory.file("out.mbtiles")) == Self.expected)
    }

    @Test("A z/x/y tree without metadata keeps the default and says how to read it otherwise; a declared scheme says nothing")
    func ambiguous() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.file("plain")
        try Self.foreignFolder(.xyz, at: folder)
        let read = try Self.read(folder)
        #expect(read.tiles == Self.expected)
        #expect(read.notes == ["\(folder): read as {z}/{x}/{y}.{ext} (87 of 87 sampled paths fit), as no metadata says how its paths are laid out; "
                               + "paths cannot tell it from {z}/{y}/{x}.{ext} or TMS rows (--source-layout '{z}/{y}/{x}.{ext}', --source-scheme tms)"])
        #expect(read.schema == "{z}/{x}/{y}.{ext} (assumed: nothing names it)")

        let declared = directory.file("declared")
        try GeneratedStore.write(Self.tiles, to: declared, layout: .tms)
        let declaredRead = try Self.read(declared)
        #expect(declaredRead.tiles == Self.expected && declaredRead.notes.isEmpty && declaredRead.schema == "{z}/{x}/{-y}.{ext}")
    }

    /// Tiles of zooms 10-12 around Berlin, where a swapped or flipped reading lands far away.
    static func berlin() throws -> (tiles: [Tile], metadata: TileMetadata) {
        let box = try BoundingBox(parsing: "13.2,52.4,13.6,52.6")
        var tiles: [Tile] = []
        for range in try WebMercator.tileRanges(covering: box, zooms: 10...12) {
            for coordinate in range { tiles.append(Tile(coordinate: coordinate, data: GeneratedStore.bytes(for: coordinate))) }
        }
        var metadata = TileMetadata()
        metadata["name"] = "berlin"
        metadata["bounds"] = "13.2,52.4,13.6,52.6"
        return (tiles, metadata)
    }

    @Test("Rows and columns swapped, or TMS rows, are found by the metadata's bounds when those hold every tile one way and none the other",
          arguments: ["{z}/{y}/{x}.{ext}", "{z}/{x}/{-y}.{ext}", "{z}/{-y}/{x}.{ext}", "{z}/{x}/{y}.{ext}"])
    func bounds(_ text: String) throws {
        let directory = try TemporaryDirectory()
        let layout = try PathTemplate(text)
        let (tiles, metadata) = try Self.berlin()
        let folder = directory.file("berlin")
        try Self.foreignFolder(layout, at: folder, tiles: tiles)
        try FileBytes.write(MetadataJSON.encode(metadata), to: folder + "/metadata.json")
        let read = try Self.read(folder)
        #expect(read.tiles == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }), "\(text)")
        if layout == .xyz {
            #expect(read.notes.first?.hasPrefix("\(folder): read as {z}/{x}/{y}.{ext} (\(tiles.count) of \(tiles.count) sampled paths fit), as no metadata says") == true)
        } else {
            #expect(read.notes == ["\(folder): read with layout \(text)\(layout.name.map { " (\($0))" } ?? ""), found from its paths (\(tiles.count) of \(tiles.count) sampled paths fit; "
                                   + "the metadata's bounds hold every sampled tile this way and none as {z}/{x}/{y}.{ext}); --source-layout chooses another"])
        }
    }

    @Test("A declared scheme keeps its rows: only a swap is read from the bounds")
    func declaredSchemeKeepsRows() throws {
        let directory = try TemporaryDirectory()
        let (tiles, base) = try Self.berlin()
        var metadata = base
        metadata["scheme"] = "xyz"
        let folder = directory.file("flipped")
        try Self.foreignFolder(.tms, at: folder, tiles: tiles)
        try FileBytes.write(MetadataJSON.encode(metadata), to: folder + "/metadata.json")
        let read = try Self.read(folder)
        #expect(read.notes.isEmpty && read.schema == "{z}/{x}/{y}.{ext}")
        #expect(read.tiles.count == tiles.count && read.tiles.keys.allSatisfy { coordinate in !tiles.contains { $0.coordinate == coordinate } })
    }

    @Test("Trees TileSync writes name their layout in metadata.json; it is read back without a guess and never reaches an MBTiles")
    func recordedLayout() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.mbtiles")
        try GeneratedStore.write(Self.tiles, to: source)
        var options = TileStoreOptions()
        options.layout = try PathTemplate("tc")
        for name in ["tc-tree", "tc.tar"] {
            let path = directory.file(name)
            _ = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: path, options: options))
            let metadata = try TileStoreLocation(parsing: path).openReader().metadata()
            #expect(metadata["layout"] == "{z:2}/{x:9/3}/{-y:9/3}.{ext}" && metadata["scheme"] == "tms")
            let read = try Self.read(path)
            #expect(read.tiles == Self.expected && read.notes.isEmpty && read.schema == "{z:2}/{x:9/3}/{-y:9/3}.{ext}")
            let back = directory.file("\(name).mbtiles")
            _ = try TileConverter.convert(from: TileStoreLocation(parsing: path), to: TileStoreLocation(parsing: back))
            let stored = try StoreContents.mbtilesMetadata(back)
            #expect(stored["layout"] == nil && stored["scheme"] == nil && stored["name"] == "generated")
        }
        let plain = directory.file("plain")
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: plain))
        #expect(try TileStoreLocation(parsing: plain).openReader().metadata()["layout"] == nil)
        #expect(throws: TileStoreError.self) {
            try TileMetadataEditor.edit(TileStoreLocation(parsing: directory.file("tc-tree")), setting: [("layout", "{z}/{x}/{y}.{ext}")])
        }
    }

    @Test("A sync into a tree that names no layout writes new tiles in the layout it has")
    func syncIntoForeignTree() throws {
        let directory = try TemporaryDirectory()
        let tree = directory.file("mapproxy")
        try Self.foreignFolder(try PathTemplate("tc"), at: tree, tiles: GeneratedStore.pyramid(maxZoom: 1))
        let source = directory.file("source.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2), to: source)
        let summary = try TileSynchronizer.sync(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: tree))
        #expect(summary.added == 16 && summary.unchanged == 5)
        #expect(FileManager.default.fileExists(atPath: tree + "/02/000/000/003/000/000/000.png"))
        #expect(!FileManager.default.fileExists(atPath: tree + "/2"))
        #expect(try StoreContents.tiles(tree).count == 21)
    }
}
