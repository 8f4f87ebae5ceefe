import Foundation
import Testing
@testable import TileSync

@Suite("A source whose entries are all skipped fails, with the layout that would read them")
struct NoTilesFoundTests {
    /// A folder of quadkey-named tiles, read with the default layout.
    static func quadkeyFolder(in directory: TemporaryDirectory) throws -> String {
        let root = directory.file("quadkeys")
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for key in ["0", "1", "2", "3", "00", "01"] {
            #expect(FileManager.default.createFile(atPath: root + "/\(key).png", contents: GeneratedStore.bytes(for: try TileCoordinate(z: 0, x: 0, y: 0))))
        }
        return root
    }

    /// The folder read with `{z}/{x}/{y}.{ext}` given, so that no layout is found by itself.
    static func givenXYZ(_ path: String) throws -> TileStoreLocation {
        var options = TileStoreOptions()
        options.layout = .xyz
        return try TileStoreLocation(parsing: path, options: options)
    }

    @Test("convert: exit with the skipped paths and --source-layout; nothing is created; the suggested layout reads them")
    func convert() throws {
        let directory = try TemporaryDirectory()
        let root = try Self.quadkeyFolder(in: directory)
        let destination = try TileStoreLocation(parsing: directory.file("out.mbtiles"))
        #expect(throws: TileStoreError(.notATileStore, store: root,
                                       message: "holds no tile: all 6 entries were skipped (0.png, 00.png, 1.png and 3 more: not a tile path in layout {z}/{x}/{y}.{ext})",
                                       hint: "--source-layout '{q}.{ext}' reads them")) {
            try TileConverter.convert(from: Self.givenXYZ(root), to: destination)
        }
        #expect(!AtomicFile.exists(destination.address))
        var source = try TileStoreLocation(parsing: root)
        source.options.layout = try PathTemplate("{q}.{ext}")
        #expect(try TileConverter.convert(from: source, to: destination).tilesWritten == 6)
        let found = try TileConverter.convert(from: TileStoreLocation(parsing: root), to: TileStoreLocation(parsing: directory.file("found.mbtiles")))
        #expect(found.tilesWritten == 6)
        #expect(found.notes == ["\(root): read with layout {q}.{ext} (quadkey), found from its paths (6 of 6 sampled paths fit); --source-layout chooses another"])
    }

    @Test("A tree no candidate layout reads fails as before, with the folder hint")
    func noCandidateReads() throws {
        let directory = try TemporaryDirectory()
        let root = directory.file("odd")
        try FileManager.default.createDirectory(atPath: root + "/a/b", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: root + "/a/b/c.png", contents: Data([1])))
        #expect(throws: TileStoreError(.notATileStore, store: root,
                                       message: "holds no tile: its one entry was skipped (a/: folder not in layout {z}/{x}/{y}.{ext})",
                                       hint: "the tiles may be inside a/: name that folder as the store")) {
            try TileConverter.convert(from: TileStoreLocation(parsing: root), to: TileStoreLocation(parsing: directory.file("o.mbtiles")))
        }
    }

    @Test("sync fails the same way and deletes nothing; an empty source still converts; a filter leaves the check out")
    func syncEmptyAndFiltered() throws {
        let directory = try TemporaryDirectory()
        let root = try Self.quadkeyFolder(in: directory)
        let mirror = directory.file("mirror.mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: mirror)
        var options = TileSynchronizer.Options()
        options.delete = true
        let error = #expect(throws: TileStoreError.self) {
            try TileSynchronizer.sync(from: Self.givenXYZ(root), to: TileStoreLocation(parsing: mirror), options: options)
        }
        #expect(error?.hint == "--source-layout '{q}.{ext}' reads them" && error?.store == root)
        #expect(try StoreContents.tiles(mirror).count == 5)

        let empty = directory.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        #expect(try TileConverter.convert(from: TileStoreLocation(parsing: empty), to: TileStoreLocation(parsing: directory.file("e.mbtiles"))).tilesWritten == 0)

        var filtered = TileConverter.Options()
        filtered.filter = try TileFilter(minZoom: 0, maxZoom: 3)
        let summary = try TileConverter.convert(from: Self.givenXYZ(root), to: TileStoreLocation(parsing: directory.file("f.mbtiles")), options: filtered)
        #expect(summary.tilesWritten == 0 && summary.nonTiles.count == 6)
    }

    @Test("A tar of such entries and a tree one folder too high get their own hints")
    func tarAndNestedTree() throws {
        let directory = try TemporaryDirectory()
        let root = try Self.quadkeyFolder(in: directory)
        let tar = directory.file("quadkeys.tar")
        var layout = TileStoreOptions()
        layout.layout = try PathTemplate("{q}.{ext}")
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: root, options: layout), to: TileStoreLocation(parsing: tar, options: layout))
        let tarError = #expect(throws: TileStoreError.self) {
            try TileConverter.convert(from: Self.givenXYZ(tar), to: TileStoreLocation(parsing: directory.file("t.mbtiles")))
        }
        #expect(tarError?.hint == "--source-layout '{q}.{ext}' reads them")
        #expect(tarError?.message.hasPrefix("holds no tile: all 6 entries were skipped (entry '") == true)

        let parent = directory.file("parent")
        try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: parent + "/tiles")
        #expect(throws: TileStoreError(.notATileStore, store: parent,
                                       message: "holds no tile: its one entry was skipped (tiles/: folder not in layout {z}/{x}/{y}.{ext})",
                                       hint: "the tiles may be inside tiles/: name that folder as the store")) {
            try TileConverter.convert(from: TileStoreLocation(parsing: parent), to: TileStoreLocation(parsing: directory.file("p.mbtiles")))
        }
    }
}
