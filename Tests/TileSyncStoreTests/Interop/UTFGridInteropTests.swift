import Foundation
import Testing
@testable import TileSync

/// mb-util (pip `mbutil`), the tool whose `.grid.json` export and import these tests compare with.
enum PythonMBUtil {
    static let available: Bool = (try? PythonPMTiles.run(["-c", "import mbutil.util"]))?.status == 0
    static let missingMessage: Comment = "python3 with the mbutil package not found (pip install mbutil): mb-util interop SKIPPED"

    /// `mb-util SOURCE.mbtiles FOLDER` (export) or `mb-util FOLDER DEST.mbtiles` (import), with
    /// the command line's defaults (XYZ rows, png).
    static func run(from source: String, to destination: String) throws {
        let call = source.hasSuffix(".mbtiles") ? "mbtiles_to_disk" : "disk_to_mbtiles"
        let result = try PythonPMTiles.run(["-c", "import sys, mbutil.util as u; u.\(call)(sys.argv[1], sys.argv[2], silent=True, scheme='xyz', format='png')", source, destination])
        #expect(result.status == 0, "mb-util \(call) \(source) failed")
    }
}

@Suite("UTFGrids of real TileMill-era files: round trips through every kind, and mb-util reads what we write",
       .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct UTFGridInteropTests {
    /// Fixtures with grids and how many are grid objects (plain_2 also holds 28 broken ones).
    static let fixtures: [(String, Int)] = [
        ("mbutil/utf8grid.mbtiles", 1), ("martin/mbtiles/geography-class-png.mbtiles", 5),
        ("node-mbtiles/some-empty-tiles.mbtiles", 20), ("node-mbtiles/plain_2.mbtiles", 241),
    ]

    static func gridFiles(_ root: String) throws -> [String: String] {
        var grids: [String: String] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root) ?? FileManager.DirectoryEnumerator() where path.hasSuffix(".grid.json") {
            let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + path))
            guard !data.isEmpty else { continue }
            grids[path] = String(decoding: try UTFGridJSON.canonical(document: data), as: UTF8.self)
        }
        return grids
    }

    @Test("MBTiles -> folder -> tar -> MBTiles -> folder: the same grids at every step", arguments: fixtures)
    func roundTrip(_ fixture: String, count: Int) throws {
        let directory = try TemporaryDirectory()
        var options = TileConverter.Options()
        options.skipInvalid = true
        let steps = [Fixtures.path(fixture), directory.file("tree"), directory.file("tree.tar.gz"), directory.file("back.mbtiles"), directory.file("again")]
        for (source, destination) in zip(steps, steps.dropFirst()) {
            let summary = try TileConverter.convert(from: TileStoreLocation(parsing: source), to: TileStoreLocation(parsing: destination), options: options)
            #expect(summary.gridsWritten == count, "\(source) -> \(destination)")
            #expect(summary.uncarried.isEmpty)
        }
        var readable: [TileCoordinate: String] = [:]
        let cursor = try #require(try TileStoreLocation(parsing: steps[0]).openReader().grids(matching: .all))
        var skipped = SkippedItems()
        while let grid = try TileConverter.nextGrid(cursor, skipInvalid: true, invalid: &skipped) {
            readable[grid.coordinate] = String(decoding: grid.json, as: UTF8.self)
        }
        #expect(readable.count == count)
        for step in steps.dropFirst() {
            #expect(try StoreContents.grids(step) == readable, "\(step)")
        }
        #expect(try StoreComparison.compare(TileStoreLocation(parsing: steps[0]), TileStoreLocation(parsing: steps[3])).gridsSame == count)
    }

    @Test("plain_2's 28 broken grids stop a conversion naming the first, unless skipped")
    func brokenGrids() throws {
        let directory = try TemporaryDirectory()
        let fixture = Fixtures.path("node-mbtiles/plain_2.mbtiles")
        #expect(throws: TileStoreError(.invalidTile, store: fixture, item: "grid 2/0/3 (TMS row 0)", message: "not JSON: expected a value at byte 8")) {
            try TileConverter.convert(from: TileStoreLocation(parsing: fixture), to: TileStoreLocation(parsing: directory.file("out")))
        }
        var options = TileConverter.Options()
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: TileStoreLocation(parsing: fixture), to: TileStoreLocation(parsing: directory.file("out")), options: options)
        #expect(summary.tilesWritten == 269 && summary.gridsWritten == 241 && summary.invalidTiles.count == 28)
    }

    @Test("Our folder export equals mb-util's once parsed, and mb-util imports it back to the same grids",
          .enabled(if: PythonMBUtil.available, PythonMBUtil.missingMessage),
          arguments: ["mbutil/utf8grid.mbtiles", "martin/mbtiles/geography-class-png.mbtiles", "node-mbtiles/some-empty-tiles.mbtiles"])
    func mbutil(_ fixture: String) throws {
        let directory = try TemporaryDirectory()
        let ours = directory.file("ours"), theirs = directory.file("theirs"), imported = directory.file("imported.mbtiles")
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: Fixtures.path(fixture)), to: TileStoreLocation(parsing: ours))
        try PythonMBUtil.run(from: Fixtures.path(fixture), to: theirs)
        let exported = try Self.gridFiles(theirs)
        #expect(!exported.isEmpty)
        #expect(try Self.gridFiles(ours) == exported)
        try PythonMBUtil.run(from: ours, to: imported)
        #expect(try StoreContents.grids(imported) == StoreContents.grids(Fixtures.path(fixture)))
    }
}
