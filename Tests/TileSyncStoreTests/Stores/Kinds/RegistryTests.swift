import Foundation
import Testing
@testable import TileSync

@Suite("Store registry")
struct RegistryTests {
    static func kindName(_ text: String) throws -> String {
        try TileStoreLocation(parsing: text).kind.name
    }

    @Test("Kinds declare their command-line options: each once, for the uses they fit, and each read by its kind")
    func commandLineOptions() throws {
        let registry = TileStoreRegistry.standard
        let server = ["connections", "streams", "cacert", "rate", "user-agent", "header", "subdomains", "revalidate"]
        #expect(registry.commandLineOptions(for: [.read]).map(\.name) == ["endpoint", "transfers"] + server)
        #expect(registry.commandLineOptions(for: [.read, .create]).map(\.name)
            == ["mbtiles-schema", "dedup", "skip-agg-tiles-hash", "grid-callback", "endpoint", "transfers", "cache-control"] + server)
        #expect(registry.commandLineOptions(for: [.read, .update]).map(\.name)
            == ["mbtiles-schema", "grid-callback", "endpoint", "transfers", "cache-control"] + server)
        #expect(registry.commandLineOptions(for: [.change]).map(\.name) == ["endpoint", "transfers", "cache-control"])
        for kind in registry.kinds {
            for option in kind.commandLineOptions {
                #expect(kind.optionNames.contains(option.name), "\(kind.name) declares --\(option.name) but does not read it")
            }
        }
        var options = TileStoreOptions()
        let schema = try #require(registry.commandLineOptions(for: [.create]).first { $0.name == "mbtiles-schema" })
        try schema.set("normalized", in: &options)
        #expect(options.mbtilesSchema == .normalized)
        #expect(throws: TileStoreOptions.ValueError("must be flat, flat-with-hash or normalized, not 'round'")) {
            try schema.set("round", in: &options)
        }
        let transfers = try #require(registry.commandLineOptions(for: [.read]).first { $0.name == "transfers" })
        #expect(throws: TileStoreOptions.ValueError("must be a whole number in 1...1024, not '0'")) { try transfers.set("0", in: &options) }
    }

    @Test("Prefixes force a kind; names, existing folders and first bytes choose one; a new plain path is a folder")
    func resolution() throws {
        let directory = try TemporaryDirectory()
        #expect(TileStoreRegistry.standard.kinds.map(\.name) == ["mbtiles", "dir", "tar", "pmtiles", "s3", "tileserver", "gpkg"])
        #expect(try Self.kindName("mbtiles:" + directory.file("x")) == "mbtiles")
        #expect(try Self.kindName("s3://bucket/tiles") == "s3")
        #expect(try Self.kindName("S3://bucket") == "s3")
        #expect(try Self.kindName("https://tile.example.com/{z}/{x}/{y}.png") == "tileserver")
        #expect(try Self.kindName("http://h/tiles/{q}.jpeg?key=1") == "tileserver")
        #expect(try Self.kindName("https://example.com/maps/tiles.json?key=1") == "tileserver")
        #expect(try Self.kindName("https://example.com/world.pmtiles") == "pmtiles")
        #expect(try TileStoreLocation(parsing: "tar:" + directory.file("x.mbtiles")).address == directory.file("x.mbtiles"))
        for (name, kind) in [("new.mbtiles", "mbtiles"), ("NEW.SQLITE3", "mbtiles"), ("a.db", "mbtiles"), ("a.tgz", "tar"),
                             ("a.tar.zst", "tar"), ("a.TAR", "tar"), ("plain", "dir"), ("tiles.pmtiles", "pmtiles"), ("A.PMTILES", "pmtiles")] {
            #expect(try Self.kindName(directory.file(name)) == kind, "\(name)")
        }
        try FileManager.default.createDirectory(atPath: directory.file("folder.mbtiles"), withIntermediateDirectories: false)
        #expect(try Self.kindName(directory.file("folder.mbtiles")) == "dir")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 0), to: directory.file("a.mbtiles"))
        try FileManager.default.copyItem(atPath: directory.file("a.mbtiles"), toPath: directory.file("sqlite-blob"))
        #expect(try Self.kindName(directory.file("sqlite-blob")) == "mbtiles")
        try GeneratedStore.write(GeneratedStore.pyramid(maxZoom: 0), to: directory.file("a.tar.gz"))
        try FileManager.default.copyItem(atPath: directory.file("a.tar.gz"), toPath: directory.file("gzip-blob"))
        #expect(try Self.kindName(directory.file("gzip-blob")) == "tar")
    }

    @Test("A location no kind claims is refused naming every kind and prefix; a FIFO is not read")
    func refused() throws {
        let directory = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.file("notes.txt"), contents: Data("hello".utf8)))
        #expect(mkfifo(directory.file("pipe"), 0o600) == 0)
        for path in [directory.file("notes.txt"), directory.file("pipe"), "gs://bucket/tiles", "ftp://host/tiles"] {
            #expect {
                _ = try TileStoreLocation(parsing: path)
            } throws: { error in
                (error as? TileStoreError)?.description == path + ": not a kind of tile store TileSync knows (MBTiles, folder, tar archive, PMTiles archive, S3, tile server, GeoPackage) "
                    + "(name the kind with a prefix: mbtiles:, dir:, tar:, pmtiles:, s3:, tileserver:, gpkg:)"
            }
        }
        #expect {
            _ = try TileStoreLocation(parsing: "dir:")
        } throws: { ($0 as? TileStoreError)?.description == "dir:: the path after 'dir:' is empty" }
    }

    @Test("Each kind reads its own options: foreign ones and contradictions are refused; dedup means normalized MBTiles")
    func options() throws {
        var layout = TileStoreOptions()
        layout.layout = .tms
        let mbtiles = TileStoreLocation(kind: .mbtiles, address: "a.mbtiles", options: layout)
        #expect {
            try mbtiles.kind.validate(mbtiles)
        } throws: { ($0 as? TileStoreError)?.description == "a.mbtiles: option layout: does not apply to MBTiles stores" }
        try TileStoreLocation(kind: .directory, address: "t", options: layout).kind.validate(TileStoreLocation(kind: .directory, address: "t", options: layout))
        var dedup = TileStoreOptions()
        dedup.deduplicate = true
        #expect(try MBTilesStoreKind().options(from: dedup, at: mbtiles) == MBTilesOptions(schema: .normalized))
        dedup.mbtilesSchema = .flatWithHash
        #expect {
            _ = try MBTilesStoreKind().options(from: dedup, at: mbtiles)
        } throws: { ($0 as? TileStoreError)?.kind == .invalidOptions }
        #expect(dedup.description == "dedup=true,mbtiles-schema=flatWithHash")
        #expect(TileStoreRegistry.standard.kinds(reading: TileStoreOptions.Layout.name).map(\.name) == ["dir", "tar", "s3"])
        #expect(TileStoreRegistry.standard.localIndexKind?.name == "mbtiles")
    }

    @Test("Order keys sort tiles by zoom, column and row (XYZ or TMS) over all 31 zooms")
    func orderKeys() throws {
        let corner = try TileCoordinate(z: 30, x: (1 << 30) - 1, y: (1 << 30) - 1)
        #expect(TileOrder.zoomColumnRow.sortKey(corner) == ((1 << 62) - 1) / 3 - 1)
        #expect(TileOrder.zoomColumnRow.sortKey(try TileCoordinate(z: 0, x: 0, y: 0)) == 0)
        let tiles = GeneratedStore.pyramid(maxZoom: 3).map(\.coordinate)
        for order in [TileOrder.zoomColumnRow, .zoomColumnTMSRow] {
            let byKey = tiles.sorted { order.sortKey($0) < order.sortKey($1) }
            let byTuple = tiles.sorted { order == .zoomColumnRow ? ($0.z, $0.x, $0.y) < ($1.z, $1.x, $1.y) : ($0.z, $0.x, $0.tmsY) < ($1.z, $1.x, $1.tmsY) }
            #expect(byKey == byTuple)
            #expect(Set(tiles.map(order.sortKey)).count == tiles.count)
        }
        #expect(!TileOrder.unordered.precedes(tiles[0], tiles[1]))
    }

    @Test("URLs: s3:// and http(s):// names ending in .pmtiles are archives read by range, other s3:// names are prefixes")
    func remoteClaims() throws {
        #expect(try TileStoreLocation(parsing: "s3://tiles/planet.pmtiles").kind.name == "pmtiles")
        #expect(try TileStoreLocation(parsing: "https://example.com/maps/Planet.PMTiles?key=1").kind.name == "pmtiles")
        #expect(try TileStoreLocation(parsing: "http://127.0.0.1:8080/a.pmtiles").kind.name == "pmtiles")
        #expect(try TileStoreLocation(parsing: "s3://tiles/planet").kind.name == "s3")
        let forced = try TileStoreLocation(parsing: "s3:s3://tiles/planet.pmtiles")
        #expect(forced.kind.name == "s3" && forced.address == "s3://tiles/planet.pmtiles")
        #expect(try TileStoreLocation(parsing: "pmtiles:https://example.com/tiles").kind.name == "pmtiles")
        let unknown = #expect(throws: TileStoreError.self) { _ = try TileStoreLocation(parsing: "https://example.com/tiles") }
        #expect(unknown?.kind == .notATileStore)
    }
}
