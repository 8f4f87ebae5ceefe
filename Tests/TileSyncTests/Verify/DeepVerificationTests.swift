import Foundation
import Testing
@testable import TileSync

@Suite("verify --deep: every tile's content decoded, each bad one named with what is wrong")
struct DeepVerificationTests {
    static func gzip(_ data: Data) throws -> Data { Data(try GzipCodec.compress(data)) }

    /// Vector tiles sound and broken, gzip and plain, and a PNG that is only a signature.
    static func mixedStore(in directory: TemporaryDirectory) throws -> String {
        let sound = VectorTileTests.sample.encoded()
        var broken = try gzip(sound)
        broken[broken.count / 2] ^= 0xFF
        let tiles: [(String, Data)] = [
            ("0/0/0", try gzip(sound)), ("1/0/0", sound), ("1/1/0", try gzip(sound.prefix(sound.count / 2))),
            ("1/0/1", broken), ("1/1/1", GeneratedStore.bytes(for: TileCoordinate(unchecked: 1, 1, 1))),
            ("2/0/0", VectorTileTests.layer { $0.stringField(1, "a"); $0.stringField(1, "a") }),
        ]
        var metadata = GeneratedStore.defaultMetadata
        metadata["format"] = "pbf"
        let path = directory.file("mixed.mbtiles")
        try GeneratedStore.write(try tiles.map { Tile(coordinate: try TileCoordinate(parsing: $0.0), data: $0.1) }, to: path, metadata: metadata)
        return path
    }

    @Test("Sound tiles pass; a truncated tile, a broken gzip stream, an image that does not decode and a layer without a version are named")
    func mixed() throws {
        let directory = try TemporaryDirectory()
        let location = try TileStoreLocation(parsing: try Self.mixedStore(in: directory))
        let heard = LockedValue<[String]>([])
        let report = try StoreVerifier.verify(location, deep: true, onProblem: { problem in heard.withLock { $0.append(problem.description) } })
        let content = report.problems.filter { $0.category == .content }.map(\.description)
        #expect(report.counts[.content] == 4 && !report.isClean && report.tilesChecked == 6)
        #expect(content.count == 4)
        #expect(content.contains("tile 2/0/0: vector tile: layer 'a': a layer without a version (byte 2)"))
        #expect(content.contains { $0.hasPrefix("tile 1/1/0: vector tile: layer 'layer 0': a length of ") })
        #expect(content.contains { $0.hasPrefix("tile 1/0/1: the gzip stream does not decode: ") })
        #expect(content.contains { $0.hasPrefix("tile 1/1/1: the png image does not decode: ") })
        #expect(heard.withLock { $0 }.filter { $0.contains("vector tile") || $0.contains("does not decode") }.count == 4)
        let shallow = try StoreVerifier.verify(location)
        #expect(shallow.counts[.content] == nil)
    }

    @Test("JSON inside a gzip tile of a store that declares pbf is named (the format check sees only gzip); JSON that does not parse is named too")
    func jsonInsideCompression() throws {
        let directory = try TemporaryDirectory()
        let tiles = [
            Tile(coordinate: TileCoordinate(unchecked: 0, 0, 0), data: try Self.gzip(Data(#"{"type":"FeatureCollection","features":[]}"#.utf8))),
            Tile(coordinate: TileCoordinate(unchecked: 1, 0, 0), data: try Self.gzip(Data(#"{"type":"#.utf8))),
            Tile(coordinate: TileCoordinate(unchecked: 1, 1, 0), data: try Self.gzip(VectorTileTests.sample.encoded())),
        ]
        var metadata = GeneratedStore.defaultMetadata
        metadata["format"] = "pbf"
        try GeneratedStore.write(tiles, to: directory.file("pbf.mbtiles"), metadata: metadata)
        let report = try StoreVerifier.verify(TileStoreLocation(parsing: directory.file("pbf.mbtiles")), deep: true)
        let content = report.problems.filter { $0.category == .content }.map(\.description)
        #expect(content.count == 3 && report.counts[.format] == nil)
        #expect(content.contains("tile 0/0/0: is JSON inside its gzip compression, but the metadata format is pbf"))
        #expect(content.contains("tile 1/0/0: is JSON inside its gzip compression, but the metadata format is pbf"))
        #expect(content.contains { $0.hasPrefix("tile 1/0/0: the JSON does not parse: ") })
        metadata["format"] = "json"
        try GeneratedStore.write(Array(tiles.prefix(1)), to: directory.file("json.mbtiles"), metadata: metadata)
        let json = try StoreVerifier.verify(TileStoreLocation(parsing: directory.file("json.mbtiles")), deep: true)
        #expect(json.counts[.content] == nil)
    }

    @Test("In a pbf store, bytes of no known format are decoded: a tile that begins with an extension field is sound, garbage a content problem; the shallow check reads the top level and calls only the garbage a format problem")
    func unknownBytesInVectorStore() throws {
        let directory = try TemporaryDirectory()
        let tiles = [
            Tile(coordinate: TileCoordinate(unchecked: 1, 0, 0), data: Data([0x80, 0x01, 0x05]) + VectorTileTests.sample.encoded()),
            Tile(coordinate: TileCoordinate(unchecked: 1, 1, 0), data: Data([0x18, 0x05])),
        ]
        var metadata = GeneratedStore.defaultMetadata
        metadata["format"] = "pbf"
        try GeneratedStore.write(tiles, to: directory.file("v.mbtiles"), metadata: metadata)
        let location = try TileStoreLocation(parsing: directory.file("v.mbtiles"))
        let deep = try StoreVerifier.verify(location, deep: true)
        #expect(deep.counts[.format] == nil && deep.counts[.content] == 1)
        #expect(deep.problems.filter { $0.category == .content }.map(\.description)
            == ["tile 1/1/0: vector tile: layer 'layer 0': a layer field of wire type 0 (byte 0)"])
        let shallow = try StoreVerifier.verify(location)
        #expect(shallow.counts[.format] == 1 && shallow.counts[.content] == nil)
        #expect(shallow.problems.map(\.description) == ["tile 1/1/0: is unknown, but the metadata format is pbf (\(Self.brotliHint))"])
    }

    @Test("A store of brotli tiles (no magic bytes) passes the shallow check; an image in it is still named")
    func brotliStore() throws {
        let directory = try TemporaryDirectory()
        let sound = VectorTileTests.sample.encoded()
        let tiles = [
            Tile(coordinate: TileCoordinate(unchecked: 0, 0, 0), data: sound),
            Tile(coordinate: TileCoordinate(unchecked: 1, 0, 0), data: VectorTileTests.layer { $0.stringField(1, "b"); $0.varintField(15, 2) }),
        ]
        var metadata = GeneratedStore.defaultMetadata
        metadata["format"] = "pbf"
        try GeneratedStore.write(tiles, to: directory.file("plain.mbtiles"), metadata: metadata)
        var options = TileConverter.Options()
        options.transforms.compression = .brotli
        _ = try TileConverter.convert(from: TileStoreLocation(parsing: directory.file("plain.mbtiles")),
                                      to: TileStoreLocation(parsing: directory.file("brotli.mbtiles")), options: options)
        let location = try TileStoreLocation(parsing: directory.file("brotli.mbtiles"))
        #expect(try location.openReader().declaredTileCompression() == .brotli)
        let shallow = try StoreVerifier.verify(location)
        #expect(shallow.isClean && shallow.tilesChecked == 2 && shallow.problems.isEmpty)
        #expect(try StoreVerifier.verify(location, deep: true).isClean)
        var withImage = metadata
        withImage["compression"] = "brotli"
        try GeneratedStore.write([Tile(coordinate: TileCoordinate(unchecked: 0, 0, 0), data: GeneratedStore.bytes(for: TileCoordinate(unchecked: 0, 0, 0)))],
                                 to: directory.file("image.mbtiles"), metadata: withImage)
        let image = try StoreVerifier.verify(TileStoreLocation(parsing: directory.file("image.mbtiles")))
        #expect(image.problems.map(\.description) == ["tile 0/0/0: is png, but the metadata format is pbf"])

        let cursor = try location.openReader().tiles(matching: .all)
        var brotliTiles: [Tile] = []
        while let tile = try cursor.next() { brotliTiles.append(tile) }
        try GeneratedStore.write(brotliTiles, to: directory.file("undeclared.mbtiles"), metadata: metadata)
        let undeclared = try TileStoreLocation(parsing: directory.file("undeclared.mbtiles"))
        #expect(try StoreVerifier.verify(undeclared).problems.map(\.description).sorted() == [
            "tile 0/0/0: is unknown, but the metadata format is pbf (\(Self.brotliHint))",
            "tile 1/0/0: is unknown, but the metadata format is pbf (\(Self.brotliHint))",
        ])
        let copied = try TileConverter.convert(from: undeclared, to: TileStoreLocation(parsing: directory.file("copy.pmtiles")))
        #expect(copied.warnings.contains("\(undeclared.address): metadata format is 'pbf' but the first tile is of no known format; "
            + "the metadata was kept (\(Self.brotliHint))"))
    }

    static let brotliHint = "brotli has no magic bytes: if the tiles are brotli-compressed, set compression=brotli in the metadata"

    @Test("The bundled sample's PNG tiles all decode", .enabled(if: RasterReencoder.isAvailable))
    func sampleDecodes() throws {
        let report = try StoreVerifier.verify(TileStoreLocation(parsing: Fixtures.packageRoot.appendingPathComponent("Samples/world.mbtiles").path),
                                              deep: true)
        #expect(report.isClean && report.tilesChecked == 85 && report.counts[.content] == nil)
    }

    @Test("Past 10 problems of a category the report counts, and the listener still hears each bad tile")
    func manyBadTiles() throws {
        let directory = try TemporaryDirectory()
        let tiles = try TileRange.world(z: 3).map { Tile(coordinate: $0, data: Data([0x1A, 0x05, 0x0A])) }
        var metadata = GeneratedStore.defaultMetadata
        metadata["format"] = "pbf"
        try GeneratedStore.write(tiles, to: directory.file("bad.mbtiles"), metadata: metadata)
        let heard = LockedValue<Set<String>>([])
        let report = try StoreVerifier.verify(TileStoreLocation(parsing: directory.file("bad.mbtiles")), deep: true,
                                              onProblem: { problem in heard.withLock { _ = $0.insert(problem.item ?? "") } })
        #expect(report.counts[.content] == 64 && report.problems.count == StoreVerifier.Report.keptPerCategory)
        #expect(heard.withLock { $0 } == Set(tiles.map { "tile \($0.coordinate)" }))
    }
}
