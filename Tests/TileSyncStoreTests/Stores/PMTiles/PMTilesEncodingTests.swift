import Foundation
import Testing
@testable import TileSync

@Suite("PMTiles encodings: tile IDs, varints, directories, header")
struct PMTilesEncodingTests {
    @Test("Tile IDs of the spec's examples", arguments: [
        (0, 0, 0, UInt64(0)), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4), (2, 0, 0, 5), (12, 3423, 1763, 19_078_479),
    ])
    func knownIDs(z: Int, x: Int, y: Int, id: UInt64) throws {
        #expect(try TileID.id(z: z, x: x, y: y) == id)
        let back = try TileID.zxy(of: id)
        #expect(back.z == z && back.x == x && back.y == y)
    }

    @Test("The four corners of every zoom 0-31 round-trip, and each zoom starts where the last ended")
    func corners() throws {
        for z in 0...TileID.maxZoom {
            let last = (1 << z) - 1
            var ids: [UInt64] = []
            for (x, y) in [(0, 0), (last, 0), (0, last), (last, last)] {
                let id = try TileID.id(z: z, x: x, y: y)
                ids.append(id)
                let back = try TileID.zxy(of: id)
                #expect(back.z == z && back.x == x && back.y == y, "zoom \(z) corner \(x),\(y)")
                #expect(id >= TileID.firstID(ofZoom: z) && id < TileID.firstID(ofZoom: z + 1))
            }
            #expect(ids[0] == TileID.firstID(ofZoom: z), "the Hilbert curve starts at the north-west corner")
        }
        #expect(TileID.firstID(ofZoom: 32) == 6_148_914_691_236_517_205)
        #expect(throws: TileCoordinateError.self) { try TileID.zxy(of: TileID.end) }
        #expect(throws: TileCoordinateError.zoomOutOfRange(32)) { try TileID.id(z: 32, x: 0, y: 0) }
        #expect(throws: TileCoordinateError.columnOutOfRange(z: 2, x: 4)) { try TileID.id(z: 2, x: 4, y: 0) }
    }

    @Test("Every tile of zoom 5 has a distinct ID, and neighbours along the curve are adjacent tiles")
    func hilbertCurve() throws {
        var previous: (x: Int, y: Int)?
        for id in TileID.firstID(ofZoom: 5)..<TileID.firstID(ofZoom: 6) {
            let (z, x, y) = try TileID.zxy(of: id)
            #expect(z == 5)
            #expect(try TileID.id(z: z, x: x, y: y) == id)
            if let previous { #expect(abs(previous.x - x) + abs(previous.y - y) == 1) }
            previous = (x, y)
        }
    }

    @Test("Varints: encodings, the 64-bit limit, truncation")
    func varints() throws {
        var bytes: [UInt8] = []
        for value: UInt64 in [0, 127, 128, 300, UInt64.max] { PMTilesByteReader.appendVarint(value, to: &bytes) }
        #expect(bytes == [0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        var reader = PMTilesByteReader(bytes, part: "test")
        for value: UInt64 in [0, 127, 128, 300, UInt64.max] { #expect(try reader.varint() == value) }
        var overflow = PMTilesByteReader([UInt8](repeating: 0xFF, count: 9) + [0x02], part: "test")
        #expect(throws: PMTilesFormatError("test", "a number at byte 9 overflows 64 bits")) { try overflow.varint() }
        var truncated = PMTilesByteReader([0x80, 0x80], part: "test")
        #expect(throws: PMTilesFormatError("test", "ends inside a number (byte 2)")) { try truncated.varint() }
    }

    @Test("A directory round-trips, with offsets that follow the previous blob stored as 0")
    func directoryRoundTrip() throws {
        let entries = [
            PMTilesEntry(tileID: 0, offset: 0, length: 10, runLength: 1),
            PMTilesEntry(tileID: 1, offset: 10, length: 5, runLength: 3),
            PMTilesEntry(tileID: 9, offset: 0, length: 10, runLength: 1),
            PMTilesEntry(tileID: 20, offset: 123, length: 7, runLength: 0),
        ]
        let bytes = PMTilesDirectory.encode(entries)
        #expect(bytes == [4, 0, 1, 8, 11, 1, 3, 1, 0, 10, 5, 10, 7, 1, 0, 1, 124])
        #expect(try PMTilesDirectory.decode(bytes, part: "root directory") == entries)
    }

    @Test("Directories that break the spec are refused, naming the part", arguments: [
        ([UInt8]([0]), "holds no entries"),
        ([200, 1, 0, 1, 1, 1], "claims 200 entries but has 4 bytes for them"),
        ([2, 5, 0, 1, 1, 1, 1, 1, 1], "entry 1 repeats tile ID 5"),
        ([2, 0, 1, 3, 1, 1, 1, 1, 1], "entry 0 runs into entry 1 (tile ID 1)"),
        ([1, 0, 1, 0, 1], "entry 0 has length 0"),
        ([1, 0, 1, 1, 0], "entry 0 says it follows a previous entry"),
        ([1, 0, 1, 1, 1, 9], "has 1 bytes after its entries"),
        ([1, 0, 0x80, 0x80, 0x80, 0x80, 0x10, 1, 1], "entry 0 has a run length of 4294967296, above 2^32 - 1"),
    ])
    func badDirectories(bytes: [UInt8], message: String) {
        #expect(throws: PMTilesFormatError("leaf directory at offset 0", message)) {
            try PMTilesDirectory.decode(bytes, part: "leaf directory at offset 0")
        }
    }

    @Test("A run that passes the last tile ID of zoom 31 is refused")
    func runPastZoom31() {
        var bytes: [UInt8] = [1]
        PMTilesByteReader.appendVarint(TileID.end - 2, to: &bytes)
        bytes += [5, 1, 1]
        #expect(throws: PMTilesFormatError("root directory", "entry 0 runs past zoom 31")) {
            try PMTilesDirectory.decode(bytes, part: "root directory")
        }
    }

    @Test("The header round-trips byte for byte; other magic numbers and versions are named")
    func header() throws {
        var header = PMTilesHeader()
        header.rootOffset = 127
        header.rootLength = 300
        header.tileDataLength = 1 << 40
        header.addressedTilesCount = 85
        header.isClustered = true
        header.tileTypeValue = 2
        header.minLongitudeE7 = -1_800_000_000
        header.centerLatitudeE7 = -123
        header.centerZoom = 7
        let bytes = header.serialized()
        #expect(bytes.count == 127)
        #expect(Array(bytes[0..<8]) == Array("PMTiles".utf8) + [3])
        #expect(Array(bytes[8..<24]) == [127, 0, 0, 0, 0, 0, 0, 0, 44, 1, 0, 0, 0, 0, 0, 0])
        #expect(try PMTilesHeader(parsing: bytes) == header)
        var version = bytes
        version[7] = 4
        #expect(throws: PMTilesFormatError("header", "is PMTiles version 4, which TileSync does not read (only version 3)")) {
            try PMTilesHeader(parsing: version)
        }
        #expect(throws: PMTilesFormatError("header", "is PMTiles version 2, which TileSync does not read (only version 3; `pmtiles convert` upgrades it)")) {
            try PMTilesHeader(parsing: Array("PM".utf8) + [2, 0] + [UInt8](repeating: 0, count: 200))
        }
        #expect(throws: PMTilesFormatError("header", "does not start with the PMTiles magic number")) {
            try PMTilesHeader(parsing: Array("SQLite format 3".utf8))
        }
        #expect(throws: PMTilesFormatError("header", "is 100 bytes, shorter than the 127 of a PMTiles v3 header")) {
            try PMTilesHeader(parsing: Array(bytes.prefix(100)))
        }
    }

    @Test("gzip: round trip, output cap, damage")
    func gzip() throws {
        let input = [UInt8](repeating: 65, count: 100_000)
        let compressed = try GzipCodec.compress(input)
        #expect(compressed.starts(with: [0x1F, 0x8B]))
        #expect(try GzipCodec.decompress(compressed, limit: 100_000) == input)
        #expect(throws: CompressionError.self) { try GzipCodec.decompress(compressed, limit: 99_999) }
        #expect(throws: CompressionError.self) { try GzipCodec.decompress(Array(compressed.dropLast(10)), limit: 1 << 20) }
        #expect(throws: CompressionError.self) { try GzipCodec.decompress([1, 2, 3, 4], limit: 1 << 20) }
    }

    @Test("Metadata: MBTiles keys to PMTiles JSON and back, as go-pmtiles maps them")
    func metadataMapping() throws {
        var metadata = TileMetadata()
        metadata["name"] = "World"
        metadata["format"] = "pbf"
        metadata["minzoom"] = "0"
        metadata["maxzoom"] = "5"
        metadata["bounds"] = "-10.5,-20.25,30,40"
        metadata["center"] = "1.5,2.5,3"
        metadata["json"] = #"{"vector_layers": [{"id": "roads", "fields": {}}], "tilestats": {"layerCount": 1}}"#
        metadata["custom"] = "kept \"quoted\""
        let encoded = PMTilesMetadataMapping.encode(metadata)
        #expect(String(decoding: encoded.json, as: UTF8.self) == #"{"name":"World","format":"pbf","minzoom":"0","maxzoom":"5","vector_layers":[{"id":"roads","fields":{}}],"tilestats":{"layerCount":1},"custom":"kept \"quoted\""}"#)
        #expect(encoded.bounds == (try BoundingBox(parsing: "-10.5,-20.25,30,40")))
        #expect(encoded.center?.longitude == 1.5 && encoded.center?.latitude == 2.5 && encoded.center?.zoom == 3)

        var header = PMTilesHeader()
        header.minLongitudeE7 = -105_000_000
        header.minLatitudeE7 = -202_500_000
        header.maxLongitudeE7 = 300_000_000
        header.maxLatitudeE7 = 400_000_000
        header.centerLongitudeE7 = 15_000_000
        header.centerLatitudeE7 = 25_000_000
        header.centerZoom = 3
        header.tileTypeValue = PMTilesHeader.TileType.mvt.rawValue
        let decoded = try PMTilesMetadataMapping.decode(encoded.json, header: header, store: "a.pmtiles")
        #expect(decoded.keys == ["name", "format", "minzoom", "maxzoom", "custom", "json", "bounds", "center"])
        #expect(decoded["json"] == #"{"vector_layers":[{"id":"roads","fields":{}}],"tilestats":{"layerCount":1}}"#)
        #expect(decoded["bounds"] == "-10.5,-20.25,30,40")
        #expect(decoded["center"] == "1.5,2.5,3")
        #expect(decoded["custom"] == "kept \"quoted\"")
        #expect(throws: TileStoreError.self) { try PMTilesMetadataMapping.decode(Array("[1]".utf8), header: header, store: "a.pmtiles") }
        #expect(PMTilesMetadataMapping.degrees(-850_511_287) == "-85.0511287")
        #expect(PMTilesMetadataMapping.degrees(-5) == "-0.0000005")
        #expect(PMTilesMetadataMapping.e7(-85.05112878) == -850_511_288)
    }
}
