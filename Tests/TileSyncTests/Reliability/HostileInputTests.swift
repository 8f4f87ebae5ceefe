import Foundation
import Testing
@testable import TileSync

@Suite("Hostile and broken input")
struct HostileInputTests {
    @Test("A tiles view that never ends is stopped by cancellation, inside SQLite")
    func endlessView() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("endless.mbtiles")
        let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try connection.execute("""
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE VIEW tiles AS WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r)
                SELECT 0 AS zoom_level, 0 AS tile_column, 0 AS tile_row, x'89504e470d0a1a0a' AS tile_data FROM r;
            """)
        let started = Date()
        var options = TileConverter.Options()
        options.isCancelled = { Date().timeIntervalSince(started) > 0.5 }
        #expect {
            _ = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: path),
                                          to: TileStoreLocation(kind: .mbtiles, address: directory.file("out.mbtiles")), options: options)
        } throws: { ($0 as? TileStoreError)?.kind == .interrupted }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(!AtomicFile.exists(directory.file("out.mbtiles")))
    }

    @Test("A coordinate repeated in a tar: the last entry wins, with a warning", .enabled(if: Fixtures.available, Fixtures.missingMessage))
    func duplicateCoordinates() throws {
        let directory = try TemporaryDirectory()
        var options = TileConverter.Options()
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: TileStoreLocation(kind: .tar, address: Fixtures.path("tar/hostile.tar")),
                                                to: TileStoreLocation(kind: .mbtiles, address: directory.file("out.mbtiles")), options: options)
        #expect(summary.warnings == ["1 tiles repeat a coordinate that came earlier in \(Fixtures.path("tar/hostile.tar")); the last one wins (first: tile 0/0/0)"])
        #expect(try StoreContents.mbtilesRows(directory.file("out.mbtiles"))["0/0/0"]?.count == 43)
    }

    @Test("Metadata that is not what it claims is replaced from the tiles, with a warning")
    func lyingMetadata() throws {
        let directory = try TemporaryDirectory()
        var metadata = TileMetadata()
        metadata["minzoom"] = "zero"
        metadata["maxzoom"] = "99"
        metadata["bounds"] = "-180,-100,180,100"
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: directory.file("a.mbtiles"), metadata: metadata)
        let summary = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")),
                                                to: TileStoreLocation(kind: .directory, address: directory.file("out")))
        #expect(summary.metadata["minzoom"] == "0" && summary.metadata["maxzoom"] == "1")
        #expect(summary.metadata["bounds"] == "-180,-85.051129,180,85.051129")
        let source = directory.file("a.mbtiles")
        #expect(summary.warnings == [
            "\(source): metadata minzoom 'zero' is not a zoom level 0-30; written as 0, from the tiles",
            "\(source): metadata maxzoom '99' is not a zoom level 0-30; written as 1, from the tiles",
            "\(source): metadata bounds '-180,-100,180,100' is not W,S,E,N in degrees; written as -180,-85.051129,180,85.051129, from the tiles",
        ])
        let report = try StoreVerifier.verify(TileStoreLocation(kind: .mbtiles, address: source))
        #expect(report.counts == [.metadata: 3])
    }

    @Test("Named pipes in a folder: metadata.json or a tile as a pipe is an error naming it at once, never a wait for a writer")
    func namedPipesInAFolder() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.file("tree")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: folder)
        let tree = try TileStoreLocation(parsing: folder)
        try FileManager.default.removeItem(atPath: folder + "/1/1/0.png")
        #expect(mkfifo(folder + "/1/1/0.png", 0o644) == 0)
        let source = try TileSource(location: tree)
        #expect(throws: TileStoreError(.invalidTile, store: folder, item: "file 1/1/0.png", message: "not a regular file (a named pipe)")) {
            try source.tile(z: 1, x: 1, y: 0)
        }
        #expect(try source.tile(z: 1, x: 1, y: 1) != nil)
        try FileManager.default.removeItem(atPath: folder + "/metadata.json")
        #expect(mkfifo(folder + "/metadata.json", 0o644) == 0)
        #expect {
            try TileConverter.convert(from: tree, to: TileStoreLocation(parsing: directory.file("out.mbtiles")))
        } throws: { error in
            "\(error)".contains("metadata.json") && "\(error)".contains("not a regular file (a named pipe)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("out.mbtiles")))
    }

    @Test("File and folder names with spaces and non-ASCII letters", arguments: ["Zürich tiles.mbtiles", "東京 タイル", "carte d'été.tar.gz"])
    func unicodeNames(name: String) throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 1)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        let destination = try TileStoreLocation(parsing: directory.file(name))
        _ = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")), to: destination)
        #expect(try StoreContents.tiles(destination.address).count == 5)
        #expect(try TileSynchronizer.sync(from: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")), to: destination).isInSync)
    }

    @Test("A read-only destination folder: a clear error, nothing left behind",
          .enabled(if: getuid() != 0, "root may write into read-only folders: read-only destination test SKIPPED"))
    func readOnlyDestination() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: directory.file("a.mbtiles"))
        try FileManager.default.createDirectory(atPath: directory.file("locked"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.file("locked"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.file("locked")) }
        #expect {
            _ = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")),
                                          to: TileStoreLocation(kind: .mbtiles, address: directory.file("locked/b.mbtiles")))
        } throws: { ($0 as? TileStoreError)?.kind == .io }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.file("locked")).isEmpty)
    }
}
