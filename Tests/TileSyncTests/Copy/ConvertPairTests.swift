import Foundation
import Testing
@testable import TileSync

@Suite("Convert between every pair of store kinds")
struct ConvertPairTests {
    @Test("Exact bytes and metadata survive, between every two kinds of the registry",
          arguments: KindStores.kindNames, KindStores.kindNames)
    func pair(source: String, destination: String) throws {
        let stores = try KindStores()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        let from = try stores.write(tiles, kind: source, name: "a")
        let to = try stores.location(destination, "b")
        let summary = try TileConverter.convert(from: from, to: to)
        #expect(summary.tilesWritten == 85)
        #expect(summary.bytesWritten == tiles.reduce(0) { $0 + $1.data.count })
        #expect(try stores.tiles(to) == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
        let metadata = try to.openReader().metadata()
        // Keys a kind keeps for itself: the row scheme of a tree, martin's hash in an MBTiles.
        let owned: Set = ["scheme", "agg_tiles_hash"]
        func entries(_ metadata: TileMetadata) -> [String: String?] {
            Dictionary(metadata.filter { !owned.contains($0.key) }.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        #expect(entries(metadata) == entries(to.kind.storedMetadata(summary.metadata)))
        #expect(metadata["custom key"] == "kept ✓")
        #expect(metadata["name"] == "generated")
        #expect(metadata["minzoom"] == "0" && metadata["maxzoom"] == "3")
        #expect(summary.metadata["bounds"] == (try from.openReader().metadata()["bounds"] ?? "-180,-85.051129,180,85.051129"))
        #expect(try StoreVerifier.verify(to).counts == [:])
        #expect(try StoreComparison.compare(from, to).isIdentical)
    }

    @Test("Tar compressions (from the name) round-trip", arguments: ["b.tar.gz", "b.tgz", "b.tar.zst"])
    func tarCompressions(name: String) throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 3)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")),
                                                to: try TileStoreLocation(parsing: directory.file(name)))
        #expect(summary.tilesWritten == 85)
        let head = FileManager.default.contents(atPath: directory.file(name))?.prefix(4).map { $0 } ?? []
        #expect(head == (name.hasSuffix(".zst") ? [0x28, 0xB5, 0x2F, 0xFD] : [0x1F, 0x8B, 0x08, 0x00]))
        #expect(try StoreContents.tiles(directory.file(name)) == Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) }))
        #expect(try StoreContents.tiles(directory.file(name)).count == 85)
    }

    @Test("MBTiles rows are TMS on disk")
    func tmsOnDisk() throws {
        let directory = try TemporaryDirectory()
        let tile = try TileCoordinate(z: 11, x: 327, y: 791)
        try GeneratedStore.write([Tile(coordinate: tile, data: GeneratedStore.bytes(for: tile))], to: directory.file("a.mbtiles"))
        #expect(try StoreContents.mbtilesRows(directory.file("a.mbtiles")).keys.sorted() == ["11/327/1256"])
        let reader = try MBTilesReader(location: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")))
        #expect(try reader.tile(at: tile) == GeneratedStore.bytes(for: tile))
        #expect(try reader.tile(at: TileCoordinate(z: 11, x: 327, y: 1256)) == nil)
    }

    @Test("Zoom and bounding-box filters, with metadata narrowed to match")
    func filters() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 4), to: directory.file("a.mbtiles"))
        var options = TileConverter.Options()
        options.filter = try TileFilter(minZoom: 2, maxZoom: 3, boundingBox: BoundingBox(parsing: "0,0,90,60"))
        for destination in ["b-folder", "b.tar", "b.mbtiles"] {
            let summary = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")),
                                                    to: try TileStoreLocation(parsing: directory.file(destination)), options: options)
            let copied = try StoreContents.tiles(directory.file(destination))
            #expect(copied.keys.map(\.description).sorted() == ["2/2/1", "3/4/2", "3/4/3", "3/5/2", "3/5/3"], "\(destination)")
            #expect(summary.tilesWritten == 5)
            #expect(summary.metadata["minzoom"] == "2" && summary.metadata["maxzoom"] == "3")
            #expect(summary.metadata["bounds"] == "0,0,90,60")
        }
    }

    @Test("Layouts: TMS, z/y/x, zero padding and quadkeys round-trip through folders and tars",
          arguments: ["{z}/{x}/{-y}.{ext}", "{z}/{y}/{x}.{ext}", "{z:2}/{x:4}/{y:4}.{ext}", "{q}.{ext}", "t/{z}_{x}_{y}"])
    func layouts(layout: String) throws {
        let directory = try TemporaryDirectory()
        let tiles = GeneratedStore.pyramid(maxZoom: 2)
        try GeneratedStore.write(tiles, to: directory.file("a.mbtiles"))
        let template = try PathTemplate(layout)
        var options = TileStoreOptions()
        options.layout = template
        for destination in ["b-folder", "b.tar"] {
            _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")),
                                          to: try TileStoreLocation(parsing: directory.file(destination), options: options))
            let expected = Dictionary(uniqueKeysWithValues: tiles.map { ($0.coordinate, $0.data) })
            #expect(try StoreContents.tiles(directory.file(destination), layout: template) == expected)
        }
        let sample = try TileCoordinate(z: 2, x: 1, y: 0)
        let file = directory.file("b-folder/" + template.path(for: sample, fileExtension: "png"))
        #expect(FileManager.default.contents(atPath: file) == GeneratedStore.bytes(for: sample))
        if template.usesTMSRows {
            #expect(try StoreContents.tiles(directory.file("b-folder")).count == tiles.count, "scheme=tms in metadata.json selects the layout")
        }
    }

    @Test("An existing destination is refused without overwrite and replaced with it")
    func overwrite() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: directory.file("a.mbtiles"))
        for destination in ["b.mbtiles", "b-folder", "b.tar"] {
            let target = try TileStoreLocation(parsing: directory.file(destination))
            _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")), to: target)
            #expect {
                _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")), to: target)
            } throws: { error in
                (error as? TileStoreError)?.kind == .destinationExists
                    && "\(error)" == "\(directory.file(destination)): already exists (pass --force to replace it)"
            }
            var options = TileConverter.Options()
            options.overwrite = true
            options.filter = try TileFilter(maxZoom: 0)
            _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")), to: target, options: options)
            #expect(try StoreContents.tiles(directory.file(destination)).count == 1)
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tilesync-") }
        #expect(leftovers.isEmpty)
    }

    @Test("Source and destination the same file (also through another path) is refused")
    func sameStore() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: directory.file("a.mbtiles"))
        #expect {
            var options = TileConverter.Options()
            options.overwrite = true
            _ = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")),
                                          to: TileStoreLocation(kind: .mbtiles, address: directory.path + "/./a.mbtiles"), options: options)
        } throws: { ($0 as? TileStoreError)?.kind == .sameSourceAndDestination }
    }

    @Test("A failed or cancelled run leaves the destination as it was and no temporary files")
    func cancelled() throws {
        let directory = try TemporaryDirectory()
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 3), to: directory.file("a.mbtiles"))
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 0), to: directory.file("old.tar"))
        for destination in ["b.mbtiles", "b-folder", "old.tar"] {
            var options = TileConverter.Options()
            options.overwrite = true
            let counter = Counter()
            options.isCancelled = { counter.increment() > 20 }
            #expect {
                _ = try TileConverter.convert(from: try TileStoreLocation(parsing: directory.file("a.mbtiles")),
                                              to: try TileStoreLocation(parsing: directory.file(destination)), options: options)
            } throws: { ($0 as? TileStoreError)?.kind == .interrupted }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["a.mbtiles", "old.tar"])
        #expect(try StoreContents.tiles(directory.file("old.tar")).count == 1)
    }
}

@Suite("Leftovers of killed runs")
struct StaleTemporaryTests {
    @Test("Temporaries of dead processes are removed by the next run; a live run's are kept")
    func staleTemporaries() throws {
        let directory = try TemporaryDirectory()
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let deadPID = finished.processIdentifier
        let stale = directory.file(".b.mbtiles.tilesync-\(deadPID)-1.tmp")
        let staleState = directory.file("..b.mbtiles.tilesync-state.tilesync-\(deadPID)-2.tmp")
        let live = directory.file(".b.mbtiles.tilesync-1-3.tmp")
        let unrelated = directory.file(".other.mbtiles.tilesync-\(deadPID)-4.tmp")
        let scratch = directory.file(".scratch-pmtiles-leaves.tilesync-\(deadPID)-5.tmp")
        let staleJournals = ["-journal", "-wal", "-shm"].map { stale + $0 }
        let liveJournal = live + "-journal"
        let notSQLite = stale + "-old"
        for path in [stale, staleState, live, unrelated, scratch, liveJournal, notSQLite] + staleJournals {
            #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        }
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 1), to: directory.file("a.mbtiles"))
        _ = try TileConverter.convert(from: TileStoreLocation(kind: .mbtiles, address: directory.file("a.mbtiles")),
                                      to: TileStoreLocation(kind: .mbtiles, address: directory.file("b.mbtiles")))
        #expect(!AtomicFile.exists(stale) && !AtomicFile.exists(staleState))
        #expect(staleJournals.filter(AtomicFile.exists) == [], "what SQLite kept beside a killed writer's database")
        #expect(AtomicFile.exists(live) && AtomicFile.exists(liveJournal), "pid 1 is alive")
        #expect(AtomicFile.exists(notSQLite), "not a name TileSync or SQLite makes")
        #expect(AtomicFile.exists(unrelated), "another destination's temporaries are not ours to judge")
        #expect(!AtomicFile.exists(scratch), "a scratch file a killed run had not yet unlinked")
    }

    @Test("A temporary whose PID now belongs to a process that started after the file was written is stale (a reused PID)")
    func reusedPID() throws {
        let directory = try TemporaryDirectory()
        let later = Process()
        later.executableURL = URL(fileURLWithPath: "/bin/sleep")
        later.arguments = ["30"]
        try later.run()
        defer { kill(later.processIdentifier, SIGKILL); later.waitUntilExit() }
        let reused = directory.file(".b.mbtiles.tilesync-\(later.processIdentifier)-1.tmp")
        let current = directory.file(".b.mbtiles.tilesync-\(later.processIdentifier)-2.tmp")
        for path in [reused, current] { #expect(FileManager.default.createFile(atPath: path, contents: Data([1]))) }
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: reused)
        #expect(!AtomicFile.isOwner(later.processIdentifier, of: reused))
        #expect(AtomicFile.isOwner(later.processIdentifier, of: current))
        AtomicFile.removeStaleTemporaries(of: directory.file("b.mbtiles"))
        #expect(!AtomicFile.exists(reused))
        #expect(AtomicFile.exists(current), "written while its process ran: kept")
    }
}
