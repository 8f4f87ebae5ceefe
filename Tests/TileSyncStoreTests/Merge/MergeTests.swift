import Foundation
import Testing
@testable import TileSync

@Suite("Merging several stores into one (library)")
struct MergeTests {
    /// A: the z0-2 pyramid (MBTiles). B: z3, plus 1/1/1 with other bytes (folder).
    /// C: 2/0/0 with A's bytes, and 1/1/1 with a third set of bytes (PMTiles).
    static func sources(_ stores: KindStores) throws -> [TileStoreLocation] {
        let changed = try TileCoordinate(parsing: "1/1/1"), same = try TileCoordinate(parsing: "2/0/0")
        var bMetadata = GeneratedStore.defaultMetadata
        bMetadata["name"] = "detail"
        bMetadata["attribution"] = "B data"
        bMetadata["bounds"] = "0,0,10,10"
        var aMetadata = GeneratedStore.defaultMetadata
        aMetadata["attribution"] = "A data"
        aMetadata["bounds"] = "-20,-5,5,8"
        let a = try stores.write(GeneratedStore.pyramid(maxZoom: 2), kind: "mbtiles", name: "a", metadata: aMetadata)
        let zoom3 = (try TileRange.world(z: 3)).map { Tile(coordinate: $0, data: GeneratedStore.bytes(for: $0)) }
        let b = try stores.write(zoom3 + [Tile(coordinate: changed, data: GeneratedStore.bytes(for: changed, salt: "b"))],
                                 kind: "dir", name: "b", metadata: bMetadata)
        var cMetadata = GeneratedStore.defaultMetadata
        cMetadata["bounds"] = "2,2,3,3"
        let c = try stores.write([Tile(coordinate: same, data: GeneratedStore.bytes(for: same)),
                                  Tile(coordinate: changed, data: GeneratedStore.bytes(for: changed, salt: "c"))],
                                 kind: "pmtiles", name: "c", metadata: cMetadata)
        return [a, b, c]
    }

    @Test("override: the last source holding a coordinate wins; ignore: the first; equal bytes are no conflict",
          arguments: [MergedStoreKind.DuplicatePolicy.override, .ignore], [true, false])
    func policies(policy: MergedStoreKind.DuplicatePolicy, comparing: Bool) throws {
        let stores = try KindStores()
        let merged = TileStoreLocation.merging(try Self.sources(stores), onDuplicate: policy, comparesDuplicates: comparing)
        let destination = try stores.location("mbtiles", "merged")
        let summary = try TileConverter.convert(from: merged, to: destination)
        #expect(summary.tilesWritten == 21 + 64)
        let tiles = try stores.tiles(destination)
        let changed = try TileCoordinate(parsing: "1/1/1")
        #expect(tiles[changed] == GeneratedStore.bytes(for: changed, salt: policy == .override ? "c" : ""))
        #expect(tiles[try TileCoordinate(parsing: "3/7/7")] == GeneratedStore.bytes(for: try TileCoordinate(parsing: "3/7/7")))
        let tally = try #require((merged.kind as? MergedStoreKind)?.tally)
        if comparing {
            #expect(tally.tilesGiven == (policy == .override ? [20, 64, 1] : [21, 64, 0]))
            #expect(tally.heldAlike == 1 && tally.decidedByPolicy == 1 && tally.decidedUncompared == 0)
        } else {
            #expect(tally.tilesGiven == (policy == .override ? [19, 64, 2] : [21, 64, 0]), "the tile held alike counts for the winner")
            #expect(tally.heldAlike == 0 && tally.decidedByPolicy == 0 && tally.decidedUncompared == 2,
                    "not compared: the folder's and the PMTiles' tiles have the same size, the MBTiles lists no sizes (it reads only the winners)")
        }
    }

    @Test("abort: the first coordinate two sources hold with different bytes stops the merge, naming both; nothing is written")
    func abort() throws {
        let stores = try KindStores()
        let sources = try Self.sources(stores)
        let merged = TileStoreLocation.merging(sources, onDuplicate: .abort)
        let destination = try stores.location("mbtiles", "merged")
        #expect(throws: TileStoreError(.duplicateConflict, store: sources[1].address, item: "tile 1/1/1",
                                       message: "\(sources[0].address) and \(sources[1].address) hold different bytes; nothing was written",
                                       hint: "--on-duplicate override lets the later source win, ignore keeps the first")) {
            try TileConverter.convert(from: merged, to: destination)
        }
        #expect(!FileManager.default.fileExists(atPath: destination.address))
        let agreeing = TileStoreLocation.merging([sources[0], sources[0]], onDuplicate: .abort)
        #expect(try TileConverter.convert(from: agreeing, to: destination).tilesWritten == 21)
    }

    @Test("Metadata: name from the first source, bounds the union, zooms from the tiles where a source lacks them, attributions joined")
    func metadata() throws {
        let stores = try KindStores()
        let merged = TileStoreLocation.merging(try Self.sources(stores), onDuplicate: .override)
        let metadata = try merged.openReader().metadata()
        #expect(metadata["name"] == "generated")
        #expect(metadata["bounds"] == "-20,-5,10,10")
        #expect(metadata["attribution"] == "A data | B data")
        #expect(metadata["minzoom"] == nil && metadata["maxzoom"] == nil, "a and b declare none")
        #expect(metadata["custom key"] == "kept ✓")
        let converted = try TileConverter.convert(from: merged, to: try stores.location("mbtiles", "merged")).metadata
        #expect(converted["minzoom"] == "0" && converted["maxzoom"] == "3")
        #expect(converted["bounds"] == "-20,-5,10,10")
    }

    @Test("Sources of different tile formats are refused; a merge into one of its sources is refused")
    func refusals() throws {
        let stores = try KindStores()
        let sources = try Self.sources(stores)
        var webp = GeneratedStore.defaultMetadata
        webp["format"] = "webp"
        let other = try stores.write(GeneratedStore.pyramid(maxZoom: 0), kind: "mbtiles", name: "webp", metadata: webp)
        #expect(throws: TileStoreError(.invalidOptions, store: other.address, item: "metadata format",
                                       message: "is webp, but \(sources[0].address) holds png: a merge needs one tile format",
                                       hint: "--tile-format webp (or png, jpeg) re-encodes every source's raster tiles into one")) {
            try TileStoreLocation.merging([sources[0], other], onDuplicate: .override).openReader().metadata()
        }
        #expect {
            try TileConverter.convert(from: TileStoreLocation.merging(sources, onDuplicate: .override), to: sources[0],
                                      options: { var o = TileConverter.Options(); o.overwrite = true; return o }())
        } throws: { ($0 as? TileStoreError)?.kind == .sameSourceAndDestination }
    }

    @Test("sync --delete from a merge makes the destination equal to it; a second sync writes nothing")
    func syncFromMerge() throws {
        let stores = try KindStores()
        let merged = TileStoreLocation.merging(try Self.sources(stores), onDuplicate: .ignore)
        let destination = try stores.write(GeneratedStore.pyramid(maxZoom: 1), kind: "tar", name: "published")
        var options = TileSynchronizer.Options()
        options.delete = true
        let summary = try TileSynchronizer.sync(from: merged, to: destination, options: options)
        #expect((summary.added, summary.replaced, summary.deleted) == (16 + 64, 0, 0))
        #expect(try StoreComparison.compare(merged, destination).isIdentical)
        #expect(try TileSynchronizer.sync(from: merged, to: destination, options: options).isInSync)
    }

    @Test("A source whose first tile is invalid: the merge fails naming it, or with --skip-invalid skips that tile and merges the rest")
    func invalidFirstTile() throws {
        let directory = try TemporaryDirectory()
        let bad = directory.file("bad.mbtiles"), good = directory.file("good.mbtiles")
        // Zoom 1 only: the invalid zoom-0 row is the source's first in index order.
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1).filter { $0.coordinate.z == 1 }, to: bad)
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 2).filter { $0.coordinate.z == 2 }, to: good)
        do {
            let connection = try SQLiteConnection(path: bad, mode: .readWrite)
            try connection.execute("INSERT INTO tiles VALUES (0, 3, 0, x'89504E47')")
        }
        let merged = TileStoreLocation.merging([TileStoreLocation(kind: .mbtiles, address: bad),
                                                TileStoreLocation(kind: .mbtiles, address: good)], onDuplicate: .abort)
        let destination = TileStoreLocation(kind: .mbtiles, address: directory.file("out.mbtiles"))
        #expect {
            try TileConverter.convert(from: merged, to: destination)
        } throws: { error in
            (error as? TileStoreError)?.kind == .invalidTile && (error as? TileStoreError)?.store == bad
        }
        var options = TileConverter.Options()
        options.skipInvalid = true
        let summary = try TileConverter.convert(from: merged, to: destination, options: options)
        #expect(summary.tilesWritten == 4 + 16)
        #expect(summary.invalidTiles.count == 1)
        #expect(try StoreContents.tiles(destination.address).count == 20)
    }

    #if os(Linux)
    /// Descriptors of this process open on files in `folder` (Linux: /proc/self/fd).
    static func openFiles(in folder: String) -> Set<String> {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return Set(entries.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
            .filter { $0.hasPrefix(folder + "/") })
    }

    @Test("Sources whose ranges do not overlap are opened one after another: 12 zoom-split MBTiles, at most one open at a time")
    func disjointSourcesOpenInTurn() throws {
        let directory = try TemporaryDirectory()
        var sources: [TileStoreLocation] = []
        for zoom in 0...5 {
            for half in 0...1 {
                let tiles = GeneratedStore.pyramid(maxZoom: zoom).filter { $0.coordinate.z == zoom && ($0.coordinate.x >= (1 << zoom) / 2) == (half == 1) }
                let path = directory.file("z\(zoom)-\(half).mbtiles")
                try GeneratedStore.write(tiles.isEmpty ? [] : tiles, to: path)
                sources.append(TileStoreLocation(kind: .mbtiles, address: path))
            }
        }
        let merged = TileStoreLocation.merging(sources, onDuplicate: .abort)
        let reader = try merged.openReader()
        let cursor = try reader.tiles(matching: TileFilter())
        var tiles = 0, mostOpen = 0
        var opened = Set<String>()
        while let tile = try cursor.next() {
            tiles += 1
            let open = Self.openFiles(in: directory.path)
            mostOpen = max(mostOpen, open.count)
            opened.formUnion(open)
            #expect(tile.data == GeneratedStore.bytes(for: tile.coordinate))
        }
        #expect(tiles == 1365)
        #expect(mostOpen == 1)
        #expect(opened.count == 11)
    }
    #endif
}
