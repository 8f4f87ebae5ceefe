import Foundation
import Testing
@testable import TileSync

@Suite("Bad input fixtures get exact errors", .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct BadInputTests {
    static let cases: [(String, TileStoreError.Kind, String)] = [
        ("node-mbtiles/corrupt.mbtiles", .corrupt,
         "node-mbtiles/corrupt.mbtiles: damaged SQLite database (database disk image is malformed) (the file may be truncated; fetch it again)"),
        ("mapbox-tile-copy/invalid.corrupt.mbtiles", .corrupt,
         "mapbox-tile-copy/invalid.corrupt.mbtiles: damaged SQLite database (database disk image is malformed) (the file may be truncated; fetch it again)"),
        ("mapbox-upload-validate/invalid.mbtiles-notadb.mbtiles", .notATileStore,
         "mapbox-upload-validate/invalid.mbtiles-notadb.mbtiles: not an SQLite database (file is not a database)"),
        ("mapbox-upload-validate/invalid.mbtiles-notiledata.mbtiles", .notATileStore,
         "mapbox-upload-validate/invalid.mbtiles-notiledata.mbtiles: table tiles: has no column zoom_level, tile_column, tile_row, tile_data (it has image, x, y, z) (an MBTiles tiles table has zoom_level, tile_column, tile_row, tile_data)"),
        ("node-mbtiles/corrupt_null_tile.mbtiles", .invalidTile,
         "node-mbtiles/corrupt_null_tile.mbtiles: tile 1/0/1 (TMS row 0): tile_data is NULL"),
        ("mapbox-tile-copy/invalid.null-tile.mbtiles", .invalidTile,
         "mapbox-tile-copy/invalid.null-tile.mbtiles: tile 1/0/1 (TMS row 0): tile_data is NULL"),
        ("martin/files/invalid-tile-idx.mbtiles", .invalidTile,
         "martin/files/invalid-tile-idx.mbtiles: tile zoom_level 6, tile_column 10, tile_row 64: TMS row 64 is out of range at zoom 6 (0...63)"),
        ("martin/files/invalid.mbtiles", .notATileStore,
         "martin/files/invalid.mbtiles: SQLite database with no tables, not an MBTiles file"),
    ]

    @Test("Each bad MBTiles fixture fails with its own message", arguments: cases)
    func badFixture(fixture: String, kind: TileStoreError.Kind, message: String) throws {
        let directory = try TemporaryDirectory()
        #expect {
            _ = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: Fixtures.path(fixture)),
                                          to: TileStoreLocation(kind: .directory, address: directory.file("out")))
        } throws: { error in
            guard let error = error as? TileStoreError else { return false }
            return error.kind == kind && error.description == Fixtures.root + "/" + message
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("out")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("With --skip-invalid the NULL tile is counted and the other 284 tiles convert")
    func skipNull() throws {
        let directory = try TemporaryDirectory()
        var options = TileConverter.Options()
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: Fixtures.path("node-mbtiles/corrupt_null_tile.mbtiles")),
                                                to: TileStoreLocation(kind: .mbtiles, address: directory.file("out.mbtiles")), options: options)
        #expect(summary.tilesWritten == 284)
        #expect(summary.invalidTiles.count == 1)
        #expect(summary.invalidTiles.named == [.init(item: "tile 1/0/1 (TMS row 0)", reason: "tile_data is NULL")])
    }

    @Test("The hostile tar: nothing outside the destination, every bad entry named, good tiles kept with --skip-invalid")
    func hostileTar() throws {
        let directory = try TemporaryDirectory()
        let source = TileStoreLocation(kind: .tar, address: Fixtures.path("tar/hostile.tar"))
        let destination = TileStoreLocation(kind: .directory, address: directory.file("sandbox/out"))
        try FileManager.default.createDirectory(atPath: directory.file("sandbox"), withIntermediateDirectories: true)
        #expect {
            _ = try TileConverter.convert(from: source, to: destination)
        } throws: { error in
            "\(error)" == Fixtures.path("tar/hostile.tar") + ": entry '2/9/1.png': column x=9 is out of range at zoom 2 (0...3)"
        }
        var options = TileConverter.Options()
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: source, to: destination, options: options)
        #expect(summary.nonTiles.named.map(\.item) == ["entry '../escape/1/0/0.png'", "entry '/tmp/absolute/1/0/1.png'",
                                                       "entry '1/1/0.png'", "entry '1/1/1.png'", "entry 'abc/0/0.png'"])
        #expect(summary.nonTiles.named.map(\.reason) == ["'..' in path, refused", "absolute path, refused",
                                                         "symbolic link to '/etc/passwd', not followed",
                                                         "hard link to '../../etc/shadow', not followed",
                                                         "not a tile path in layout {z}/{x}/{y}.{ext}"])
        #expect(summary.invalidTiles.named.map(\.item) == ["entry '2/9/1.png'", "entry '3/1/2.png'"])
        let written = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String }.sorted()
        #expect(written == ["sandbox", "sandbox/out", "sandbox/out/0", "sandbox/out/0/0", "sandbox/out/0/0/0.png", "sandbox/out/metadata.json"])
        #expect(FileManager.default.contents(atPath: directory.file("sandbox/out/0/0/0.png"))?.count == 43, "the last duplicate wins")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/absolute/1/0/1.png"))
    }

    @Test("A tar that holds no tiles, only other files, fails naming what it skipped; nothing is written")
    func tarWithoutTiles() throws {
        let directory = try TemporaryDirectory()
        let tar = Fixtures.path("versatiles-rs/static.tar.gz")
        #expect(throws: TileStoreError(.notATileStore, store: tar,
                                       message: "holds no tile: all 4 entries were skipped (entry '._index.html', entry 'index.html', entry '._style.css' and 1 more: not a tile path in layout {z}/{x}/{y}.{ext})",
                                       hint: "name its layout with --source-layout TEMPLATE (docs/formats.md lists the fields)")) {
            try TileConverter.convert(from: TileStoreLocation(kind: .tar, address: tar),
                                      to: TileStoreLocation(kind: .mbtiles, address: directory.file("out.mbtiles")))
        }
        #expect(!AtomicFile.exists(directory.file("out.mbtiles")))
    }

    @Test("A file name with spaces, and an empty tile set")
    func spaces() throws {
        let directory = try TemporaryDirectory()
        let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: Fixtures.path("node-mbtiles/with spaces.mbtiles")),
                                                to: try TileStoreLocation(parsing: directory.file("out put.tar")))
        #expect(summary.tilesWritten == 0)
        #expect(try TarReader(location: TileStoreLocation(kind: .tar, address: directory.file("out put.tar"))).metadata()["version"] == "1.0.0")
    }

    @Test("A declared format that lies is reported with the fix")
    func lyingFormat() throws {
        let directory = try TemporaryDirectory()
        let path = Fixtures.path("mapbox-upload-validate/valid-webp.mbtiles")
        let summary = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: path),
                                                to: TileStoreLocation(kind: .directory, address: directory.file("out")))
        #expect(summary.warnings == ["\(path): metadata format is 'pbf' but the tiles are webp; the metadata was kept, set format=webp in the source to fix it"])
        #expect(FileManager.default.fileExists(atPath: directory.file("out/0/0/0.webp")))
    }
}
