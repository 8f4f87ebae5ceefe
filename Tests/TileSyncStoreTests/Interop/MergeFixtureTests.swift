import Foundation
import Testing
@testable import TileSync

/// Counts checked against an independent reading of the same files (Python's sqlite3, the
/// file tree, and the `pmtiles` package): node-mbtiles plain_1 (285 PNG tiles, z0-4),
/// tilelive-file's readonly tree (85, z0-3, 8 of them where plain_1 has none) and the PMTiles
/// spec's Stamen Toner archive (85, z0-3) hold 293 coordinates; 85 are held more than once, 4
/// of them with the same bytes everywhere.
@Suite("Merging real stores of three kinds", .enabled(if: Fixtures.available, Fixtures.missingMessage))
struct MergeFixtureTests {
    static let sources = ["node-mbtiles/plain_1.mbtiles", "tilelive-file/readonly",
                          "protomaps-PMTiles/spec-v3/stamen_toner(raster)CC-BY+ODbL_z3.pmtiles"]

    static func locations() throws -> [TileStoreLocation] {
        try sources.map { try TileStoreLocation(parsing: Fixtures.path($0)) }
    }

    @Test("override and ignore: tiles per source and coordinates decided as counted independently; unread, the 4 held alike are decided by the policy",
          arguments: [(MergedStoreKind.DuplicatePolicy.override, true, [208, 4, 81]), (.ignore, true, [285, 8, 0]),
                      (.override, false, [208, 0, 85]), (.ignore, false, [285, 8, 0])])
    func policies(policy: MergedStoreKind.DuplicatePolicy, comparing: Bool, given: [Int]) throws {
        let directory = try TemporaryDirectory()
        let sources = try Self.locations()
        let merged = TileStoreLocation.merging(sources, onDuplicate: policy, comparesDuplicates: comparing)
        let destination = try TileStoreLocation(parsing: directory.file("merged.pmtiles"))
        let summary = try TileConverter.convert(from: merged, to: destination)
        #expect(summary.tilesWritten == 293)
        let tally = try #require((merged.kind as? MergedStoreKind)?.tally)
        #expect(tally.tilesGiven == given)
        #expect((tally.heldAlike, tally.decidedByPolicy, tally.decidedUncompared) == (comparing ? (4, 81, 0) : (0, 81, 4)))
        let origin = try TileCoordinate(parsing: "0/0/0")
        let winner = try TileSource(location: sources[policy == .override ? 2 : 0]).tile(at: origin)
        #expect(try TileSource(location: destination).tile(at: origin) == winner)
        #expect(try StoreComparison.compare(merged, destination).isIdentical)
    }

    @Test("abort stops at 0/0/0, which plain_1 and the readonly tree hold with different bytes")
    func abort() throws {
        let directory = try TemporaryDirectory()
        let sources = try Self.locations()
        let destination = try TileStoreLocation(parsing: directory.file("merged.mbtiles"))
        #expect(throws: TileStoreError(.duplicateConflict, store: sources[1].address, item: "tile 0/0/0",
                                       message: "\(sources[0].address) and \(sources[1].address) hold different bytes; nothing was written",
                                       hint: "--on-duplicate override lets the later source win, ignore keeps the first")) {
            try TileConverter.convert(from: TileStoreLocation.merging(sources, onDuplicate: .abort), to: destination)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.address))
    }

    @Test("martin's world_cities and its edited copy: 197 coordinates, 1/1/0 the one held with other bytes; vector and raster are refused together")
    func vectorStores() throws {
        let directory = try TemporaryDirectory()
        let original = try TileStoreLocation(parsing: Fixtures.path("martin/mbtiles/world_cities.mbtiles"))
        let modified = try TileStoreLocation(parsing: Fixtures.path("martin/mbtiles/world_cities_modified.mbtiles"))
        let merged = TileStoreLocation.merging([original, modified], onDuplicate: .override, comparesDuplicates: true)
        let destination = try TileStoreLocation(parsing: directory.file("cities"))
        #expect(try TileConverter.convert(from: merged, to: destination).tilesWritten == 197)
        let tally = try #require((merged.kind as? MergedStoreKind)?.tally)
        #expect(tally.tilesGiven == [195, 2] && tally.heldAlike == 194 && tally.decidedByPolicy == 1, "equal bytes count for the first source")
        let unread = TileStoreLocation.merging([original, modified], onDuplicate: .override)
        let unreadDestination = try TileStoreLocation(parsing: directory.file("cities-unread"))
        #expect(try TileConverter.convert(from: unread, to: unreadDestination).tilesWritten == 197)
        let unreadTally = try #require((unread.kind as? MergedStoreKind)?.tally)
        #expect(unreadTally.tilesGiven == [1, 196] && unreadTally.heldAlike == 0 && unreadTally.decidedByPolicy == 0
                && unreadTally.decidedUncompared == 195, "the same tiles, unread (an MBTiles lists no sizes): the later source's")
        #expect(try StoreComparison.compare(destination, unreadDestination).isIdentical)
        let changed = try TileCoordinate(parsing: "1/1/0")
        #expect(try TileSource(location: destination).tile(at: changed) == TileSource(location: modified).tile(at: changed))
        let png = try TileStoreLocation(parsing: Fixtures.path("node-mbtiles/plain_1.mbtiles"))
        #expect(throws: TileStoreError(.invalidOptions, store: png.address, item: "tile format",
                                       message: "holds png tiles, but \(original.address) holds pbf (gzip): a merge needs one tile format",
                                       hint: "convert the sources to one format first")) {
            try TileConverter.convert(from: TileStoreLocation.merging([original, png], onDuplicate: .ignore),
                                      to: try TileStoreLocation(parsing: directory.file("mixed.mbtiles")))
        }
        let webp = try TileStoreLocation(parsing: Fixtures.path("protomaps-PMTiles/spec-v3/usgs-mt-whitney-8-15-webp-512.pmtiles"))
        #expect(throws: TileStoreError(.invalidOptions, store: webp.address, item: "tile format",
                                       message: "holds webp tiles, but \(png.address) holds png: a merge needs one tile format",
                                       hint: "--tile-format webp (or png, jpeg) re-encodes every source's raster tiles into one")) {
            try TileStoreLocation.merging([png, webp], onDuplicate: .ignore).openReader()
        }
    }

    /// Every valid grid of a store, by coordinate.
    static func grids(_ location: TileStoreLocation) throws -> [TileCoordinate: Data] {
        var grids: [TileCoordinate: Data] = [:]
        guard let cursor = try location.openReader().grids(matching: .all) else { return grids }
        var invalid = SkippedItems()
        while let grid = try TileConverter.nextGrid(cursor, skipInvalid: true, invalid: &invalid) { grids[grid.coordinate] = grid.json }
        return grids
    }

    @Test("UTFGrids follow the tiles' rule: the grid of the source whose tile won; grids without tiles by the policy",
          arguments: [MergedStoreKind.DuplicatePolicy.ignore, .override])
    func grids(policy: MergedStoreKind.DuplicatePolicy) throws {
        let directory = try TemporaryDirectory()
        let geography = try TileStoreLocation(parsing: Fixtures.path("martin/mbtiles/geography-class-png.mbtiles"))
        let plain = try TileStoreLocation(parsing: Fixtures.path("node-mbtiles/plain_2.mbtiles"))
        let merged = TileStoreLocation.merging([geography, plain], onDuplicate: policy)
        let destination = try TileStoreLocation(parsing: directory.file("grids.mbtiles"))
        var options = TileConverter.Options()
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: merged, to: destination, options: options)
        #expect((summary.tilesWritten, summary.gridsWritten, summary.invalidTiles.count) == (269, 241, 28),
                "plain_2 holds 28 grids that are not JSON, none at zooms 0-1")
        let written = try Self.grids(destination), fromGeography = try Self.grids(geography), fromPlain = try Self.grids(plain)
        let origin = try TileCoordinate(parsing: "0/0/0"), deep = try TileCoordinate(parsing: "4/3/5")
        #expect(fromGeography[origin] != fromPlain[origin])
        #expect(written[origin] == (policy == .ignore ? fromGeography[origin] : fromPlain[origin]))
        #expect(written[deep] != nil && written[deep] == fromPlain[deep])

        let empty = try TileStoreLocation(parsing: Fixtures.path("node-mbtiles/some-empty-tiles.mbtiles"))
        let single = try TileStoreLocation(parsing: Fixtures.path("mbutil/utf8grid.mbtiles"))
        let sparse = try TileStoreLocation(parsing: directory.file("sparse.mbtiles"))
        let both = try TileConverter.convert(from: TileStoreLocation.merging([empty, single], onDuplicate: policy), to: sparse)
        #expect((both.tilesWritten, both.gridsWritten) == (12, 21), "9 of some-empty-tiles' 20 grids have no tile and are kept")
    }
}
